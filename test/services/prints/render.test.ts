/**
 * Print files from real originals, opened back up: pixel size at 300 dpi in the photo's
 * orientation, 300 dpi in the metadata, sRGB (converted and tagged), JPEG quality ≥ 90 with
 * full colour resolution, and which part of a test pattern each crop centre keeps.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { Inches } from '../../../src/domain/prints.js';
import { renderPrint } from '../../../src/services/prints/render.js';
import { tempDir } from '../../helpers/build.js';
import { bandedPhoto, bandOf, iccName, jpegQuality, storedPixel } from '../../support/fulfilment-fixtures.js';

async function original(dir: string, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** The bands at the print's left and right edges (a twentieth in) and at its top and bottom. */
async function edges(print: Buffer) {
  const { data, info } = await sharp(print, { ignoreIcc: true }).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
    return bandOf([data[i] as number, data[i + 1] as number, data[i + 2] as number]);
  };
  const { width, height } = info;
  return {
    left: at(width / 20, height / 2),
    right: at(width - width / 20, height / 2),
    top: at(width / 2, height / 20),
    bottom: at(width / 2, height - height / 20),
  };
}

const SIZES: [string, Inches, number, number][] = [
  ['4x6', [4, 6], 1800, 1200],
  ['5x7', [5, 7], 2100, 1500],
  ['8x10', [8, 10], 3000, 2400],
  ['a 2.5 × 3.5 in wallet', [2.5, 3.5], 1050, 750],
];

describe('print file', () => {
  test.for(SIZES)(
    '%s from a landscape photo: the pixels at 300 dpi, landscape, sRGB, quality ≥ 90, 4:4:4',
    async ([, inches, width, height], t) => {
      const dir = await tempDir(t);
      const file = await original(dir, 'land.jpg', await bandedPhoto(900, 600, 'columns'));
      const print = await renderPrint(file, inches, undefined);
      expect({ width: print.width, height: print.height }).toEqual({ width, height });
      const meta = await sharp(print.body).metadata();
      expect(meta).toMatchObject({
        format: 'jpeg',
        width,
        height,
        density: 300,
        space: 'srgb',
        chromaSubsampling: '4:4:4',
      });
      expect(meta.icc && iccName(meta.icc)).toBe('sRGB');
      expect(jpegQuality(print.body)).toBeGreaterThanOrEqual(90);
    },
  );

  test('the quality estimate tells a quality-80 file apart (so the check above can fail)', async () => {
    const q80 = await sharp(await bandedPhoto(300, 200, 'columns'))
      .jpeg({ quality: 80 })
      .toBuffer();
    expect(jpegQuality(q80)).toBeGreaterThan(75);
    expect(jpegQuality(q80)).toBeLessThan(85);
  });

  test('a portrait photo prints portrait: 8x10 is 2400 × 3000', async (t) => {
    const file = await original(await tempDir(t), 'portrait.jpg', await bandedPhoto(600, 900, 'rows'));
    const print = await renderPrint(file, [8, 10], undefined);
    expect([print.width, print.height]).toEqual([2400, 3000]);
  });

  test('a square photo prints landscape', async (t) => {
    const file = await original(await tempDir(t), 'square.jpg', await bandedPhoto(600, 600, 'rows'));
    const print = await renderPrint(file, [4, 6], undefined);
    expect([print.width, print.height]).toEqual([1800, 1200]);
  });

  test("the EXIF orientation decides: a landscape file shown upright (orientation 6) prints portrait, as it's seen", async (t) => {
    // Stored with columns red … magenta from left to right; orientation 6 turns it a quarter
    // clockwise, so people see red at the top and magenta at the bottom.
    const file = await original(
      await tempDir(t),
      'turned.jpg',
      await bandedPhoto(900, 600, 'columns', { orientation: 6 }),
    );
    const print = await renderPrint(file, [4, 6], undefined);
    expect([print.width, print.height]).toEqual([1200, 1800]);
    const e = await edges(print.body);
    expect([e.top, e.bottom]).toEqual(['red', 'magenta']);
    expect(e.left).toBe(e.right);
  });

  test('the crop centre picks the part an 8x10 keeps of a 3:2 photo (columns: left, middle, right)', async (t) => {
    // 900 × 600 at 5:4 keeps a 750 × 600 window: five of the six 150-px bands.
    const file = await original(await tempDir(t), 'wide.jpg', await bandedPhoto(900, 600, 'columns'));
    const at = async (x: number) => edges((await renderPrint(file, [8, 10], { x, y: 0.5 })).body);
    expect(await at(0)).toMatchObject({ left: 'red', right: 'blue' });
    expect(await at(1)).toMatchObject({ left: 'yellow', right: 'magenta' });
    // The middle keeps half a band on each side.
    expect(await at(0.5)).toMatchObject({ left: 'red', right: 'magenta' });
    // Past the edge is the edge: the window never leaves the photo.
    expect(await at(0.05)).toEqual(await at(0));
  });

  test('the crop centre picks the rows a 4x6 keeps of a square photo (top, bottom)', async (t) => {
    // 600 × 600 at 3:2 keeps 600 × 400: four of the six 100-px bands.
    const file = await original(await tempDir(t), 'square.jpg', await bandedPhoto(600, 600, 'rows'));
    const at = async (y: number) => edges((await renderPrint(file, [4, 6], { x: 0.5, y })).body);
    expect(await at(0)).toMatchObject({ top: 'red', bottom: 'cyan' });
    expect(await at(1)).toMatchObject({ top: 'green', bottom: 'magenta' });
    expect(await at(0.5)).toMatchObject({ top: 'yellow', bottom: 'blue' });
  });

  test('a photo in another colour space (Display P3) is converted to sRGB, not just re-tagged', async (t) => {
    const p3 = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 100, b: 50 } } })
      .withIccProfile('p3')
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(iccName((await sharp(p3).metadata()).icc as Buffer)).toBe('sP3C');
    const stored = await storedPixel(p3, 150, 100);
    // The file holds P3 numbers for that orange, which differ from its sRGB numbers.
    expect(Math.abs((stored[0] as number) - 200)).toBeGreaterThan(10);
    const file = await original(await tempDir(t), 'p3.jpg', p3);
    const print = await renderPrint(file, [4, 6], undefined);
    const [r, g, b] = await storedPixel(print.body, 900, 600);
    expect(Math.abs((r as number) - 200)).toBeLessThanOrEqual(3);
    expect(Math.abs((g as number) - 100)).toBeLessThanOrEqual(3);
    expect(Math.abs((b as number) - 50)).toBeLessThanOrEqual(3);
    expect(iccName((await sharp(print.body).metadata()).icc as Buffer)).toBe('sRGB');
  });

  test('a photo smaller than the print is enlarged to the print size', async (t) => {
    const file = await original(await tempDir(t), 'small.jpg', await bandedPhoto(240, 160, 'columns'));
    const print = await renderPrint(file, [8, 10], undefined);
    expect([print.width, print.height]).toEqual([3000, 2400]);
  });

  test('never watermarked: a plain photo prints plain', async (t) => {
    const plain = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#808080' } })
      .jpeg({ quality: 100 })
      .toBuffer();
    const file = await original(await tempDir(t), 'plain.jpg', plain);
    const print = await renderPrint(file, [4, 6], undefined);
    const stats = await sharp(print.body).stats();
    for (const ch of stats.channels) expect(ch.max - ch.min).toBeLessThanOrEqual(4);
  });

  test('an unreadable original is an error, not a blank print', async (t) => {
    const file = await original(await tempDir(t), 'broken.jpg', Buffer.from('not a jpeg at all'));
    await expect(renderPrint(file, [4, 6], undefined)).rejects.toThrow();
  });
});
