import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { createImageService, type ImageServiceOptions } from '../../../src/services/images/service.js';
import type { Photo } from '../../../src/services/photos/types.js';
import { tempDir } from '../../helpers/build.js';
import {
  fixturePhoto,
  meanAbsDiff,
  ORIGINAL_MARKER,
  recordingLogger,
  writeFixture,
} from '../../support/images-fixtures.js';

/** A service over a temp folder: originals in `<dir>/photos/<id>.<ext>`, cache in `<dir>/cache`. */
async function setup(t: TestContext, overrides: Partial<ImageServiceOptions> = {}) {
  const dir = await tempDir(t, 'images-svc-');
  const log = recordingLogger();
  const originals = new Map<string, string>();
  const options: ImageServiceOptions = {
    originalPath: (p) => originals.get(p.id) ?? path.join(dir, 'photos', 'missing.jpg'),
    cacheDir: path.join(dir, 'cache', 'images'),
    thumbnailSize: 400,
    previewSize: 1600,
    watermarkText: 'PROOF',
    memoryBytes: 8 * 1024 * 1024,
    log,
    ...overrides,
  };
  const service = createImageService(options);
  t.onTestFinished(() => service.close());
  async function photo(id: string, fixture: Parameters<typeof writeFixture>[1], extra: Partial<Photo> = {}) {
    const ext = fixture.format === 'png' ? 'png' : 'jpg';
    const file = await writeFixture(path.join(dir, 'photos', `${id}.${ext}`), fixture);
    originals.set(id, file);
    return fixturePhoto({ id, width: fixture.width, height: fixture.height, ...extra });
  }
  return { dir, log, service, options, photo, originals };
}

async function sizeOf(body: Buffer) {
  const meta = await sharp(body).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

describe('thumbnails', () => {
  test('are JPEGs 400 px on the long edge, aspect kept', async (t) => {
    const { service, photo } = await setup(t);
    const landscape = await service.get('thumbnail', await photo('land', { width: 1200, height: 800 }));
    expect(await sizeOf(landscape.body)).toEqual({ width: 400, height: 267, format: 'jpeg' });
    const portrait = await service.get('thumbnail', await photo('port', { width: 600, height: 1000 }));
    expect(await sizeOf(portrait.body)).toEqual({ width: 240, height: 400, format: 'jpeg' });
  });

  test('follow the EXIF orientation and keep no metadata', async (t) => {
    const { service, photo } = await setup(t);
    // Stored 1200×800, tagged "rotate 90° clockwise": displayed 800×1200.
    const img = await service.get('thumbnail', await photo('rot', { width: 1200, height: 800, orientation: 6 }));
    const meta = await sharp(img.body).metadata();
    expect([meta.width, meta.height]).toEqual([267, 400]);
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(img.body.includes(ORIGINAL_MARKER)).toBe(false);
  });

  test('are never larger than the original, and never its bytes', async (t) => {
    const { service, photo, originals } = await setup(t);
    const small = await photo('small', { width: 300, height: 200 });
    const img = await service.get('thumbnail', small);
    expect(await sizeOf(img.body)).toEqual({ width: 300, height: 200, format: 'jpeg' });
    const original = await readFile(originals.get('small') as string);
    expect(img.body.equals(original)).toBe(false);
    expect(img.body.includes(ORIGINAL_MARKER)).toBe(false);
    expect(original.includes(ORIGINAL_MARKER)).toBe(true); // the check above can fail
  });

  test('PNG with transparency becomes a JPEG on white', async (t) => {
    const { service, photo } = await setup(t);
    const img = await service.get(
      'thumbnail',
      await photo('png', { width: 200, height: 100, format: 'png', alpha: true }),
    );
    const { data, info } = await sharp(img.body).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    // A pixel in the transparent right half is white.
    const i = (50 * info.width + 180) * 3;
    expect([data[i], data[i + 1], data[i + 2]].every((v) => (v as number) > 245)).toBe(true);
  });
});

describe('previews', () => {
  test('are 1600 px on the long edge and carry a watermark across the whole image', async (t) => {
    const { service, photo, originals } = await setup(t);
    const preview = await service.get('preview', await photo('big', { width: 2400, height: 1600 }));
    const decoded = await sharp(preview.body).raw().toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height]).toEqual([1600, 1067]);

    // The same original, plainly resized to the same size: the watermark is the difference.
    const plain = await sharp(originals.get('big') as string)
      .resize(1600, 1067)
      .jpeg({ quality: 82 })
      .toBuffer()
      .then((b) => sharp(b).raw().toBuffer());
    expect(meanAbsDiff(decoded.data, plain)).toBeGreaterThan(3);

    // Tiled: every quarter of the image differs, not just one spot.
    const quarter = async (body: Buffer, left: number, top: number) =>
      sharp(body, { raw: { width: 1600, height: 1067, channels: 3 } })
        .extract({ left, top, width: 800, height: 533 })
        .raw()
        .toBuffer();
    for (const [left, top] of [
      [0, 0],
      [800, 0],
      [0, 534],
      [800, 534],
    ] as const) {
      const diff = meanAbsDiff(await quarter(decoded.data, left, top), await quarter(plain, left, top));
      expect(diff, `quarter at ${left},${top}`).toBeGreaterThan(2);
    }
  });

  test('a tiny original still gets a (cropped) watermark and is not upscaled', async (t) => {
    const { service, photo } = await setup(t);
    const img = await service.get('preview', await photo('tiny', { width: 60, height: 40 }));
    expect(await sizeOf(img.body)).toEqual({ width: 60, height: 40, format: 'jpeg' });
  });

  test('a change of watermark text is a new image with a new ETag', async (t) => {
    const a = await setup(t, { previewSize: 300 });
    const p = await a.photo('w', { width: 400, height: 300 });
    const first = await a.service.get('preview', p);
    const other = createImageService({ ...a.options, watermarkText: 'SAMPLE <見本> & co' });
    t.onTestFinished(() => other.close());
    const second = await other.get('preview', p);
    expect(second.etag).not.toBe(first.etag);
    expect(second.body.equals(first.body)).toBe(false);
    expect(other.stats().renders).toBe(1);
  });
});

describe('caching', () => {
  test('concurrent requests for one image render it once', async (t) => {
    const { service, photo } = await setup(t);
    const p = await photo('c', { width: 800, height: 600 });
    const results = await Promise.all(Array.from({ length: 12 }, () => service.get('thumbnail', p)));
    expect(service.stats().renders).toBe(1);
    expect(new Set(results.map((r) => r.etag)).size).toBe(1);
    expect(results.every((r) => r === results[0])).toBe(true);
    // And again: from memory, still one render.
    await service.get('thumbnail', p);
    expect(service.stats()).toMatchObject({ renders: 1, memoryHits: 1 });
    expect(service.peek('thumbnail', p)).toBe(results[0]);
  });

  test('the disk cache survives a restart: no render, same bytes and ETag', async (t) => {
    const { service, photo, options } = await setup(t);
    const p = await photo('d', { width: 800, height: 600 });
    const first = await service.get('thumbnail', p);
    await service.close();
    const files = await readdir(path.join(options.cacheDir, 'thumbnail'), { recursive: true });
    expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(1);
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);

    const restarted = createImageService(options);
    const again = await restarted.get('thumbnail', p);
    expect(restarted.stats()).toMatchObject({ renders: 0, diskHits: 1 });
    expect(again.etag).toBe(first.etag);
    expect(again.body.equals(first.body)).toBe(true);
  });

  test('a replaced original (new version) gets a new image and ETag', async (t) => {
    const { service, photo } = await setup(t);
    const before = await service.get('thumbnail', await photo('r', { width: 800, height: 600, seed: 0 }));
    const replaced = await photo('r', { width: 800, height: 600, seed: 3 }, { version: 'v2' });
    const after = await service.get('thumbnail', replaced);
    expect(after.etag).not.toBe(before.etag);
    expect(after.version).toBe('v2');
    expect(after.body.equals(before.body)).toBe(false);
    expect(service.stats().renders).toBe(2);
  });

  test('without a memory budget, images come from the disk cache', async (t) => {
    const { service, photo } = await setup(t, { memoryBytes: 0 });
    const p = await photo('m', { width: 500, height: 500 });
    const first = await service.get('thumbnail', p);
    await service.close(); // the write has landed
    const second = await service.get('thumbnail', p);
    expect(service.peek('thumbnail', p)).toBeUndefined();
    expect(service.stats()).toMatchObject({ renders: 1, diskHits: 1, memoryBytes: 0 });
    expect(second.body.equals(first.body)).toBe(true);
  });

  test('the memory cache stays within its budget', async (t) => {
    const { service, photo } = await setup(t, { memoryBytes: 40 * 1024 });
    for (let i = 0; i < 6; i++)
      await service.get('thumbnail', await photo(`b${i}`, { width: 800, height: 600, seed: i }));
    expect(service.stats().memoryBytes).toBeGreaterThan(0);
    expect(service.stats().memoryBytes).toBeLessThanOrEqual(40 * 1024);
  });

  test('an unwritable cache folder still serves, and logs once', async (t) => {
    const dir = await tempDir(t, 'images-ro-');
    // A file where the cache folder should be: no mkdir can succeed, even as root.
    await writeFile(path.join(dir, 'cache'), 'not a folder');
    const { service, photo, log } = await setup(t, { cacheDir: path.join(dir, 'cache', 'images') });
    for (let i = 0; i < 4; i++) {
      const img = await service.get('thumbnail', await photo(`u${i}`, { width: 300, height: 200, seed: i }));
      expect((await sizeOf(img.body)).format).toBe('jpeg');
    }
    await service.close();
    expect(service.stats()).toMatchObject({ renders: 4, diskWriteFailures: 4 });
    const errors = log.entries.filter((c) => c.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toMatch(/not writable/);
  });

  test('the cache recovers when its folder becomes writable again, and says so', async (t) => {
    const dir = await tempDir(t, 'images-rec-');
    await writeFile(path.join(dir, 'cache'), 'not a folder');
    const { service, photo, log } = await setup(t, { cacheDir: path.join(dir, 'cache', 'images') });
    await service.get('thumbnail', await photo('a', { width: 300, height: 200 }));
    await service.close();
    await rm(path.join(dir, 'cache'));
    await mkdir(path.join(dir, 'cache'));
    await service.get('thumbnail', await photo('b', { width: 300, height: 200, seed: 1 }));
    await service.close();
    expect(log.entries.map((c) => c.level)).toEqual(['error', 'info']);
    expect(service.stats().diskWriteFailures).toBe(1);
  });
});

describe('failures', () => {
  test('a vanished original is PHOTO_NOT_FOUND', async (t) => {
    const { service } = await setup(t);
    const ghost = fixturePhoto({ id: 'ghost' });
    await expect(service.get('thumbnail', ghost)).rejects.toMatchObject({ code: 'PHOTO_NOT_FOUND', statusCode: 404 });
  });

  test('a broken original is IMAGE_UNAVAILABLE, logged, and not decoded again at once', async (t) => {
    const { service, dir, originals, log } = await setup(t);
    const file = path.join(dir, 'photos', 'broken.jpg');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.from('not a jpeg at all'));
    originals.set('broken', file);
    const broken = fixturePhoto({ id: 'broken' });
    await expect(service.get('thumbnail', broken)).rejects.toMatchObject({
      code: 'IMAGE_UNAVAILABLE',
      statusCode: 503,
    });
    await expect(service.get('thumbnail', broken)).rejects.toMatchObject({ code: 'IMAGE_UNAVAILABLE' });
    expect(service.stats().failures).toBe(1);
    expect(log.entries.filter((c) => c.level === 'warn')).toHaveLength(1);
  });
});

describe('ensure (pre-generation)', () => {
  test('renders what is missing and skips what is cached', async (t) => {
    const { service, photo } = await setup(t);
    const p = await photo('e', { width: 800, height: 600 });
    expect(await service.ensure('thumbnail', p)).toBe('rendered');
    expect(await service.ensure('thumbnail', p)).toBe('skipped');
    expect(await service.ensure('preview', p)).toBe('rendered');
    // What `get` serves afterwards comes from the disk, not a new render.
    await service.get('preview', p);
    expect(service.stats()).toMatchObject({ renders: 2, diskHits: 1 });
  });

  test('fails when the cache cannot be written', async (t) => {
    const dir = await tempDir(t, 'images-ro2-');
    await writeFile(path.join(dir, 'cache'), 'x');
    const { service, photo } = await setup(t, { cacheDir: path.join(dir, 'cache', 'images') });
    await expect(service.ensure('thumbnail', await photo('f', { width: 100, height: 100 }))).rejects.toThrow(
      /cannot write/,
    );
  });
});

describe('tiles', () => {
  test('the intake makes the 240 and 360 px WebP tiles from its decoded copy, as a render from the original would look', async (t) => {
    const { service, photo, originals } = await setup(t);
    const p = await photo('tiled', { width: 1500, height: 1000 });
    // The intake's copy: the photo decoded at 666 px on the long edge, with alpha (services/intake).
    const copy = await sharp(originals.get('tiled') as string)
      .resize({ width: 666, height: 666, fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const stored = await service.storeThumbnails(p, {
      data: copy.data,
      width: copy.info.width,
      height: copy.info.height,
      channels: 4,
    });
    expect(stored).toBe(true);
    expect(service.stats().prerendered).toBe(4); // the thumbnail twice, two tiles

    for (const kind of ['tile240', 'tile360'] as const) {
      const fromIntake = await service.get(kind, p, 'webp');
      expect(service.stats().renders).toBe(0); // from the disk cache
      const side = Number(kind.slice(4));
      expect(await sizeOf(fromIntake.body)).toEqual({ width: side, height: side, format: 'webp' });
      // A fresh service without that cache renders the same tile from the original.
      const other = await setup(t);
      other.originals.set('tiled', originals.get('tiled') as string);
      const rendered = await other.service.get(kind, p, 'webp');
      expect(other.service.stats().renders).toBe(1);
      const raw = (b: Buffer) => sharp(b).raw().toBuffer();
      expect(meanAbsDiff(await raw(fromIntake.body), await raw(rendered.body))).toBeLessThan(4);
    }
    // The others, and JPEG tiles, wait for a request.
    await service.get('tile480', p, 'webp');
    await service.get('tile360', p, 'jpeg');
    expect(service.stats().renders).toBe(2);
  });

  test('a copy smaller than a tile makes none of that width', async (t) => {
    const { service, photo } = await setup(t);
    const p = await photo('wide', { width: 1600, height: 500 });
    // 666 × 208: covers neither the 240 nor the 360 px square.
    const pixels = { data: Buffer.alloc(666 * 208 * 4, 128), width: 666, height: 208, channels: 4 as const };
    expect(await service.storeThumbnails(p, pixels)).toBe(true);
    expect(service.stats().prerendered).toBe(2);
  });
});
