/**
 * `fastify.prints`: print-ready files and their streamed ZIP (docs/contract.md, "Fulfilment").
 * Photos come from the library; the sizes of prints other than 4x6, 5x7 and 8x10 from the
 * event's `printSizes` setting (event.json), read through the event catalog.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPrintService } from './service.js';
import { PrintSpool } from './spool.js';
import type { PrintFiles } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    prints: PrintFiles;
  }
}

async function printsPlugin(fastify: FastifyInstance) {
  const { photos, events, config } = fastify;
  const spool = new PrintSpool(path.join(config.dataDir, 'cache', 'print-files'));
  await spool.prepare();
  fastify.decorate(
    'prints',
    createPrintService({
      findPhoto: (eventSlug, number) => photos.findPhoto(eventSlug, number),
      originalPath: (photo) => photos.originalPath(photo),
      printSizes: async (eventSlug) => (await events.get(eventSlug))?.printSizes ?? {},
      spool,
      log: fastify.log.child({ service: 'prints' }),
    }),
  );
}

export default fp(printsPlugin, { name: 'prints', dependencies: ['photos', 'events'] });
