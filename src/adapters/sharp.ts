/**
 * The one module that imports sharp (libvips): every decode, resize, composite and encode is
 * one of the operations below, so a change of image library is a change here. Nothing here
 * copies pixels (the images and print-files benches hold the paths through it).
 * A photo given by path is read into memory first, never handed to libvips as a path: libvips
 * maps a JPEG file into memory, and a file truncated under that mapping (a photo copied over
 * in place while it renders) kills the whole process with SIGBUS. Bytes read while the file is
 * rewritten are at worst short or mixed, and the decode fails like any damaged photo's.
 * Photos open with `failOn: 'error'`: camera files with harmless warnings still decode.
 * Transparency is flattened onto white (JPEG has no alpha; WebP gets the same pixels).
 */
import { readFile } from 'node:fs/promises';
import sharp, { type OverlayOptions, type ResizeOptions, type Sharp } from 'sharp';

export type Channels = 1 | 2 | 3 | 4;
/** Decoded pixels, row by row, `channels` bytes each (non-premultiplied alpha when there is one). */
export type RawImage = { data: Buffer; width: number; height: number; channels: Channels };
export type Size = { width: number; height: number };
/** Encoded bytes (JPEG, WebP or PNG) and the pixel size they hold. */
export type Encoded = Size & { body: Buffer };

/** The whole image fitted inside `size` × `size`, or its centre square of `size` px; never enlarged. */
export type Fit = { size: number; square?: boolean };

/** How a photo is encoded for the gallery: JPEG 4:2:0 or WebP at the given effort (0-6). */
export type PhotoEncoding = { format: 'jpeg'; quality: number } | { format: 'webp'; quality: number; effort: number };

/** A PNG (or JPEG) placed over a canvas with its top-left corner at `left`, `top`. */
export type Layer = { input: Buffer; left: number; top: number };

/** Pango text (its markup) set in one font file; `dpi` 72 makes one point one pixel. */
export type TextSpec = {
  markup: string;
  /** Pango font description: family, style and size ("Noto Sans JP Bold 8"). */
  font: string;
  fontfile: string;
  /** Coloured text with alpha (otherwise one grey channel: ink as brightness). */
  rgba?: boolean;
  dpi?: number;
  /** Wraps at this width (between words, or inside one too long for a line). */
  width?: number;
  /** With `width`: the size is chosen to fill this box (libvips' autofit), `font`'s size ignored. */
  height?: number;
};

/** What the header says, before any decode: size as displayed (EXIF orientation applied). */
export type ImageHeader = { format?: string; compression?: string; width?: number; height?: number };

const WHITE = '#ffffff';
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** The libvips version: part of the key of rendered images cached on disk. */
export const IMAGE_LIBRARY_VERSION: string = sharp.versions.vips;

/**
 * A photo's bytes, read once for several operations (its header, then its render): every
 * operation below takes a path or these bytes.
 */
export const readPhoto = (path: string): Promise<Buffer> => readFile(path);

/** A path is read (see above), bytes are taken as they are. */
const bytesOf = (source: string | Buffer): Promise<Buffer> =>
  typeof source === 'string' ? readPhoto(source) : Promise.resolve(source);

/** Reads the header only. `strict`: a file with decoding errors is refused here already. */
export async function readHeader(source: string | Buffer, opts: { strict?: boolean } = {}): Promise<ImageHeader> {
  const bytes = await bytesOf(source);
  const meta = await (opts.strict ? sharp(bytes, { failOn: 'error' }) : sharp(bytes)).metadata();
  return {
    format: meta.format,
    compression: meta.compression,
    width: meta.autoOrient?.width ?? meta.width,
    height: meta.autoOrient?.height ?? meta.height,
  };
}

function fitting({ size, square }: Fit): ResizeOptions {
  return square
    ? { width: size, height: size, fit: 'cover', position: 'centre', withoutEnlargement: true }
    : { width: size, height: size, fit: 'inside', withoutEnlargement: true };
}

function encode(pipeline: Sharp, encoding: PhotoEncoding): Sharp {
  return encoding.format === 'webp'
    ? pipeline.webp({ quality: encoding.quality, effort: encoding.effort })
    : pipeline.jpeg({ quality: encoding.quality, chromaSubsampling: '4:2:0' });
}

const fromRaw = (image: RawImage) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });

async function toRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

async function toEncoded(pipeline: Sharp): Promise<Encoded> {
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { body: data, width: info.width, height: info.height };
}

/**
 * A photo decoded small: auto-oriented, fitted inside `size` (resized in the load pipeline, so
 * libvips shrinks a JPEG while decoding it), flattened onto white, as RGBA (`'rgba'`) or as
 * sRGB without alpha (`'rgb'`). `maxInputPixels` refuses larger pictures before decoding.
 */
export async function decodeFitted(
  source: string | Buffer,
  opts: { size: number; pixels: 'rgba' | 'rgb'; maxInputPixels?: number },
): Promise<RawImage> {
  const bytes = await bytesOf(source);
  const input =
    opts.maxInputPixels === undefined
      ? sharp(bytes, { failOn: 'error' })
      : sharp(bytes, { failOn: 'error', limitInputPixels: opts.maxInputPixels });
  const flat = input
    .autoOrient()
    .resize(fitting({ size: opts.size }))
    .flatten({ background: WHITE });
  return toRaw(opts.pixels === 'rgba' ? flat.ensureAlpha() : flat.toColourspace('srgb').removeAlpha());
}

/**
 * A photo as the gallery serves it: auto-oriented, fitted, flattened onto white, metadata
 * dropped, with `tile` (raw RGBA) repeated over the whole image when given. The tile must not
 * be larger than the output.
 */
export async function renderFitted(
  source: string | Buffer,
  fit: Fit,
  encoding: PhotoEncoding,
  tile?: RawImage,
): Promise<Encoded> {
  const pipeline = sharp(await bytesOf(source), { failOn: 'error' })
    .autoOrient()
    .resize(fitting(fit))
    .flatten({ background: WHITE });
  if (tile) {
    const raw = { width: tile.width, height: tile.height, channels: tile.channels };
    pipeline.composite([{ input: tile.data, raw, tile: true, blend: 'over' }]);
  }
  return toEncoded(encode(pipeline, encoding));
}

/** Already decoded pixels fitted once, then encoded in each of `encodings` from that small copy. */
export async function encodeFittedPixels(
  pixels: RawImage,
  fit: Fit,
  encodings: readonly PhotoEncoding[],
): Promise<Buffer[]> {
  const small = await toRaw(fromRaw(pixels).resize(fitting(fit)).flatten({ background: WHITE }));
  return Promise.all(encodings.map((e) => encode(fromRaw(small), e).toBuffer()));
}

/** What a print file is cut from: the photo scaled to `scaled`, then `extract` taken out of it. */
export type PrintCut = {
  scaled: Size;
  extract: Size & { left: number; top: number };
  dpi: number;
  quality: number;
};

/**
 * A print's pipeline: auto-oriented, scaled in the load pipeline, cut, flattened onto white,
 * sRGB with the profile embedded, `dpi` in JFIF and EXIF. JPEG 4:4:4: full colour resolution
 * for paper. No optimised Huffman tables: they keep every coefficient in memory until the end
 * (40 MB for an 8x10) for files only about 13 % smaller.
 */
async function printPipeline(source: string | Buffer, cut: PrintCut): Promise<Sharp> {
  return (
    sharp(await bytesOf(source), { failOn: 'error' })
      .autoOrient()
      // `fill`: the scaled size keeps the photo's aspect to within a rounding pixel.
      .resize(cut.scaled.width, cut.scaled.height, { fit: 'fill' })
      .extract(cut.extract)
      .flatten({ background: WHITE })
      .withIccProfile('srgb')
      .withDensity(cut.dpi)
      .jpeg({ quality: cut.quality, chromaSubsampling: '4:4:4', optimiseCoding: false })
  );
}

/** A print file in memory. */
export async function printJpeg(source: string | Buffer, cut: PrintCut): Promise<Encoded> {
  return toEncoded(await printPipeline(source, cut));
}

/** A print file written to `file`: libvips writes it in strips, the process never holds it. */
export async function printJpegFile(source: string | Buffer, cut: PrintCut, file: string): Promise<void> {
  await (await printPipeline(source, cut)).toFile(file);
}

/**
 * The photo at full size as JPEG 4:4:4 in `file` (written in strips), its EXIF replaced by the
 * copyright alone ('' for none); libvips still writes the orientation and its format tags.
 */
export async function fullSizeJpegFile(
  path: string,
  file: string,
  opts: { copyright: string; quality: number },
): Promise<Size> {
  const info = await sharp(await bytesOf(path), { failOn: 'error' })
    .withExif({ IFD0: opts.copyright ? { Copyright: opts.copyright } : {} })
    .jpeg({ quality: opts.quality, chromaSubsampling: '4:4:4' })
    .toFile(file);
  return { width: info.width, height: info.height };
}

function textInput(spec: TextSpec): Sharp {
  return sharp({
    text: {
      text: spec.markup,
      font: spec.font,
      fontfile: spec.fontfile,
      ...(spec.rgba ? { rgba: true } : {}),
      ...(spec.dpi === undefined ? {} : { dpi: spec.dpi }),
      ...(spec.width === undefined ? {} : { width: spec.width, wrap: 'word-char' as const }),
      ...(spec.height === undefined ? {} : { height: spec.height }),
    },
  });
}

/** Text as a PNG (zlib level `compressionLevel`, 6 when not given). */
export function textPng(spec: TextSpec, compressionLevel?: number): Promise<Encoded> {
  return toEncoded(textInput(spec).png(compressionLevel === undefined ? undefined : { compressionLevel }));
}

/** Text as raw pixels (one grey channel unless `rgba`). */
export function textPixels(spec: TextSpec): Promise<RawImage> {
  return toRaw(textInput(spec));
}

/** Pixels scaled to exactly `size` (aspect not kept). */
export function scalePixels(image: RawImage, size: Size): Promise<RawImage> {
  return toRaw(fromRaw(image).resize(size.width, size.height, { fit: 'fill' }));
}

/** Pixels as a PNG with `dpi` in its header. */
export function pixelsPng(image: RawImage, opts: { dpi: number; compressionLevel: number }): Promise<Buffer> {
  return fromRaw(image).withDensity(opts.dpi).png({ compressionLevel: opts.compressionLevel }).toBuffer();
}

/** An image turned by `degrees` (clockwise), the corners it uncovers transparent, as a PNG. */
export function rotatePng(input: Buffer, degrees: number): Promise<Encoded> {
  return toEncoded(sharp(input).rotate(degrees, { background: TRANSPARENT }).png());
}

function transparentCanvas(size: Size, layers: readonly Layer[]): Sharp {
  return sharp({ create: { ...size, channels: 4, background: TRANSPARENT } }).composite(layers as OverlayOptions[]);
}

/** `layers` over a transparent canvas of `size`, as a PNG. */
export function layersPng(size: Size, layers: readonly Layer[]): Promise<Buffer> {
  return transparentCanvas(size, layers).png().toBuffer();
}

/** `layers` over a transparent canvas of `size`, as raw RGBA. */
export function layersPixels(size: Size, layers: readonly Layer[]): Promise<RawImage> {
  return toRaw(transparentCanvas(size, layers));
}

/**
 * `layers` over `base`, as a JPEG with the given EXIF (by IFD: IFD0, IFD2 …) and XMP. mozjpeg's
 * slow options are off: three times faster, for pictures that are made, not photographed.
 */
export function layersJpeg(
  base: RawImage,
  layers: readonly Layer[],
  opts: { quality: number; exif: Record<string, Record<string, string>>; xmp: string },
): Promise<Buffer> {
  return fromRaw(base)
    .composite(layers as OverlayOptions[])
    .jpeg({ quality: opts.quality, optimiseCoding: false, trellisQuantisation: false, overshootDeringing: false })
    .withExif(opts.exif)
    .withXmp(opts.xmp)
    .toBuffer();
}
