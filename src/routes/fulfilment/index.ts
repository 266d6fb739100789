/** The photographer's fulfilment day (docs/contract.md, "Fulfilment"), admin only. */
import type { FastifyPluginAsync } from 'fastify';
import labelsBatchRoutes from './labels-batch.js';
import ordersExportRoutes from './orders-export.js';
import pickupRoutes from './pickup.js';
import printFilesRoutes from './print-files.js';
import printQueueRoutes from './print-queue.js';
import printingRoutes from './printing.js';

const fulfilmentRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(printFilesRoutes);
  await fastify.register(labelsBatchRoutes);
  await fastify.register(ordersExportRoutes);
  await fastify.register(printQueueRoutes);
  await fastify.register(printingRoutes);
  await fastify.register(pickupRoutes);
};

export default fulfilmentRoutes;
