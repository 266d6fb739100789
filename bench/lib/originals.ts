/**
 * Camera-like originals for the benches that render: generated once (a few seconds each for
 * 24 MP) and kept in the temp folder between runs, shared by every bench that asks.
 */
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A 24-megapixel camera frame. */
const BIG = { width: 6000, height: 4000 } as const;
/** Generated originals are kept here between runs. */
const ORIGINALS_CACHE = path.join(os.tmpdir(), 'images-bench-originals-v1');
const SCENES_CACHE = path.join(os.tmpdir(), 'scene-originals-v1');

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

/**
 * A 24 MP frame whose thumbnails weigh what a camera's do: detail at every scale, stronger the
 * coarser (as in a photograph), over hard-edged shapes (people, tables, banners), with sensor
 * grain. Its 400 px WebP thumbnail is about 14 KiB and its 800 px one about 38 KiB, as for the
 * convention frames the phone bench was asked about (13.5 and 35.5 KiB); `photoLike`'s
 * uniform texture makes the large sizes weigh more than a camera's (15 and 56 KiB).
 */
async function sceneLike(file: string, seed: number): Promise<void> {
  const { width, height } = BIG;
  let s = (seed * 2654435761) >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
  /** Random values on a grid of `cell` px, smoothly enlarged to the frame. */
  const octave = async (cell: number, channels: 1 | 3) => {
    const w = Math.max(2, Math.round(width / cell));
    const h = Math.max(2, Math.round(height / cell));
    const values = Buffer.alloc(w * h * channels);
    for (let i = 0; i < values.length; i++) values[i] = next() >>> 24;
    return sharp(values, { raw: { width: w, height: h, channels } })
      .resize(width, height, { kernel: 'cubic' })
      .raw()
      .toBuffer();
  };
  const shapes: string[] = [];
  for (let i = 0; i < 60; i++) {
    const x = next() % width;
    const y = next() % height;
    const w = 50 + (next() % 900);
    const h = 50 + (next() % 1400);
    const fill = `fill="rgb(${next() >>> 24},${next() >>> 24},${next() >>> 24})" fill-opacity="0.8"`;
    shapes.push(
      i % 2
        ? `<rect x="${x}" y="${y}" width="${w}" height="${h}" ${fill}/>`
        : `<ellipse cx="${x}" cy="${y}" rx="${w / 2}" ry="${h / 2}" ${fill}/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`;
  const pixels = await sharp(await octave(250, 3), { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(svg) }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const [coarse, mid, fine] = [await octave(60, 1), await octave(16, 1), await octave(4, 1)];
  for (let p = 0, q = 0; p < pixels.length; p += 3, q++) {
    const t =
      ((coarse[q] as number) - 128) * 0.35 + ((mid[q] as number) - 128) * 0.22 + ((fine[q] as number) - 128) * 0.12;
    for (let c = 0; c < 3; c++) {
      const v = (pixels[p + c] as number) + t + (next() >>> 28) - 8;
      pixels[p + c] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer(),
  );
}

/** `count` distinct 24 MP scenes (`sceneLike`), made the first time they are asked for. */
export async function cachedScenes(count: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(SCENES_CACHE, `scene-${i}.jpg`);
    const made = await stat(file).then(
      () => true,
      () => false,
    );
    if (!made) {
      await sceneLike(`${file}.part`, i + 1);
      await rename(`${file}.part`, file);
    }
    files.push(file);
  }
  return files;
}
