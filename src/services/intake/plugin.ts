/**
 * Wires the inspection of new photos (inspect.ts) into the photo library, once both the
 * library and the image service exist. INTAKE_INSPECT=off leaves new photos uninspected:
 * listed as soon as they are settled, thumbnails rendered on demand, no photo codes read.
 */
import fp from 'fastify-plugin';
import { createInspector } from './inspect.js';

export default fp(
  async function intakePlugin(fastify) {
    const { config, images } = fastify;
    if (config.INTAKE_INSPECT === 'off') return;
    const inspector = createInspector({ images, thumbnailSize: config.THUMBNAIL_SIZE });
    fastify.photoInspection.use(inspector.inspect);
    // Runs before the image service and the library close (registered after them): no
    // inspection writes into the cache once they are gone.
    fastify.addHook('onClose', () => inspector.close());
  },
  { name: 'intake', dependencies: ['config', 'photos', 'images'] },
);
