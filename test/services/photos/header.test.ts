import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { captureAndMetadataOptions } from '../../../src/adapters/exifr.js';
import {
  HEADER_CHUNK_BYTES,
  metadataParseBlocks,
  parseExifDate,
  readImageHeader,
} from '../../../src/services/photos/header.js';

/** The options header.ts's parse hands exifr for this chunk. */
const metadataParseOptions = (chunk: Buffer, isJpeg: boolean) =>
  captureAndMetadataOptions(metadataParseBlocks(chunk, isJpeg));

import { tempDir } from '../../helpers/build.js';
import { makeImage } from '../../support/photos-fixtures.js';
import { photoWithMetadata } from '../../support/xmp-fixtures.js';

async function headerOf(dir: string, name: string, data: Buffer) {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return readImageHeader(file, Buffer.alloc(HEADER_CHUNK_BYTES), data.length);
}

/** A JPEG with `bytes` of APP15 padding right after SOI, pushing EXIF and the frame header back. */
function withPadding(jpeg: Buffer, bytes: number): Buffer {
  const segments: Buffer[] = [];
  for (let left = bytes; left > 0; left -= 60_000) {
    const len = Math.min(60_000, left);
    const seg = Buffer.alloc(len + 4, 0x20);
    seg.writeUInt16BE(0xffef, 0);
    seg.writeUInt16BE(len + 2, 2);
    segments.push(seg);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

describe('image headers', () => {
  test('EXIF dates: the camera clock as written, read as UTC; junk rejected', () => {
    expect(parseExifDate('2026:07:03 10:11:12')).toBe(Date.parse('2026-07-03T10:11:12Z'));
    expect(parseExifDate('0000:00:00 00:00:00')).toBeNull();
    expect(parseExifDate('yesterday')).toBeNull();
    expect(parseExifDate(undefined)).toBeNull();
  });

  test('the metadata parse options: one object per kind of header, not one per file (exifr keeps every one it is given)', async () => {
    const plain = [await makeImage({ width: 60, height: 40 }), await makeImage({ width: 30, height: 20 })];
    const withXmp = [
      await photoWithMetadata({ xmp: { rating: 2 } }),
      await photoWithMetadata({ xmp: { keywords: ['Link'] } }),
    ];
    const camera = metadataParseOptions(plain[0] as Buffer, true);
    expect(metadataParseOptions(plain[1] as Buffer, true)).toBe(camera);
    expect(camera).toMatchObject({ xmp: false, iptc: false });
    const lightroom = metadataParseOptions(withXmp[0] as Buffer, true);
    expect(lightroom).not.toBe(camera);
    expect(lightroom).toMatchObject({ xmp: true });
    expect(metadataParseOptions(withXmp[1] as Buffer, true)).toBe(lightroom);
    // Not a JPEG: the orientation comes from EXIF too.
    expect(metadataParseOptions(plain[0] as Buffer, false)).toMatchObject({ ifd0: ['Orientation', 'Artist'] });
  });

  test('JPEG with EXIF: size and capture time', async (t) => {
    const dir = await tempDir(t);
    const h = await headerOf(dir, 'a.jpg', await makeImage({ width: 60, height: 40, takenAt: '2026:07:03 10:11:12' }));
    expect(h).toEqual({ width: 60, height: 40, takenAtMs: Date.parse('2026-07-03T10:11:12Z') });
  });

  test('EXIF orientations 5–8 swap width and height; 1–4 do not', async (t) => {
    const dir = await tempDir(t);
    for (const orientation of [1, 3, 5, 6, 7, 8]) {
      const h = await headerOf(dir, `o${orientation}.jpg`, await makeImage({ width: 60, height: 40, orientation }));
      const swapped = orientation >= 5;
      expect(h, `orientation ${orientation}`).toMatchObject(
        swapped ? { width: 40, height: 60 } : { width: 60, height: 40 },
      );
    }
  });

  test('PNG and WebP', async (t) => {
    const dir = await tempDir(t);
    expect(await headerOf(dir, 'a.png', await makeImage({ width: 30, height: 20, format: 'png' }))).toEqual({
      width: 30,
      height: 20,
      takenAtMs: null,
    });
    const webp = await headerOf(
      dir,
      'a.webp',
      await makeImage({ width: 30, height: 20, format: 'webp', takenAt: '2025:01:02 03:04:05' }),
    );
    expect(webp).toEqual({ width: 30, height: 20, takenAtMs: Date.parse('2025-01-02T03:04:05Z') });
  });

  test('no EXIF: no capture time', async (t) => {
    const dir = await tempDir(t);
    expect(await headerOf(dir, 'a.jpg', await makeImage({ width: 10, height: 12 }))).toEqual({
      width: 10,
      height: 12,
      takenAtMs: null,
    });
  });

  test('a frame header beyond the first 64 KiB is found with a second, larger read', async (t) => {
    const dir = await tempDir(t);
    const padded = withPadding(await makeImage({ width: 64, height: 48, takenAt: '2026:01:01 00:00:01' }), 150_000);
    expect(padded.length).toBeGreaterThan(HEADER_CHUNK_BYTES * 2);
    expect(await headerOf(dir, 'big.jpg', padded)).toEqual({
      width: 64,
      height: 48,
      takenAtMs: Date.parse('2026-01-01T00:00:01Z'),
    });
  });

  test('garbage and truncated files are refused', async (t) => {
    const dir = await tempDir(t);
    await expect(headerOf(dir, 'junk.jpg', Buffer.from('this is not an image at all'))).rejects.toThrow();
    const jpeg = await makeImage({ width: 64, height: 48 });
    await expect(headerOf(dir, 'cut.jpg', jpeg.subarray(0, 20))).rejects.toThrow();
  });
});
