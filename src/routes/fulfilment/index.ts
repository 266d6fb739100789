/** The photographer's fulfilment day (docs/contract.md, "Fulfilment"), admin only. */
import type { FastifyPluginAsync } from 'fastify';
import { named } from '../../lib/plugin-name.js';
import labelsBatchRoutes from './labels-batch.js';
import ordersExportRoutes from './orders-export.js';
import pickupRoutes from './pickup.js';
import printFilesRoutes from './print-files.js';
import printQueueRoutes from './print-queue.js';
import printingRoutes from './printing.js';

const fulfilmentRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(named(printFilesRoutes));
  await fastify.register(named(labelsBatchRoutes));
  await fastify.register(named(ordersExportRoutes));
  await fastify.register(named(printQueueRoutes));
  await fastify.register(named(printingRoutes));
  await fastify.register(named(pickupRoutes));
};

export default fulfilmentRoutes;
