/**
 * Original → print file (adapters/sharp.ts). Pure: a path in, bytes out. The whole photo is
 * scaled so the crop window becomes exactly the print's pixels, then cut out
 * (domain/prints.ts, `cropPlan`): scaling in the load lets libvips shrink a JPEG while
 * decoding. Auto-oriented first, so the orientation is the one people see. sRGB is converted
 * and tagged (labs assume it, a tag removes the doubt). No watermark: this is what was paid for.
 */
import { type PrintCut, printJpeg, printJpegFile, readHeader, readPhoto } from '../../adapters/sharp.js';
import { type Crop, cropPlan, type Inches, PRINT_DPI, printPixels } from '../../domain/prints.js';
import type { RenderedPrint } from './types.js';

/** At least 90 (docs/contract.md, "Fulfilment"); 92 keeps fine grain without bloating files. */
export const PRINT_JPEG_QUALITY = 92;

/**
 * `make` given the photo's bytes, read once, and where the print is cut from them: the size as
 * displayed (EXIF orientation applied) from the header alone, then the pipeline's settings
 * (adapters/sharp.ts, `printJpeg`).
 */
async function withCut<T>(
  originalPath: string,
  inches: Inches,
  crop: Crop | undefined,
  quality: number,
  make: (bytes: Buffer, cut: PrintCut) => Promise<T>,
): Promise<T> {
  const bytes = await readPhoto(originalPath);
  const { width, height } = await readHeader(bytes, { strict: true });
  if (!width || !height) throw new Error(`cannot read the size of ${originalPath}`);
  const print = printPixels(inches, { width, height });
  const plan = cropPlan({ width, height }, print, crop);
  const extract = { left: plan.left, top: plan.top, width: print.width, height: print.height };
  return make(bytes, { scaled: plan.scaled, extract, dpi: PRINT_DPI, quality });
}

/** One print file, in memory. */
export function renderPrint(
  originalPath: string,
  inches: Inches,
  crop: Crop | undefined,
  quality = PRINT_JPEG_QUALITY,
): Promise<RenderedPrint> {
  return withCut(originalPath, inches, crop, quality, printJpeg);
}

/**
 * One print file, written to `file`: what the ZIP streams (service.ts). libvips then writes
 * the JPEG in small pieces instead of growing one buffer of several MB in memory, and the
 * process never holds the file: the server's RSS grows less while a ZIP streams
 * (bench/RESULTS.md, 2026-11-28; the print-files bench's memory target).
 */
export function renderPrintFile(
  originalPath: string,
  inches: Inches,
  crop: Crop | undefined,
  file: string,
  quality = PRINT_JPEG_QUALITY,
): Promise<void> {
  return withCut(originalPath, inches, crop, quality, (bytes, cut) => printJpegFile(bytes, cut, file));
}
