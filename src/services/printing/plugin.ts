/**
 * `fastify.printing`: the booth's printers over IPP (docs/contract.md, "Printing at the booth").
 * Started once the app is ready (jobs left in flight by an earlier run are followed again, and
 * auto-print looks for paid pickup orders); stopped before the store closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPrintingService } from './service.js';
import type { Printing } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    printing: Printing;
  }
}

async function printingPlugin(fastify: FastifyInstance) {
  const { config, store, prints, events } = fastify;
  const service = createPrintingService({
    printers: config.PRINTERS,
    timeoutMs: config.PRINTER_TIMEOUT_MS,
    pollMs: config.PRINT_JOB_POLL_MS,
    engine: store.engine,
    prints,
    jobs: store.printJobs,
    orders: store.orders,
    events: async () =>
      (await events.list()).map((e) => ({ code: e.code, autoPrint: e.autoPrint, autoPrintSince: e.autoPrintSince })),
    log: fastify.log.child({ service: 'printing' }),
  });
  fastify.decorate('printing', service);
  fastify.addHook('onReady', async () => service.start());
  fastify.addHook('preClose', async () => service.stop());
}

export default fp(printingPlugin, { name: 'printing', dependencies: ['config', 'store', 'prints', 'events'] });
