/**
 * Original → served JPEG or WebP, with sharp. Pure: a path in, bytes out; no caching here.
 *
 * - auto-orients by EXIF, then drops all metadata (sharp keeps none unless asked);
 * - fits the long edge into `size`, or, for a square tile, crops the centre square of `size`
 *   px (what a square cell with CSS `object-fit: cover` shows); never upscales a smaller original;
 * - resizes in the same pipeline as the load, so libvips shrinks JPEGs while decoding
 *   (shrink-on-load: a 24 MP original is decoded at 1/8 for a thumbnail);
 * - flattens transparency onto white (JPEG has no alpha; WebP gets the same pixels);
 * - previews get the watermark tile repeated across the whole image.
 */
import sharp, { type ResizeOptions, type Sharp } from 'sharp';
import type { ImageFormat, ImageKind, RawPixels } from './types.js';
import type { WatermarkTile } from './watermark.js';

export type RenderOptions = {
  size: number;
  format: ImageFormat;
  quality: number;
  /** The centre square of `size` × `size` px instead of the whole photo fitted into `size`. */
  square?: boolean;
  /** Previews only. */
  watermark?: WatermarkTile;
};

export type Rendered = { body: Buffer; width: number; height: number };

/**
 * Output quality per kind and format: thumbnails are small enough that JPEG 80 looks clean.
 * WebP's quality is chosen for the same look at fewer bytes: SSIM ≥ 0.97 against a lossless
 * render of the same size at ≤ 0.7× JPEG's bytes (bench/phone-bytes.bench.ts). WebP encodes
 * at effort 2: the default (4) costs twice the time for a few percent of bytes.
 */
export const QUALITY: Readonly<Record<ImageKind, Readonly<Record<ImageFormat, number>>>> = {
  thumbnail: { jpeg: 80, webp: 64 },
  thumbnail2x: { jpeg: 78, webp: 62 },
  preview: { jpeg: 82, webp: 68 },
  // Tiles are thumbnails cut square: the same look.
  tile160: { jpeg: 80, webp: 64 },
  tile240: { jpeg: 80, webp: 64 },
  tile360: { jpeg: 80, webp: 64 },
  tile480: { jpeg: 80, webp: 64 },
};

/** The resize of a render: the whole photo inside `size`, or its centre square (`square`). */
function fitting(size: number, square: boolean | undefined): ResizeOptions {
  return square
    ? { width: size, height: size, fit: 'cover', position: 'centre', withoutEnlargement: true }
    : { width: size, height: size, fit: 'inside', withoutEnlargement: true };
}
/**
 * libwebp's effort (0-6) for every WebP render.
 * @public bench/phone-bytes.bench.ts reads it from the built module (dist/), out of knip's sight.
 */
export const WEBP_EFFORT = 2;

function encode(pipeline: Sharp, format: ImageFormat, quality: number): Sharp {
  return format === 'webp'
    ? pipeline.webp({ quality, effort: WEBP_EFFORT })
    : pipeline.jpeg({ quality, chromaSubsampling: '4:2:0' });
}

/**
 * Thumbnails from already decoded pixels (the intake's downscaled copy): no second decode, and
 * one resize for all the encodings asked for (each encode starts from the small copy).
 */
export async function renderFromPixels(
  pixels: RawPixels,
  size: number,
  encodings: readonly { format: ImageFormat; quality: number }[],
  square = false,
): Promise<Buffer[]> {
  const { data, width, height, channels } = pixels;
  const small = await sharp(data, { raw: { width, height, channels } })
    .resize(fitting(size, square))
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: small.info.width, height: small.info.height, channels: small.info.channels };
  return Promise.all(encodings.map((e) => encode(sharp(small.data, { raw }), e.format, e.quality).toBuffer()));
}

export async function renderImage(originalPath: string, opts: RenderOptions): Promise<Rendered> {
  // failOn 'error': camera files with harmless warnings still render; broken ones fail.
  const pipeline = sharp(originalPath, { failOn: 'error' })
    .autoOrient()
    .resize(fitting(opts.size, opts.square))
    .flatten({ background: '#ffffff' });

  if (opts.watermark) {
    // The output size is only known after the resize; the tile must not be larger.
    const { width, height } = await outputSize(originalPath, opts.size);
    pipeline.composite([{ ...tileInput(opts.watermark, width, height), tile: true, blend: 'over' }]);
  }

  const { data, info } = await encode(pipeline, opts.format, opts.quality).toBuffer({ resolveWithObject: true });
  return { body: data, width: info.width, height: info.height };
}

/** At most the size `renderImage` produces, from the header only (orientation included). */
async function outputSize(originalPath: string, size: number): Promise<{ width: number; height: number }> {
  const meta = await sharp(originalPath).metadata();
  const w = meta.autoOrient?.width ?? meta.width ?? size;
  const h = meta.autoOrient?.height ?? meta.height ?? size;
  const scale = Math.min(1, size / Math.max(w, h));
  // Rounded down: sharp's own rounding may give a pixel more, never less.
  return { width: Math.max(1, Math.floor(w * scale)), height: Math.max(1, Math.floor(h * scale)) };
}

/** The tile as a composite input, cropped when it is larger than the image (tiny originals). */
function tileInput(tile: WatermarkTile, width: number, height: number) {
  if (tile.width <= width && tile.height <= height) {
    return { input: tile.data, raw: { width: tile.width, height: tile.height, channels: tile.channels } };
  }
  const w = Math.min(tile.width, width);
  const h = Math.min(tile.height, height);
  const rowBytes = tile.width * tile.channels;
  const out = Buffer.allocUnsafe(w * h * tile.channels);
  // Crop around the tile's centre, where the text is.
  const x0 = Math.floor((tile.width - w) / 2);
  const y0 = Math.floor((tile.height - h) / 2);
  for (let y = 0; y < h; y++) {
    const start = (y0 + y) * rowBytes + x0 * tile.channels;
    tile.data.copy(out, y * w * tile.channels, start, start + w * tile.channels);
  }
  return { input: out, raw: { width: w, height: h, channels: tile.channels } };
}
