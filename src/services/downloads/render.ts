/**
 * The file a customer downloads: the full-resolution photo, re-encoded as JPEG, without
 * watermark and without metadata other than orientation and copyright (docs/contract.md,
 * "Selling").
 *
 * What sharp does with metadata (checked with exifr on its output):
 * - by default it drops everything, the orientation tag included, so a portrait shot stored
 *   sideways with an orientation tag would come out sideways;
 * - `keepExif()` and `withMetadata()` keep all of the camera's EXIF (GPS position, camera
 *   serial, capture time, author, description), and `withMetadata()` the ICC profile too;
 * - `withExif({ IFD0: { Copyright } })` replaces the EXIF with just what it is given, and
 *   libvips still writes the orientation and its own format tags (resolution, pixel size,
 *   colour space, EXIF version). That is the one used here; colours are converted to sRGB
 *   and the profile dropped, as for every image the gallery serves.
 * The copyright is read from the original's EXIF (IFD0 Copyright) with exifr (adapters/exifr.ts).
 *
 * sharp's stream output collects the whole encoded image before it emits it, so this
 * writes to a file (libvips reads and encodes in strips, never the whole image in one
 * buffer) and the route streams the file.
 */
import { readCopyrightTag } from '../../adapters/exifr.js';
import { fullSizeJpegFile } from '../../adapters/sharp.js';

const DOWNLOAD_QUALITY = 92;
const MAX_COPYRIGHT = 200;

/** The original's EXIF copyright, or '' when there is none (or it can't be read). */
export async function readCopyright(originalPath: string): Promise<string> {
  try {
    const value = await readCopyrightTag(originalPath);
    return typeof value === 'string'
      ? value
          .replace(/\p{Cc}/gu, ' ')
          .trim()
          .slice(0, MAX_COPYRIGHT)
      : '';
  } catch {
    return '';
  }
}

/** Renders the download of `originalPath` into `outFile` (written whole or not at all by the caller's rename). */
export async function renderDownload(
  originalPath: string,
  outFile: string,
): Promise<{ width: number; height: number }> {
  const copyright = await readCopyright(originalPath);
  return fullSizeJpegFile(originalPath, outFile, { copyright, quality: DOWNLOAD_QUALITY });
}
