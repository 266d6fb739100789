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
 * The widths of the gallery's square tiles, in pixels (`?tile=`): the centre square of the
 * photo, as the grid's square cells show it (CSS `object-fit: cover`), so no byte is spent on
 * what a cell hides. Chosen from the grid's layout at common screens (docs/gallery-internals.md,
 * "Tile sizes"): 160 for 1× phones, 240 for 2× phones and 1× desktops, 360 for 3× phones and
 * 2× tablets and desktops, 480 for the widest cells on 2× screens.
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

/**
 * The tiles made ahead of any request, by the intake (`storeThumbnails`) and by `npm run
 * thumbnails`: the ones phones (2×, 3×) and desktops (1×, 2×) ask for (docs/gallery-internals.md,
 * "Tile sizes"), in WebP, which every browser showing the gallery takes. The others, and JPEG
 * tiles, are rendered when first asked for.
 */
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
  get(kind: ImageKind, photo: Photo, format?: ImageFormat): Promise<ServedImage>;
  /** The image when it is already in memory; no I/O (the hot path). */
  peek(kind: ImageKind, photo: Photo, format?: ImageFormat): ServedImage | undefined;
  /**
   * Makes sure the image is in the disk cache (pre-generation): `skipped` when it already
   * was, `rendered` when it was made and written now. Throws when it cannot be written.
   */
  ensure(kind: ImageKind, photo: Photo, format?: ImageFormat): Promise<'skipped' | 'rendered'>;
  /**
   * Runs `task` in the render queue's background lane (after every render a visitor waits
   * for): how the intake's decode of new photos shares the cores with on-demand renders.
   */
  background<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Stores the thumbnails of a new photo made from pixels it has already decoded (the
   * intake's one decode of each photo: services/intake): the thumbnail in every format, and
   * the tiles browsers ask for first (PRERENDERED_TILES, WebP) where the pixels are large
   * enough. Never rejects; resolves false when the disk cache cannot be written.
   */
  storeThumbnails(photo: PhotoRef, pixels: RawPixels): Promise<boolean>;
  /**
   * Deletes every render of `photo` (each kind and format, in memory and on disk): a photo taken
   * down for good keeps nothing rendered (docs/contract.md, "Takedown requests"). Resolves with
   * the number of files deleted.
   */
  forget(photo: Photo): Promise<number>;
  stats(): ImageStats;
}
