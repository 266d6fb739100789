/**
 * `fastify.photos`: the photo library index (library.ts), numbered in the store's photo
 * catalogue. With DEMO_LIBRARY=auto and an empty PHOTOS_DIR, the demo library is drawn first.
 * Start-up waits for the first scan for at most INITIAL_WAIT_MS; until it is done the gallery
 * answers 503 and `/readyz` says `photos` is not ready.
 */
import fp from 'fastify-plugin';
import { ensureDemoLibrary } from './demo.js';
import type { Inspector } from './inspection.js';
import { createPhotoLibrary } from './library.js';
import type { PhotoLibrary } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    photos: PhotoLibrary;
    /** Where the intake plugin hands the library its inspector of new photos (services/intake). */
    photoInspection: { use(inspector: Inspector): void };
  }
}

/**
 * Well below Fastify's plugin timeout (10 s), which bounds the whole app: a cold 50,000-photo
 * index finishes in the background, behind a 503, rather than risking a failed start-up.
 */
const INITIAL_WAIT_MS = 2_000;

export default fp(
  async function photosPlugin(fastify) {
    const { config } = fastify;
    const log = fastify.log.child({ service: 'photos' });
    const library = createPhotoLibrary({
      photosDir: config.photosDir,
      dataDir: config.dataDir,
      catalogue: fastify.store.photoCatalogue,
      syncIntervalMs: config.LIBRARY_SYNC_INTERVAL_MS,
      log,
      rescanIntervalMs: config.LIBRARY_RESCAN_INTERVAL_MS,
      settleMs: config.INTAKE_SETTLE_MS,
      finderGapMs: config.FINDER_GAP_MS,
    });
    const initial = (async () => {
      if (config.DEMO_LIBRARY === 'auto') {
        await ensureDemoLibrary({ photosDir: config.photosDir, dataDir: config.dataDir, log }).catch((err) =>
          log.error({ err }, 'cannot generate the demo library'),
        );
      }
      await library.start();
    })();

    fastify.decorate('photos', library);
    fastify.decorate('photoInspection', { use: (inspector: Inspector) => library.setInspector(inspector) });
    fastify.readiness.add('photos', async () => ({
      ok: library.isReady,
      details: library.isReady
        ? { events: library.listEvents().length }
        : { indexing: true, photosDir: config.photosDir },
    }));
    fastify.addHook('onClose', async () => {
      await library.close();
      await initial;
    });

    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      initial.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), INITIAL_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    // A status, not a fault: a first start drawing the demo library, or a large library, gets here.
    if (!inTime) log.info('the photo library is still being indexed; the gallery answers 503 until it is done');
  },
  { name: 'photos', dependencies: ['config', 'readiness', 'store'] },
);
