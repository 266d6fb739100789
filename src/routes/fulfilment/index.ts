/**
 * The photographer's fulfilment day (docs/contract.md, "Fulfilment"), admin only:
 * - `GET /api/orders/{id}/print-files`: one order's print files as a streamed ZIP;
 * - `GET /api/labels/batch`: every paid order waiting to ship, one label per page (PDF or DOCX);
 * - `GET /api/orders/export.csv`: orders for the books;
 * - the print queue, a batch's print files and "mark printed" (print-queue.ts);
 * - the booth's printers and printing queue lines on them (printing.ts);
 * - `POST /api/orders/{id}/pickup`: ready / collected at the booth.
 */
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
