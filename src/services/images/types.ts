/**
 * The image service's narrow interface (decorated as `fastify.images`). Routes and the
 * pre-generation job depend on this, never on sharp or on the cache layout.
 *
 * Every image is derived from an original in the photo library and re-encoded (resized,
 * auto-oriented, metadata stripped); an original file's bytes are never handed out.
 */
import type { Photo } from '../photos/types.js';

/** Decoded, auto-oriented pixels (sharp's raw output), e.g. the intake's downscaled copy. */
export type RawPixels = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };

/**
 * Square tile widths (`?tile=`): the centre square, as the grid's cells show it, so no byte
 * is spent on what a cell hides. Chosen in docs/gallery-internals.md, "Tile sizes".
 */
export const TILE_WIDTHS = [160, 240, 360, 480] as const;
export type TileWidth = (typeof TILE_WIDTHS)[number];
export type TileKind = `tile${TileWidth}`;

/**
 * `thumbnail2x`: twice the thumbnail's size, for 2× screens (the photo item's `srcset`);
 * `tile<width>`: a square tile (TILE_WIDTHS).
 */
export type ImageKind = 'thumbnail' | 'thumbnail2x' | 'preview' | TileKind;

export const tileKind = (width: TileWidth): TileKind => `tile${width}`;

/** Tiles made ahead of any request, in WebP (docs/gallery-internals.md, "Tile sizes"); others on demand. */
export const PRERENDERED_TILES: readonly TileWidth[] = [240, 360];

export const imageKinds: readonly ImageKind[] = ['thumbnail', 'thumbnail2x', 'preview', ...TILE_WIDTHS.map(tileKind)];

/**
 * Encodings served, negotiated on `Accept` (negotiate.ts). AVIF is not among them: measured
 * here, its encoder takes 15-35× JPEG's time for a thumbnail (bench/phone-bytes.bench.ts).
 */
export type ImageFormat = 'jpeg' | 'webp';

export const imageFormats: readonly ImageFormat[] = ['jpeg', 'webp'];

export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = { jpeg: 'image/jpeg', webp: 'image/webp' };

/** What a render's cache key depends on: a listed photo, or a new one being inspected. */
export type PhotoRef = Pick<Photo, 'eventCode' | 'id' | 'version'>;

/** A rendered image, as served. Immutable: cached and shared between requests. */
export type ServedImage = {
  readonly kind: ImageKind;
  readonly format: ImageFormat;
  readonly body: Buffer;
  /** Strong, quoted ETag (`"t…"`), derived from everything the bytes depend on. */
  readonly etag: string;
  /** `Photo.version` of the original it was made from. */
  readonly version: string;
};

export type ImageStats = {
  /** Images rendered from an original on demand (each costs a decode). */
  renders: number;
  /** Thumbnails made ahead of any request by the intake, from its own decode of a new photo. */
  prerendered: number;
  memoryHits: number;
  diskHits: number;
  failures: number;
  /** Disk cache writes that failed (the image was still served). */
  diskWriteFailures: number;
  memoryBytes: number;
};

export interface ImageService {
  /**
   * The image of `kind` for `photo`: from memory, else from the disk cache, else rendered
   * (once, however many callers ask at the same time) and cached.
   * Throws `IMAGE_UNAVAILABLE` when the original cannot be rendered, and
   * `PHOTO_NOT_FOUND` when the original has disappeared since the index was built.
   */
  get(kind: ImageKind, photo: Photo, format?: ImageFormat): Promise<ServedImage>;
  /** The image when it is already in memory; no I/O (the hot path). */
  peek(kind: ImageKind, photo: Photo, format?: ImageFormat): ServedImage | undefined;
  /** Makes sure the image is in the disk cache (pre-generation). Throws when it cannot be written. */
  ensure(kind: ImageKind, photo: Photo, format?: ImageFormat): Promise<'skipped' | 'rendered'>;
  /**
   * Runs `task` in the render queue's background lane (after every render a visitor waits
   * for): how the intake's decode of new photos shares the cores with on-demand renders.
   */
  background<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Stores a new photo's thumbnails and PRERENDERED_TILES from pixels the intake has already
   * decoded (one decode per photo). Never rejects; false when the disk cache cannot be written.
   */
  storeThumbnails(photo: PhotoRef, pixels: RawPixels): Promise<boolean>;
  /** Deletes every render of `photo`: a photo taken down keeps nothing (docs/contract.md, "Takedown requests"). */
  forget(photo: Photo): Promise<number>;
  stats(): ImageStats;
}
