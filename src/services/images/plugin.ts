/**
 * `fastify.images`: thumbnails and watermarked previews of the photo library's originals,
 * cached in memory (IMAGE_MEMORY_CACHE_MB) and on disk (DATA_DIR/cache/images). The disk
 * cache is swept once the library is indexed and then every IMAGE_CACHE_SWEEP_INTERVAL_MS
 * (prune.ts), in the background.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from '../../lib/logger.js';
import type { PruneResult } from './prune.js';
import { createImageService } from './service.js';
import type { ImageService } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    images: ImageService;
  }
}

/**
 * An orphan younger than this is kept: `npm run thumbnails` or a second server sharing the
 * folder may have rendered it for a photo this process has not indexed yet.
 */
const ORPHAN_GRACE_MS = 10 * 60 * 1000;

/** Where rendered images are kept, under DATA_DIR. */
export function imageCacheDir(dataDir: string): string {
  return path.join(dataDir, 'cache', 'images');
}

export default fp(
  async function imagesPlugin(fastify) {
    const { config, photos } = fastify;
    const log = fastify.log.child({ service: 'images' });
    const service = createImageService({
      originalPath: (photo) => photos.originalPath(photo),
      cacheDir: imageCacheDir(config.dataDir),
      thumbnailSize: config.THUMBNAIL_SIZE,
      previewSize: config.PREVIEW_SIZE,
      watermarkText: config.WATERMARK_TEXT,
      memoryBytes: config.IMAGE_MEMORY_CACHE_MB * 1024 * 1024,
      queueTimeoutMs: config.IMAGE_QUEUE_TIMEOUT_MS,
      log,
    });
    fastify.decorate('images', service);

    const limits = { graceMs: ORPHAN_GRACE_MS, maxBytes: config.IMAGE_DISK_CACHE_MB * 1024 * 1024 };
    let sweeping: Promise<unknown> | undefined;
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const sweep = () => {
      if (sweeping || closed) return;
      sweeping = service
        .prune(allPhotos(photos), limits)
        .then(
          (r) => report(log, r),
          (err: unknown) => log.warn({ err }, 'image cache sweep failed; the next one tries again'),
        )
        .finally(() => {
          sweeping = undefined;
        });
    };
    const every = config.IMAGE_CACHE_SWEEP_INTERVAL_MS;
    if (every > 0) {
      // Only against a complete index: before the first scan ends, every render looks orphaned.
      fastify.addHook('onReady', async () => {
        void photos.ready().then(() => {
          if (closed) return;
          sweep();
          timer = setInterval(sweep, every);
          timer.unref();
        });
      });
    }
    fastify.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      // A sweep in progress and disk writes land before the data folder may go away.
      await Promise.allSettled([sweeping, service.close()]);
    });
  },
  { name: 'images', dependencies: ['config', 'photos'] },
);

function* allPhotos(photos: FastifyInstance['photos']) {
  for (const event of photos.listEvents()) yield* photos.photosOf(event.code) ?? [];
}

function report(log: Logger, r: PruneResult): void {
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  const removed = r.orphansRemoved + r.tempsRemoved + r.evicted;
  const fields = { ...r, removedMb: mb(r.removedBytes), keptMb: mb(r.keptBytes) };
  if (removed > 0) log.info(fields, 'image cache swept');
  else log.debug(fields, 'image cache swept: nothing to remove');
}
