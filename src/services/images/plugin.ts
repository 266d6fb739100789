/**
 * `fastify.images`: thumbnails and watermarked previews of the photo library's originals,
 * cached in memory (IMAGE_MEMORY_CACHE_MB) and on disk (DATA_DIR/cache/images).
 */
import path from 'node:path';
import fp from 'fastify-plugin';
import { createImageService } from './service.js';
import type { ImageService } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    images: ImageService;
  }
}

/** Where rendered images are kept, under DATA_DIR. */
export function imageCacheDir(dataDir: string): string {
  return path.join(dataDir, 'cache', 'images');
}

export default fp(
  async function imagesPlugin(fastify) {
    const { config, photos } = fastify;
    const service = createImageService({
      originalPath: (photo) => photos.originalPath(photo),
      cacheDir: imageCacheDir(config.dataDir),
      thumbnailSize: config.THUMBNAIL_SIZE,
      previewSize: config.PREVIEW_SIZE,
      watermarkText: config.WATERMARK_TEXT,
      memoryBytes: config.IMAGE_MEMORY_CACHE_MB * 1024 * 1024,
      log: fastify.log.child({ service: 'images' }),
    });
    fastify.decorate('images', service);
    // Let disk writes in progress land before the data folder may go away.
    fastify.addHook('onClose', async () => service.close());
  },
  { name: 'images', dependencies: ['config', 'photos'] },
);
