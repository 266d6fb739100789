/**
 * Original → served JPEG or WebP (adapters/sharp.ts). Pure: a path in, bytes out. Auto-oriented,
 * then all metadata dropped; never upscaled; a square tile is the centre square (what CSS
 * `object-fit: cover` shows). Resizing in the load pipeline lets libvips shrink while decoding
 * (a 24 MP original decoded at 1/8 for a thumbnail). Transparency goes onto white.
 */
import { encodeFittedPixels, type PhotoEncoding, readHeader, readPhoto, renderFitted } from '../../adapters/sharp.js';
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

/**
 * libwebp's effort (0-6) for every WebP render.
 * @public bench/phone-bytes.bench.ts reads it from the built module (dist/), out of knip's sight.
 */
export const WEBP_EFFORT = 2;

function encoding(format: ImageFormat, quality: number): PhotoEncoding {
  return format === 'webp' ? { format, quality, effort: WEBP_EFFORT } : { format, quality };
}

/**
 * Thumbnails from already decoded pixels (the intake's downscaled copy): no second decode, and
 * one resize for all the encodings asked for (each encode starts from the small copy).
 */
export function renderFromPixels(
  pixels: RawPixels,
  size: number,
  encodings: readonly { format: ImageFormat; quality: number }[],
  square = false,
): Promise<Buffer[]> {
  return encodeFittedPixels(
    pixels,
    { size, square },
    encodings.map((e) => encoding(e.format, e.quality)),
  );
}

export async function renderImage(originalPath: string, opts: RenderOptions): Promise<Rendered> {
  // The output size is only known after the resize; the watermark tile must not be larger.
  // A watermarked render reads the photo once, for its header and then its pixels.
  const photo = opts.watermark ? await readPhoto(originalPath) : originalPath;
  const tile = opts.watermark && tileInput(opts.watermark, await outputSize(photo, opts.size));
  return renderFitted(photo, { size: opts.size, square: opts.square }, encoding(opts.format, opts.quality), tile);
}

/** At most the size `renderImage` produces, from the header only (orientation included). */
async function outputSize(photo: string | Buffer, size: number): Promise<{ width: number; height: number }> {
  const meta = await readHeader(photo);
  const w = meta.width ?? size;
  const h = meta.height ?? size;
  const scale = Math.min(1, size / Math.max(w, h));
  // Rounded down: libvips' own rounding may give a pixel more, never less.
  return { width: Math.max(1, Math.floor(w * scale)), height: Math.max(1, Math.floor(h * scale)) };
}

/** The tile as a composite input, cropped when it is larger than the image (tiny originals). */
function tileInput(tile: WatermarkTile, { width, height }: { width: number; height: number }): WatermarkTile {
  if (tile.width <= width && tile.height <= height) return tile;
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
  return { data: out, width: w, height: h, channels: tile.channels };
}
