/**
 * Camera-like originals for the benches that render: generated once (a few seconds each for
 * 24 MP) and kept in the temp folder between runs, shared by every bench that asks.
 */
import { mkdir, rename, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A 24-megapixel camera frame. */
const BIG = { width: 6000, height: 4000 } as const;
/** Generated originals are kept here between runs. */
const ORIGINALS_CACHE = path.join(os.tmpdir(), 'images-bench-originals-v1');

/**
 * A photo-like JPEG: large soft colour shapes, mid-scale texture and sensor grain, so it
 * compresses like a camera file (a 24 MP one is ~7 MB at quality 92), not like a flat fill.
 */
export async function photoLike(
  file: string,
  width: number,
  height: number,
  seed: number,
  detail: number,
): Promise<void> {
  let s = (seed * 2654435761) >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
  const coarse = Buffer.alloc(24 * 16 * 3);
  for (let i = 0; i < coarse.length; i++) coarse[i] = next() >>> 24;
  const base = await sharp(coarse, { raw: { width: 24, height: 16, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const mw = Math.round(width / detail);
  const mh = Math.round(height / detail);
  const mid = Buffer.alloc(mw * mh);
  for (let i = 0; i < mid.length; i++) mid[i] = next() >>> 24;
  const texture = await sharp(mid, { raw: { width: mw, height: mh, channels: 1 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let p = 0, q = 0; p < base.length; p += 3, q++) {
    const t = ((texture[q] as number) - 128) >> 2;
    for (let c = 0; c < 3; c++) {
      const v = (base[p + c] as number) + t + (next() >>> 28) - 8;
      base[p + c] = Math.max(0, Math.min(255, v));
    }
  }
  await mkdir(path.dirname(file), { recursive: true });
  await sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toFile(file);
}

/** `count` distinct 24 MP originals (`photo-<i>.jpg` in ORIGINALS_CACHE), made the first time they are asked for. */
export async function cachedOriginals(count: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(ORIGINALS_CACHE, `photo-${i}.jpg`);
    const made = await stat(file).then(
      () => true,
      () => false,
    );
    if (!made) {
      await photoLike(`${file}.part`, BIG.width, BIG.height, i + 1, 4);
      await rename(`${file}.part`, file);
    }
    files.push(file);
  }
  return files;
}
