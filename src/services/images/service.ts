/**
 * Performance machinery for `npm run bench -- images` (a cached thumbnail ≥ 2.0× @fastify/static
 * serving the same bytes; a cold event's thumbnails ≤ 4 s on 2 cores).
 * The image service without Fastify: memory LRU → disk cache → render, one render per image
 * however many ask at once. The key holds everything an image's bytes depend on (photo
 * version, kind, size, quality, watermark, renderer revision, libvips version), so a replaced
 * original or a changed setting gets a new file and ETag, never a stale one.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { IMAGE_LIBRARY_VERSION } from '../../adapters/sharp.js';
import { appError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { Photo } from '../photos/types.js';
import { DiskCache, type RenderSuffix } from './disk-cache.js';
import { renderQueue } from './limiter.js';
import { type PruneResult, pruneDiskCache } from './prune.js';
import { QUALITY, type Rendered, renderFromPixels, renderImage } from './render.js';
import {
  type ImageFormat,
  type ImageKind,
  type ImageService,
  type ImageStats,
  imageFormats,
  imageKinds,
  type PhotoRef,
  PRERENDERED_TILES,
  type ServedImage,
  tileKind,
} from './types.js';
import { watermarkTiles } from './watermark.js';

/** Bump when the rendering changes in a way the other key parts do not capture. */
const RENDERER_REVISION = 1;
const SUFFIX: Readonly<Record<ImageFormat, RenderSuffix>> = { jpeg: '.jpg', webp: '.webp' };
/** How long a failed render is remembered, so a broken file does not cost a decode per request. */
const FAILURE_TTL_MS = 10_000;
/** Per-entry bookkeeping added to the body size in the memory budget. */
const ENTRY_OVERHEAD_BYTES = 256;

export type ImageServiceOptions = {
  /** Absolute path of a photo's original (the photo library's `originalPath`). */
  originalPath: (photo: Photo) => string;
  /** Folder of the disk cache, e.g. DATA_DIR/cache/images. */
  cacheDir: string;
  thumbnailSize: number;
  previewSize: number;
  watermarkText: string;
  /** Memory cache budget in bytes; 0 disables it (everything from the disk cache). */
  memoryBytes: number;
  /** Renders at once (default: the number of cores). */
  concurrency?: number;
  /**
   * How long a visitor's render may wait for a free slot before it is refused with 503
   * `BUSY` (IMAGE_QUEUE_TIMEOUT_MS); 0 waits as long as it takes (the pre-generation job).
   */
  queueTimeoutMs?: number;
  log: Logger;
};

export type ImageServiceHandle = ImageService & {
  /** Resolves when every render under way and its disk write have finished (called on app close). */
  close(): Promise<void>;
  readonly cacheDir: string;
  /**
   * Removes the disk cache's renders that none of `photos` has any more, and trims it to
   * `maxBytes` (prune.ts). `photos` is the whole library: anything else is an orphan.
   */
  prune(photos: Iterable<Photo>, limits: { graceMs: number; maxBytes: number }): Promise<PruneResult>;
};

export function createImageService(opts: ImageServiceOptions): ImageServiceHandle {
  const disk = new DiskCache(opts.cacheDir, opts.log);
  const memory =
    opts.memoryBytes > 0
      ? new LRUCache<string, ServedImage>({
          maxSize: opts.memoryBytes,
          sizeCalculation: (img) => img.body.length + ENTRY_OVERHEAD_BYTES,
        })
      : undefined;
  const inflight = new Map<string, Promise<ServedImage>>();
  const failed = new LRUCache<string, Error>({ max: 1000, ttl: FAILURE_TTL_MS });
  const pendingWrites = new Set<Promise<unknown>>();
  const queue = renderQueue(opts.concurrency ?? Math.max(1, os.availableParallelism()), {
    timeoutMs: opts.queueTimeoutMs ?? 0,
  });
  const tileFor = watermarkTiles();
  const counters = { renders: 0, prerendered: 0, memoryHits: 0, diskHits: 0, failures: 0 };

  const sizeOf = (kind: ImageKind): number => {
    if (kind === 'thumbnail') return opts.thumbnailSize;
    if (kind === 'thumbnail2x') return 2 * opts.thumbnailSize;
    if (kind === 'preview') return opts.previewSize;
    return Number(kind.slice('tile'.length));
  };
  const isTile = (kind: ImageKind) => kind.startsWith('tile');
  const memoryKey = (kind: ImageKind, p: Photo, format: ImageFormat) =>
    `${kind}\u0000${format}\u0000${p.eventCode}\u0000${p.id}\u0000${p.version}`;

  function diskKey(kind: ImageKind, p: PhotoRef, format: ImageFormat): string {
    const parts = [
      RENDERER_REVISION,
      IMAGE_LIBRARY_VERSION,
      kind,
      sizeOf(kind),
      QUALITY[kind][format],
      kind === 'preview' ? opts.watermarkText : '',
      p.eventCode,
      p.id,
      p.version,
    ];
    // JPEG keys as before this format was added, so existing caches stay valid.
    if (format !== 'jpeg') parts.push(format);
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);
  }

  const served = (kind: ImageKind, format: ImageFormat, p: Photo, key: string, body: Buffer): ServedImage =>
    Object.freeze({ kind, format, body, etag: `"${kind[0]}${key.slice(0, 32)}"`, version: p.version });

  /** Renders from the original; maps a vanished original to PHOTO_NOT_FOUND. */
  async function render(kind: ImageKind, p: Photo, format: ImageFormat): Promise<Rendered> {
    const source = opts.originalPath(p);
    try {
      const watermark = kind === 'preview' ? await tileFor(opts.watermarkText, opts.previewSize) : undefined;
      // A tile of a photo smaller than it is the square of the photo's short edge (never upscaled).
      const square = isTile(kind);
      const size = square ? Math.min(sizeOf(kind), p.width, p.height) : sizeOf(kind);
      const out = await queue.now(() =>
        renderImage(source, { size, square, format, quality: QUALITY[kind][format], watermark }),
      );
      counters.renders++;
      return out;
    } catch (err) {
      if ((err as { code?: string }).code === 'BUSY') throw err;
      counters.failures++;
      const missing = await stat(source).then(
        () => false,
        () => true,
      );
      if (missing) {
        throw appError('PHOTO_NOT_FOUND', { details: `${p.eventCode}/${p.number}`, cause: err });
      }
      opts.log.warn({ err, event: p.eventCode, photo: p.id, kind }, 'image render failed');
      throw appError('IMAGE_UNAVAILABLE', { details: `${p.eventCode}/${p.number}`, cause: err });
    }
  }

  function track(write: Promise<unknown>): void {
    pendingWrites.add(write);
    void write.finally(() => pendingWrites.delete(write));
  }

  async function load(
    kind: ImageKind,
    p: Photo,
    format: ImageFormat,
    key: string,
  ): Promise<{ img: ServedImage; rendered: boolean }> {
    const fromDisk = await disk.read(kind, key, SUFFIX[format]);
    if (fromDisk) {
      counters.diskHits++;
      return { img: served(kind, format, p, key, fromDisk), rendered: false };
    }
    const { body } = await render(kind, p, format);
    return { img: served(kind, format, p, key, body), rendered: true };
  }

  const service: ImageServiceHandle = {
    cacheDir: opts.cacheDir,

    peek(kind, photo, format = 'jpeg') {
      const hit = memory?.get(memoryKey(kind, photo, format));
      if (hit) counters.memoryHits++;
      return hit;
    },

    get(kind, photo, format = 'jpeg') {
      const mKey = memoryKey(kind, photo, format);
      const hit = memory?.get(mKey);
      if (hit) {
        counters.memoryHits++;
        return Promise.resolve(hit);
      }
      const pending = inflight.get(mKey);
      if (pending) return pending;
      const recent = failed.get(mKey);
      if (recent) return Promise.reject(recent);

      const key = diskKey(kind, photo, format);
      const loading = load(kind, photo, format, key);
      const result = loading.then((r) => r.img);
      inflight.set(mKey, result);
      // Tracked from the render on, not from the write: a render under way when the app closes
      // writes its file after close() began, and close() waits for that too.
      track(
        loading.then(
          ({ img, rendered }) => {
            memory?.set(mKey, img);
            // Kept in flight until it is on disk, so a cache without memory never renders twice.
            const stored = rendered ? disk.write(kind, key, img.body, SUFFIX[format]) : Promise.resolve(true);
            return stored.finally(() => inflight.delete(mKey));
          },
          (err: Error) => {
            inflight.delete(mKey);
            if ((err as { code?: string }).code === 'IMAGE_UNAVAILABLE') failed.set(mKey, err);
          },
        ),
      );
      return result;
    },

    async ensure(kind, photo, format = 'jpeg') {
      const key = diskKey(kind, photo, format);
      if (await disk.has(kind, key, SUFFIX[format])) return 'skipped';
      const { body } = await render(kind, photo, format);
      if (!(await disk.write(kind, key, body, SUFFIX[format]))) {
        throw new Error(`cannot write to the image cache in ${opts.cacheDir}`);
      }
      return 'rendered';
    },

    background: (task) => queue.background(task),

    async storeThumbnails(photo, pixels) {
      const encodings = imageFormats.map((format) => ({ format, quality: QUALITY.thumbnail[format] }));
      const bodies = await renderFromPixels(pixels, opts.thumbnailSize, encodings).catch(() => undefined);
      if (!bodies) return false;
      let ok = true;
      for (const [i, format] of imageFormats.entries()) {
        counters.prerendered++;
        const body = bodies[i] as Buffer;
        if (!(await disk.write('thumbnail', diskKey('thumbnail', photo, format), body, SUFFIX[format]))) ok = false;
      }
      // Only tiles the decoded copy covers: a smaller one would come out smaller than asked.
      const shortEdge = Math.min(pixels.width, pixels.height);
      for (const width of PRERENDERED_TILES) {
        if (width > shortEdge) continue;
        const kind = tileKind(width);
        const [body] = (await renderFromPixels(
          pixels,
          width,
          [{ format: 'webp', quality: QUALITY[kind].webp }],
          true,
        ).catch(() => [])) as Buffer[];
        if (!body) return false;
        counters.prerendered++;
        if (!(await disk.write(kind, diskKey(kind, photo, 'webp'), body, SUFFIX.webp))) ok = false;
      }
      return ok;
    },

    async prune(photos, limits) {
      // Built when the sweep meets its first render file (never for an empty cache).
      let live: Promise<Set<string>> | undefined;
      const liveKeys = async () => {
        const keys = new Set<string>();
        let n = 0;
        for (const p of photos) {
          for (const kind of imageKinds) {
            for (const format of imageFormats) keys.add(`${kind}/${diskKey(kind, p, format)}`);
          }
          // Fourteen hashes a photo (every kind and format), about 3 µs each: yield every 50
          // photos, so requests wait a millisecond or two at most.
          if (++n % 50 === 0) await yieldToEventLoop();
        }
        return keys;
      };
      return pruneDiskCache({
        dir: opts.cacheDir,
        isLive: async (kind, key) => {
          live ??= liveKeys();
          return (await live).has(`${kind}/${key}`);
        },
        ...limits,
      });
    },

    async forget(photo) {
      let removed = 0;
      for (const kind of imageKinds) {
        for (const format of imageFormats) {
          memory?.delete(memoryKey(kind, photo, format));
          if (await disk.remove(kind, diskKey(kind, photo, format), SUFFIX[format])) removed++;
        }
      }
      return removed;
    },

    stats(): ImageStats {
      return {
        ...counters,
        diskWriteFailures: disk.failures,
        memoryBytes: memory?.calculatedSize ?? 0,
      };
    },

    async close() {
      // Until none is left: a render that ends while we wait may start its write.
      while (pendingWrites.size > 0) await Promise.allSettled([...pendingWrites]);
    },
  };
  return service;
}
