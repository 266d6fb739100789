/**
 * Dimensions and capture time of an image from the first bytes of its file, without
 * decoding it: `image-size` for width/height (and JPEG orientation), exifr (adapters/exifr.ts)
 * for DateTimeOriginal. This is what lets 50,000 photos be indexed in a few seconds.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';
import { imageSize } from 'image-size';
import { type CaptureTags, readCaptureAndMetadata, readCaptureTags } from '../../adapters/exifr.js';
import { fieldsFromExifr, METADATA_IFD0_TAGS, type MetadataFields, metadataBlocks } from './metadata.js';

export type ImageHeader = {
  width: number;
  height: number;
  takenAtMs: number | null;
  /** The photographer's metadata in the file (metadata.ts); absent when not asked for. */
  metadata?: MetadataFields;
};

/** First read; enough for JPEG APP1 (EXIF, at most 64 KiB) and the frame header behind it in most files. */
export const HEADER_CHUNK_BYTES = 64 * 1024;
/** Files whose frame header sits further in (big ICC profiles, XMP) get one larger read, up to this. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

// The callback API: measured here about 20% faster than FileHandle for 50,000 small reads.
const openFile = promisify(fs.open);
const closeFile = promisify(fs.close);
function readAt(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buffer, 0, buffer.length, 0, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead)));
  });
}

/** What the one parse reads from this header: a JPEG's orientation is already known (image-size). */
export function metadataParseBlocks(chunk: Uint8Array, isJpeg: boolean) {
  return { orientation: !isJpeg, ifd0Tags: METADATA_IFD0_TAGS, ...metadataBlocks(chunk) };
}

async function parseTags(
  source: Uint8Array,
  isJpeg: boolean,
  withMetadata: boolean,
): Promise<{ tags: CaptureTags | undefined; metadata?: MetadataFields }> {
  // JPEG: image-size already read the orientation, so only the Exif IFD is parsed (twice as fast).
  if (!withMetadata) return { tags: await readCaptureTags(source, { orientation: !isJpeg }) };
  // The capture time and the photographer's metadata in one parse (the blocks apart, as
  // metadata.ts reads them): XMP and IPTC are parsed only when the chunk holds them.
  const out = await readCaptureAndMetadata(source, metadataParseBlocks(source, isJpeg));
  return {
    tags: { DateTimeOriginal: out?.exif?.DateTimeOriginal, Orientation: out?.ifd0?.Orientation },
    metadata: fieldsFromExifr(out),
  };
}

/**
 * EXIF "YYYY:MM:DD HH:MM:SS" → epoch ms of the camera's clock read as UTC, whatever offset it
 * also recorded: photos order the same on every server, and the time of day is what the
 * photographer's clock showed, which "jump to time" (`?at=HH:MM`) matches.
 */
export function parseExifDate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac] = m;
  const fields = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = fields;
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return null;
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, Number((frac ?? '0').padEnd(3, '0')));
  return Number.isFinite(ms) ? ms : null;
}

/**
 * exifr does not read WebP: its EXIF sits in a RIFF chunk named "EXIF", which holds a plain
 * TIFF block that exifr does read. Returns that block, or undefined.
 */
function webpExifBlock(data: Uint8Array): Uint8Array | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WEBP') {
    return undefined;
  }
  let offset = 12;
  while (offset + 8 <= buf.length) {
    const fourcc = buf.toString('latin1', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (fourcc === 'EXIF') {
      const block = buf.subarray(start, Math.min(buf.length, start + size));
      // Some writers keep JPEG's "Exif\0\0" prefix in front of the TIFF header.
      return block.toString('latin1', 0, 4) === 'Exif' ? block.subarray(6) : block;
    }
    offset = start + size + (size % 2);
  }
  return undefined;
}

/** Parses a header chunk; throws when the dimensions cannot be found in it. */
export async function parseHeader(chunk: Uint8Array, withMetadata = false): Promise<ImageHeader & { type: string }> {
  const size = imageSize(chunk);
  if (!size.width || !size.height) throw new Error('no dimensions in the header');
  const isJpeg = size.type === 'jpg';
  let tags: CaptureTags | undefined;
  let metadata: MetadataFields | undefined = withMetadata ? {} : undefined;
  try {
    const exifSource = size.type === 'webp' ? webpExifBlock(chunk) : chunk;
    if (exifSource) {
      const parsed = await parseTags(exifSource, isJpeg, withMetadata);
      tags = parsed.tags;
      if (parsed.metadata) metadata = parsed.metadata;
    }
  } catch {
    tags = undefined; // no or broken EXIF: the photo is still shown, just without a capture time
  }
  const orientation = size.orientation ?? (typeof tags?.Orientation === 'number' ? tags.Orientation : 1);
  // EXIF orientations 5–8 rotate by 90°: the image is displayed with its sides swapped.
  const swap = orientation >= 5 && orientation <= 8;
  const header: ImageHeader & { type: string } = {
    type: size.type ?? 'unknown',
    width: swap ? size.height : size.width,
    height: swap ? size.width : size.height,
    takenAtMs: parseExifDate(tags?.DateTimeOriginal),
  };
  if (metadata) header.metadata = metadata;
  return header;
}

/** A file that is not complete (yet): a JPEG without its end-of-image marker. */
class IncompleteImageError extends Error {
  override name = 'IncompleteImageError';
}

/** Bytes at the end of a JPEG searched for its end-of-image marker (some cameras pad or append a trailer). */
const TAIL_BYTES = 1024;

/**
 * Whether a JPEG's last bytes hold its end-of-image marker (FF D9). Entropy-coded data never
 * holds FF D9 (an FF there is always followed by 00 or a restart marker), so a file cut off
 * while being copied has none near its end.
 */
async function endsWithEoi(fd: number, fileSize: number, blocking: boolean): Promise<boolean> {
  const length = Math.min(TAIL_BYTES, fileSize);
  if (length < 2) return false;
  const tail = Buffer.allocUnsafe(length);
  const position = fileSize - length;
  const read = blocking
    ? fs.readSync(fd, tail, 0, length, position)
    : await new Promise<number>((resolve, reject) =>
        fs.read(fd, tail, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))),
      );
  for (let i = read - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return true;
  return false;
}

/**
 * Reads the header of `file` into `buffer` (reused by the caller between files) and parses
 * it. HEIC/HEIF keep EXIF in an item that may sit anywhere in the file: exifr then reads
 * the file itself, in chunks.
 */
export async function readImageHeader(
  file: string,
  buffer: Buffer,
  fileSize: number,
  /** Open, read and close with the synchronous calls (the caller bounds how long it blocks). */
  blocking = false,
  /** Also read the photographer's metadata in the file (metadata.ts). */
  withMetadata = false,
): Promise<ImageHeader> {
  const read = (fd: number, into: Buffer) => (blocking ? fs.readSync(fd, into, 0, into.length, 0) : readAt(fd, into));
  const fd = blocking ? fs.openSync(file, 'r') : await openFile(file, 'r');
  try {
    let bytesRead = await read(fd, buffer);
    let chunk: Buffer = buffer.subarray(0, bytesRead);
    let header: Awaited<ReturnType<typeof parseHeader>>;
    try {
      header = await parseHeader(chunk, withMetadata);
    } catch (err) {
      if (bytesRead < buffer.length || fileSize <= bytesRead) throw err;
      const bigger = Buffer.allocUnsafe(Math.min(fileSize, MAX_HEADER_BYTES));
      bytesRead = await read(fd, bigger);
      chunk = bigger.subarray(0, bytesRead);
      header = await parseHeader(chunk, withMetadata);
    }
    if (header.type === 'jpg' && !(await endsWithEoi(fd, fileSize, blocking))) {
      throw new IncompleteImageError('the JPEG has no end-of-image marker (still being copied, or cut off)');
    }
    if (header.takenAtMs === null && header.type === 'heif') {
      const tags = await readCaptureTags(file, { orientation: true }).catch(() => undefined);
      header.takenAtMs = parseExifDate(tags?.DateTimeOriginal);
    }
    const out: ImageHeader = { width: header.width, height: header.height, takenAtMs: header.takenAtMs };
    if (header.metadata) out.metadata = header.metadata;
    return out;
  } finally {
    if (blocking) fs.closeSync(fd);
    else await closeFile(fd);
  }
}
