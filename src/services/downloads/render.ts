/**
 * The file a customer downloads: the full-resolution photo as JPEG, without watermark and
 * with no metadata but orientation and copyright (docs/contract.md, "Selling").
 * sharp drops the orientation by default (a portrait would come out sideways), and
 * `keepExif()`/`withMetadata()` keep GPS, serials and the rest; `withExif({ IFD0: { Copyright } })`
 * replaces the EXIF and libvips still writes orientation, so that is used. The copyright is
 * read from the original with exifr.
 * sharp's stream output buffers the whole image, so this writes a file (libvips encodes in
 * strips) and the route streams it.
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
