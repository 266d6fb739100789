/**
 * The image service's narrow interface (decorated as `fastify.images`). Routes and the
 * pre-generation job depend on this, never on sharp or on the cache layout.
 *
 * Every image is derived from an original in the photo library and re-encoded (resized,
 * auto-oriented, metadata stripped); an original file's bytes are never handed out.
 */
import type { Photo } from '../photos/types.js';

export type ImageKind = 'thumbnail' | 'preview';

export const imageKinds: readonly ImageKind[] = ['thumbnail', 'preview'];

/** A rendered JPEG, as served. Immutable: cached and shared between requests. */
export type ServedImage = {
  readonly kind: ImageKind;
  readonly body: Buffer;
  /** Strong, quoted ETag (`"t…"`), derived from everything the bytes depend on. */
  readonly etag: string;
  /** `Photo.version` of the original it was made from. */
  readonly version: string;
};

export type ImageStats = {
  /** Images rendered from an original (each costs a decode). */
  renders: number;
  memoryHits: number;
  diskHits: number;
  /** Renders that failed. */
  failures: number;
  /** Disk cache writes that failed (the image was still served). */
  diskWriteFailures: number;
  /** Bytes held by the in-memory cache. */
  memoryBytes: number;
};

export interface ImageService {
  /**
   * The image of `kind` for `photo`: from memory, else from the disk cache, else rendered
   * (once, however many callers ask at the same time) and cached.
   * Throws `IMAGE_UNAVAILABLE` when the original cannot be rendered, and
   * `PHOTO_NOT_FOUND` when the original has disappeared since the index was built.
   */
  get(kind: ImageKind, photo: Photo): Promise<ServedImage>;
  /** The image when it is already in memory; no I/O (the hot path). */
  peek(kind: ImageKind, photo: Photo): ServedImage | undefined;
  /**
   * Makes sure the image is in the disk cache (pre-generation): `skipped` when it already
   * was, `rendered` when it was made and written now. Throws when it cannot be written.
   */
  ensure(kind: ImageKind, photo: Photo): Promise<'skipped' | 'rendered'>;
  stats(): ImageStats;
}
