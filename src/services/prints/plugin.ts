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
  const log = fastify.log.child({ service: 'prints' });
  const spool = new PrintSpool(path.join(config.dataDir, 'cache', 'print-files'));
  // A folder that can't be made costs memory, not the print files: they wait in memory.
  const spooling = await spool.prepare().then(
    () => true,
    (err: unknown) => {
      log.warn({ err, dir: spool.dir }, 'print file spool folder is not writable; print files wait in memory');
      return false;
    },
  );
  fastify.decorate(
    'prints',
    createPrintService({
      findPhoto: (eventSlug, number) => photos.findPhoto(eventSlug, number),
      originalPath: (photo) => photos.originalPath(photo),
      printSizes: async (eventSlug) => (await events.get(eventSlug))?.printSizes ?? {},
      spool: spooling ? spool : undefined,
      log,
    }),
  );
}

export default fp(printsPlugin, { name: 'prints', dependencies: ['config', 'photos', 'events'] });
