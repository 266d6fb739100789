/**
 * Original → print file, with sharp. Pure: a path in, bytes out.
 *
 * The whole photo is scaled so that the crop window becomes exactly the print's pixels, then
 * the print is cut out (domain/prints.ts, `cropPlan`): scaling in the load pipeline lets
 * libvips shrink a JPEG while decoding it when the print is much smaller than the original.
 * Auto-oriented by EXIF first, so "the photo's orientation" is the one people see. Colours
 * are converted to sRGB and the sRGB profile is embedded (print software and labs assume
 * sRGB for untagged files, but a tag removes the doubt); 300 dpi goes into the JFIF and EXIF
 * resolution fields. No watermark, ever: these files are what the customer paid for.
 */
import sharp from 'sharp';
import { type Crop, cropPlan, type Inches, PRINT_DPI, printPixels } from '../../domain/prints.js';
import type { RenderedPrint } from './types.js';

/** At least 90 (docs/contract.md, "Fulfilment"); 92 keeps fine grain without bloating files. */
export const PRINT_JPEG_QUALITY = 92;

/** The photo's size as displayed (EXIF orientation applied), from its header alone. */
async function orientedSize(originalPath: string): Promise<{ width: number; height: number }> {
  const meta = await sharp(originalPath, { failOn: 'error' }).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new Error(`cannot read the size of ${originalPath}`);
  return { width, height };
}

/** The print's pipeline: sharp set up to write the print file. */
async function printPipeline(originalPath: string, inches: Inches, crop: Crop | undefined, quality: number) {
  const photo = await orientedSize(originalPath);
  const print = printPixels(inches, photo);
  const plan = cropPlan(photo, print, crop);
  const image = sharp(originalPath, { failOn: 'error' })
    .autoOrient()
    // `fill`: the scaled size keeps the photo's aspect to within a rounding pixel.
    .resize(plan.scaled.width, plan.scaled.height, { fit: 'fill' })
    .extract({ left: plan.left, top: plan.top, width: print.width, height: print.height })
    .flatten({ background: '#ffffff' })
    .withIccProfile('srgb')
    .withDensity(PRINT_DPI)
    // 4:4:4: no halved colour resolution in a file meant for paper. No optimised Huffman
    // tables: computing them keeps every coefficient of the print in memory until the end
    // (40 MB for an 8x10) and takes a second pass; measured on 24 MP originals, two renders at
    // a time grew the process by 630 MB with them and 300 MB without, 35 % faster, for files
    // about 13 % larger.
    .jpeg({ quality, chromaSubsampling: '4:4:4', optimiseCoding: false });
  return image;
}

/** One print file, in memory. */
export async function renderPrint(
  originalPath: string,
  inches: Inches,
  crop: Crop | undefined,
  quality = PRINT_JPEG_QUALITY,
): Promise<RenderedPrint> {
  const image = await printPipeline(originalPath, inches, crop, quality);
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { body: data, width: info.width, height: info.height };
}

/**
 * One print file, written to `file`: what the ZIP streams (service.ts). libvips then writes
 * the JPEG in small pieces instead of growing one buffer of several MB in memory, and the
 * process never holds the file: the server's RSS grows less while a ZIP streams
 * (bench/RESULTS.md, 2026-11-28; the print-files bench's memory target).
 */
export async function renderPrintFile(
  originalPath: string,
  inches: Inches,
  crop: Crop | undefined,
  file: string,
  quality = PRINT_JPEG_QUALITY,
): Promise<void> {
  await (await printPipeline(originalPath, inches, crop, quality)).toFile(file);
}
