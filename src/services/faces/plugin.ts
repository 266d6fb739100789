/**
 * Decorates `fastify.faces` (service.ts): Find me by face (docs/contract.md, "Find me by face").
 *
 * FACE_SEARCH=off (the default) decorates a stand-in and starts nothing: no thread, no model,
 * no timer. On, the face packages must be installed (optional dependencies: docs/gallery.md);
 * without them the server says so once and face search stays off. With them, indexing runs in
 * the background for the events whose setting `faceSearch` is on.
 */
import fp from 'fastify-plugin';
import { VECTOR_SIZE } from './engine.js';
import { FaceThreads } from './face-threads.js';
import { FaceIndexer } from './indexer.js';
import { resolveFacePackages } from './packages.js';
import { createFaceSearch, type FaceSearch, faceSearchOff } from './service.js';
import { VectorStore } from './vector-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    faces: FaceSearch;
  }
}

/** How often each process looks for new photos and for vectors other processes recorded. */
const SYNC_MS = 5_000;
/** A face thread with nothing to do stops after this long (its engine holds about 150 MB). */
const IDLE_MS = 10 * 60_000;

export default fp(
  async function facesPlugin(fastify) {
    const { config } = fastify;
    if (config.FACE_SEARCH === 'off') {
      fastify.decorate('faces', faceSearchOff('off'));
      return;
    }
    const log = fastify.log.child({ service: 'faces' });
    const packages = resolveFacePackages();
    if (!packages.ok) {
      log.warn(
        { missing: packages.missing },
        'FACE_SEARCH=on, but the face packages are not installed (`npm install --include=optional`); face search stays off',
      );
      fastify.decorate('faces', faceSearchOff('missing'));
      return;
    }
    const eventsOn = async () => (await fastify.events.list()).filter((ev) => ev.faceSearch).map((ev) => ev.code);
    const threads = new FaceThreads(config.FACE_THREADS, IDLE_MS);
    const vectors = new VectorStore(VECTOR_SIZE);
    const indexer = new FaceIndexer({
      store: fastify.store.faces,
      photos: fastify.photos,
      images: fastify.images,
      threads,
      vectors,
      eventsOn,
      concurrency: config.FACE_THREADS,
      syncMs: SYNC_MS,
      log,
    });
    const faces = createFaceSearch({
      photos: fastify.photos,
      takedowns: fastify.takedowns,
      indexer,
      threads,
      vectors,
      eventsOn,
      minSimilarity: config.FACE_MATCH_MIN_SIMILARITY,
    });
    fastify.decorate('faces', faces);
    // Face search switched on (or off) for an event: indexing starts now, not at the next look.
    // This does not wait for onReady either: a tool or bench that changes the setting on an app
    // it never made ready (no listen, ready or inject) still has the event indexed.
    const unsubscribe = fastify.events.onUpdate((_code, patch) => {
      if (patch.faceSearch !== undefined) void indexer.kick();
    });
    fastify.addHook('onReady', () => indexer.start());
    // Runs before the image service, the library and the store close (registered after them).
    fastify.addHook('onClose', async () => {
      unsubscribe();
      await faces.close();
    });
    log.info({ threads: config.FACE_THREADS }, 'face search on');
  },
  { name: 'faces', dependencies: ['config', 'store', 'photos', 'images', 'events', 'takedowns'] },
);
