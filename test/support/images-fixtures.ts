/**
 * Image fixtures for the image service's tests, made with sharp on the fly: photo-like
 * JPEGs (a smooth gradient, optionally with an EXIF orientation and a marker string in
 * the metadata), `Photo` records that point at them, and a logger that records calls.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Photo } from '../../src/services/photos/types.js';

/** Put in the EXIF of fixtures: it must never appear in anything served. */
export const ORIGINAL_MARKER = 'ORIGINAL-FILE-MARKER-7f3a';

export type FixtureOptions = {
  width: number;
  height: number;
  /** EXIF orientation tag (1–8): how the stored pixels must be turned for display. */
  orientation?: number;
  format?: 'jpeg' | 'png';
  /** A PNG with a transparent half. */
  alpha?: boolean;
  /** Shifts the colours, so two fixtures of one size differ. */
  seed?: number;
};

/** Raw RGB(A) gradient pixels: smooth like a photo, different in every corner. */
function gradient(width: number, height: number, channels: 3 | 4, seed: number): Buffer {
  const px = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      px[i] = (40 + Math.round((x / width) * 170) + seed * 37) % 256;
      px[i + 1] = (60 + Math.round((y / height) * 150) + seed * 11) % 256;
      px[i + 2] = 110 + Math.round(((x + y) / (width + height)) * 60);
      if (channels === 4) px[i + 3] = x < width / 2 ? 255 : 0;
    }
  }
  return px;
}

/** Writes a fixture image to `file` (folders created) and returns the file. */
export async function writeFixture(file: string, opts: FixtureOptions): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const channels = opts.alpha ? 4 : 3;
  let img = sharp(gradient(opts.width, opts.height, channels, opts.seed ?? 0), {
    raw: { width: opts.width, height: opts.height, channels },
  });
  img = img.withExif({ IFD0: { ImageDescription: ORIGINAL_MARKER, Copyright: ORIGINAL_MARKER } });
  if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation });
  if (opts.format === 'png') await img.png().toFile(file);
  else await img.jpeg({ quality: 90 }).toFile(file);
  return file;
}

/** A `Photo` record for a fixture, as the photo library would describe it. */
export function fixturePhoto(overrides: Partial<Photo> & { id: string }): Photo {
  return {
    number: overrides.id,
    eventCode: 'EVT',
    day: 'Day 1',
    session: 'Morning',
    fileName: `${overrides.id}.jpg`,
    width: 0,
    height: 0,
    takenAt: null,
    version: 'v1',
    rating: null,
    metadata: null,
    ...overrides,
  };
}

export { recordingLogger } from './recording-logger.js';

/** Mean absolute difference per channel value between two raw images of one size. */
export function meanAbsDiff(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number));
  return sum / a.length;
}
