/**
 * Fulfilment test helpers: test patterns whose every part has its own colour (so a test can
 * tell which part of a photo a print kept), reading print files back (stored pixels, JPEG
 * quality from the quantisation tables, the ICC profile's name), and PDFs and ZIPs opened
 * back up (pdfjs-dist, fflate).
 */
import { strFromU8, unzipSync } from 'fflate';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';

/** Six bands, each a colour no other band has, in order. */
export const BANDS = [
  { name: 'red', rgb: [255, 0, 0] },
  { name: 'yellow', rgb: [255, 255, 0] },
  { name: 'green', rgb: [0, 255, 0] },
  { name: 'cyan', rgb: [0, 255, 255] },
  { name: 'blue', rgb: [0, 0, 255] },
  { name: 'magenta', rgb: [255, 0, 255] },
] as const;
export type BandName = (typeof BANDS)[number]['name'];

/**
 * A JPEG of six bands, left to right (`columns`) or top to bottom (`rows`). Options: an EXIF
 * orientation (the stored pixels are then turned when shown), an ICC profile sharp knows.
 */
export async function bandedPhoto(
  width: number,
  height: number,
  direction: 'columns' | 'rows',
  opts: { orientation?: number; icc?: 'p3' } = {},
): Promise<Buffer> {
  const n = BANDS.length;
  const rects = BANDS.map((b, i) => {
    const fill = `rgb(${b.rgb.join(',')})`;
    return direction === 'columns'
      ? `<rect x="${(i * width) / n}" y="0" width="${width / n}" height="${height}" fill="${fill}"/>`
      : `<rect x="0" y="${(i * height) / n}" width="${width}" height="${height / n}" fill="${fill}"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects.join('')}</svg>`;
  let img = sharp(Buffer.from(svg)).jpeg({ quality: 95 });
  if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation });
  if (opts.icc) img = img.withIccProfile(opts.icc);
  return img.toBuffer();
}

/** The pixel as stored in the file (no colour conversion on reading). */
export async function storedPixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const data = await sharp(image, { ignoreIcc: true })
    .extract({ left: x, top: y, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer();
  return [...data];
}

/** The band whose colour is nearest to `rgb`. */
export function bandOf(rgb: readonly number[]): BandName {
  let best: { name: BandName; d: number } = { name: 'red', d: Number.POSITIVE_INFINITY };
  for (const b of BANDS) {
    const d = b.rgb.reduce((s: number, v, i) => s + (v - (rgb[i] ?? 0)) ** 2, 0);
    if (d < best.d) best = { name: b.name, d };
  }
  return best.name;
}

/** The IJG luminance table (JPEG Annex K): a file's table over it gives its quality. */
const STANDARD_LUMINANCE_SUM = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
].reduce((a, b) => a + b, 0);

/** The IJG quality a baseline JPEG was written at, estimated from its first quantisation table. */
export function jpegQuality(jpeg: Buffer): number {
  for (let at = 2; at + 4 < jpeg.length; ) {
    if (jpeg[at] !== 0xff) throw new Error('not a JPEG marker');
    const marker = jpeg[at + 1] as number;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker === 0xdb) {
      const precision = (jpeg[at + 4] as number) >> 4;
      let sum = 0;
      for (let i = 0; i < 64; i++) sum += precision ? jpeg.readUInt16BE(at + 5 + 2 * i) : (jpeg[at + 5 + i] as number);
      const scale = (sum * 100) / STANDARD_LUMINANCE_SUM;
      return scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
    }
    at += 2 + length;
  }
  throw new Error('no quantisation table');
}

/** The `desc` text of an ICC profile (v2 `desc` or v4 `mluc`). */
export function iccName(icc: Buffer): string {
  const count = icc.readUInt32BE(128);
  for (let i = 0; i < count; i++) {
    const entry = 132 + 12 * i;
    if (icc.toString('latin1', entry, entry + 4) !== 'desc') continue;
    const offset = icc.readUInt32BE(entry + 4);
    const type = icc.toString('latin1', offset, offset + 4);
    if (type === 'desc') return icc.toString('latin1', offset + 12, offset + 12 + icc.readUInt32BE(offset + 8) - 1);
    if (type === 'mluc') {
      const length = icc.readUInt32BE(offset + 20);
      const start = offset + icc.readUInt32BE(offset + 24);
      return icc
        .subarray(start, start + length)
        .swap16()
        .toString('utf16le');
    }
  }
  throw new Error('no desc tag');
}

export type PdfPage = {
  width: number;
  height: number;
  text: string;
  items: { str: string; x: number; y: number }[];
  /** Images drawn on the page. */
  images: number;
};

/** Every page of a PDF: its size in points, its text (items joined with spaces) and its images. */
export async function readPdf(pdf: Buffer): Promise<PdfPage[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const { width, height } = page.getViewport({ scale: 1 });
    const items = (await page.getTextContent()).items.flatMap((i) =>
      'str' in i && i.str.trim() !== ''
        ? [{ str: i.str, x: i.transform[4] as number, y: i.transform[5] as number }]
        : [],
    );
    const ops = await page.getOperatorList();
    const images = ops.fnArray.filter(
      (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject,
    ).length;
    pages.push({ width, height, items, images, text: items.map((i) => i.str).join(' ') });
  }
  await doc.destroy();
  return pages;
}

/** The entries of a ZIP, by name, in the order they are stored. */
export function readZip(zip: Buffer): { names: string[]; files: Record<string, Uint8Array> } {
  const files = unzipSync(new Uint8Array(zip));
  return { names: Object.keys(files), files };
}

export const text = (bytes: Uint8Array | undefined): string => (bytes ? strFromU8(bytes) : '');
