import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Photo } from '../../../src/services/photos/types.js';
import { build, tempDir } from '../../helpers/build.js';
import { meanAbsDiff, ORIGINAL_MARKER, writeFixture } from '../../support/images-fixtures.js';

const errorShape = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });

const EVENT = 'EXPO24';
const SESSION_DIR = ['Day 1', 'Morning'];

/** A library with three photos (landscape, portrait-by-EXIF, and one smaller than a thumbnail). */
async function library(t: TestContext) {
  const dir = await tempDir(t, 'images-routes-');
  const photosDir = path.join(dir, 'photos', EVENT, ...SESSION_DIR);
  await writeFixture(path.join(photosDir, 'a.jpg'), { width: 1200, height: 800 });
  await writeFixture(path.join(photosDir, 'b.jpg'), { width: 900, height: 600, orientation: 6, seed: 2 });
  await writeFixture(path.join(photosDir, 'c.jpg'), { width: 240, height: 160, seed: 4 });
  // Outside PHOTOS_DIR: what a traversal would be after.
  await writeFixture(path.join(dir, 'secret.jpg'), { width: 300, height: 200, seed: 9 });
  await writeFile(path.join(dir, 'secret.txt'), 'TOP-SECRET-CONTENT');
  return { dir, photosDir };
}

/** On-demand rendering: the intake's thumbnails of new photos are off unless a test turns them on. */
const ON_DEMAND = { PREVIEW_SIZE: '600', INTAKE_INSPECT: 'off' };

async function appWithLibrary(t: TestContext, env: Record<string, string> = {}) {
  const lib = await library(t);
  const app = await build(t, { dataDir: lib.dir, env: { ...ON_DEMAND, ...env } });
  const photos = app.photos.photosOf(EVENT) as readonly Photo[];
  expect(photos).toHaveLength(3);
  const byFile = (name: string) => photos.find((p) => p.fileName === name) as Photo;
  return { app, ...lib, a: byFile('a.jpg'), b: byFile('b.jpg'), c: byFile('c.jpg') };
}

const thumbUrl = (p: Photo, ref = p.id) => `/api/proxy-image/${p.eventCode}/${encodeURIComponent(ref)}`;
const previewUrl = (p: Photo, ref = p.id) => `/api/preview/${p.eventCode}/${encodeURIComponent(ref)}`;

/** The original file of a photo, as the library has it. */
const originalOf = async (app: Awaited<ReturnType<typeof build>>, p: Photo) => app.photos.originalPath(p);

async function dims(body: Buffer) {
  const meta = await sharp(body).metadata();
  return [meta.width, meta.height, meta.format];
}

describe('GET /api/proxy-image/:event/:photo', () => {
  test('a thumbnail by id or by number: JPEG, 400 px long edge, ETag, CORS', async (t) => {
    const { app, a, b } = await appWithLibrary(t);
    const byId = await app.inject({ url: thumbUrl(a) });
    expect(byId.statusCode).toBe(200);
    expect(byId.headers['content-type']).toBe('image/jpeg');
    expect(byId.headers.etag).toMatch(/^"t[0-9a-f]{32}"$/);
    expect(byId.headers['access-control-allow-origin']).toBe('*');
    expect(byId.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(byId.headers['content-length'])).toBe(byId.rawPayload.length);
    expect(await dims(byId.rawPayload)).toEqual([400, 267, 'jpeg']);

    const byNumber = await app.inject({ url: thumbUrl(a, a.number) });
    expect(byNumber.statusCode).toBe(200);
    expect(byNumber.headers.etag).toBe(byId.headers.etag);
    expect(byNumber.rawPayload.equals(byId.rawPayload)).toBe(true);

    // Turned by its EXIF orientation: stored 900×600, shown 600×900.
    const portrait = await app.inject({ url: thumbUrl(b) });
    expect(await dims(portrait.rawPayload)).toEqual([267, 400, 'jpeg']);
  });

  test('with the current version the response is immutable for a year; otherwise short and revalidated', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const current = await app.inject({ url: `${thumbUrl(a)}?v=${a.version}` });
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const bare = await app.inject({ url: thumbUrl(a) });
    expect(bare.headers['cache-control']).toBe('public, max-age=300');
    const stale = await app.inject({ url: `${thumbUrl(a)}?v=outdated` });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
    expect(stale.headers.etag).toBe(current.headers.etag);
  });

  test('304 round trip on If-None-Match (exact, weak, in a list, *)', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const first = await app.inject({ url: `${thumbUrl(a)}?v=${a.version}` });
    const etag = first.headers.etag as string;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await app.inject({ url: `${thumbUrl(a)}?v=${a.version}`, headers: { 'if-none-match': inm } });
      expect(res.statusCode, inm).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const other = await app.inject({ url: thumbUrl(a), headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.length).toBeGreaterThan(0);
  });

  test('HEAD answers the headers without a body', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const res = await app.inject({ method: 'HEAD', url: thumbUrl(a) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toMatch(/^"t/);
    expect(res.rawPayload.length).toBe(0);
  });

  test('replacing the original changes the version, the ETag and the image', async (t) => {
    const { app, a, photosDir } = await appWithLibrary(t);
    const before = await app.inject({ url: thumbUrl(a) });
    await writeFixture(path.join(photosDir, 'a.jpg'), { width: 1000, height: 1000, seed: 7 });
    await app.photos.rescan();
    const replaced = app.photos.findPhoto(EVENT, a.id) as Photo;
    expect(replaced.version).not.toBe(a.version);

    const after = await app.inject({ url: thumbUrl(a), headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(await dims(after.rawPayload)).toEqual([400, 400, 'jpeg']);
    // The gallery's new URL is the immutable one.
    const versioned = await app.inject({ url: `${thumbUrl(a)}?v=${replaced.version}` });
    expect(versioned.headers['cache-control']).toContain('immutable');
  });

  test('concurrent requests for an uncached thumbnail render it once', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const results = await Promise.all(Array.from({ length: 10 }, () => app.inject({ url: thumbUrl(a) })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.headers.etag)).size).toBe(1);
    expect(app.images.stats().renders).toBe(1);
  });

  test('a restarted app serves from the disk cache without rendering', async (t) => {
    const { app, a, dir } = await appWithLibrary(t);
    const first = await app.inject({ url: thumbUrl(a) });
    await app.close();
    const again = await build(t, { dataDir: dir, env: ON_DEMAND });
    const second = await again.inject({ url: thumbUrl(a) });
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.images.stats()).toMatchObject({ renders: 0, diskHits: 1 });
  });

  test('unknown event: 404 EVENT_NOT_FOUND; unknown photo: 404 PHOTO_NOT_FOUND; not cacheable', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const noEvent = await app.inject({ url: `/api/proxy-image/NOPE/${a.id}` });
    expect(noEvent.statusCode).toBe(404);
    expect(errorShape.parse(noEvent.json()).code).toBe('EVENT_NOT_FOUND');
    expect(noEvent.headers['cache-control']).toBe('no-store');
    expect(noEvent.headers.etag).toBeUndefined();
    for (const ref of ['nope', '9999', a.id.toUpperCase()]) {
      const res = await app.inject({ url: `/api/proxy-image/${EVENT}/${ref}` });
      expect(res.statusCode, ref).toBe(404);
      expect(errorShape.parse(res.json()).code).toBe('PHOTO_NOT_FOUND');
    }
    const tooLong = await app.inject({ url: `/api/proxy-image/${EVENT}/${'x'.repeat(300)}` });
    expect(tooLong.statusCode).toBe(400);
    expect(errorShape.parse(tooLong.json()).code).toBe('VALIDATION_FAILED');
  });

  test('an original that cannot be decoded is 503 IMAGE_UNAVAILABLE, logged', async (t) => {
    const lib = await library(t);
    const lines: string[] = [];
    const app = await build(t, { dataDir: lib.dir, logLines: lines });
    const a = (app.photos.photosOf(EVENT) ?? []).find((p) => p.fileName === 'a.jpg') as Photo;
    // Same size and modification time: the index still lists it, but its bytes are garbage.
    const file = path.join(lib.photosDir, 'a.jpg');
    const { size, mtime, atime } = await stat(file);
    await writeFile(file, Buffer.alloc(size, 0x5a));
    await utimes(file, atime, mtime);

    const res = await app.inject({ url: thumbUrl(a) });
    expect(res.statusCode).toBe(503);
    expect(errorShape.parse(res.json())).toMatchObject({ code: 'IMAGE_UNAVAILABLE' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(lines.some((l) => l.includes('image render failed'))).toBe(true);
  });
});

describe('GET /api/preview/:event/:photo', () => {
  test('a watermarked preview, unlike a plain resize, with its own ETag', async (t) => {
    const { app, a, photosDir } = await appWithLibrary(t);
    const res = await app.inject({ url: `${previewUrl(a)}?v=${a.version}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toMatch(/^"p[0-9a-f]{32}"$/);
    expect(res.headers['cache-control']).toContain('immutable');
    const preview = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([preview.info.width, preview.info.height]).toEqual([600, 400]);
    const plain = await sharp(path.join(photosDir, 'a.jpg')).resize(600, 400).raw().toBuffer();
    expect(meanAbsDiff(preview.data, plain)).toBeGreaterThan(3);

    const thumb = await app.inject({ url: thumbUrl(a) });
    expect(thumb.headers.etag).not.toBe(res.headers.etag);
    const notModified = await app.inject({
      url: previewUrl(a),
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
  });

  test('unknown photo is 404 PHOTO_NOT_FOUND', async (t) => {
    const { app } = await appWithLibrary(t);
    const res = await app.inject({ url: `/api/preview/${EVENT}/zzz` });
    expect(res.statusCode).toBe(404);
    expect(errorShape.parse(res.json()).code).toBe('PHOTO_NOT_FOUND');
  });
});

describe('originals are never served', () => {
  test('not even when the original is smaller than the thumbnail', async (t) => {
    const { app, c, photosDir } = await appWithLibrary(t);
    const original = await readFile(path.join(photosDir, 'c.jpg'));
    expect(original.includes(ORIGINAL_MARKER)).toBe(true);
    for (const url of [thumbUrl(c), previewUrl(c), `${thumbUrl(c, c.number)}?v=${c.version}`]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.rawPayload.equals(original), url).toBe(false);
      expect(res.rawPayload.includes(ORIGINAL_MARKER), url).toBe(false);
      expect((await sharp(res.rawPayload).metadata()).exif, url).toBeUndefined();
      expect(await dims(res.rawPayload)).toEqual([240, 160, 'jpeg']);
    }
  });
});

describe('path traversal', () => {
  test('no parameter, encoded or not, reaches a file outside PHOTOS_DIR', async (t) => {
    const { app, dir, a } = await appWithLibrary(t);
    const secret = await readFile(path.join(dir, 'secret.jpg'));
    const attempts = [
      `${EVENT}/..%2F..%2Fsecret.jpg`,
      `${EVENT}/%2e%2e%2f%2e%2e%2fsecret.jpg`,
      `${EVENT}/%2E%2E`,
      `${EVENT}/..`,
      `..%2F${EVENT}/${a.id}`,
      `%2e%2e/${a.id}`,
      `..%2F..%2F..%2F..%2Fetc/passwd`,
      `${EVENT}/${encodeURIComponent(path.join(dir, 'secret.jpg'))}`,
      `${encodeURIComponent(dir)}/secret.jpg`,
      `${EVENT}/%2Fetc%2Fpasswd`,
      `${EVENT}/${a.id}%00`,
      `${EVENT}%00/${a.id}`,
      `${EVENT}/..%5C..%5Csecret.jpg`,
      `${EVENT}/${encodeURIComponent(`${SESSION_DIR.join('/')}/a.jpg`)}`,
      `${EVENT}/a.jpg`,
      `${EVENT}/../../secret.jpg`,
      `../../secret.txt/x`,
    ];
    for (const kind of ['proxy-image', 'preview']) {
      for (const attempt of attempts) {
        const res = await app.inject({ url: `/api/${kind}/${attempt}` });
        expect([400, 404], `${kind}/${attempt}`).toContain(res.statusCode);
        expect(res.headers['content-type'], attempt).toMatch(/^application\/json/);
        expect(res.rawPayload.includes(secret.subarray(0, 64)), attempt).toBe(false);
        expect(res.body, attempt).not.toContain('TOP-SECRET');
        expect(res.body, attempt).not.toContain('root:');
      }
    }
    expect(app.images.stats().renders).toBe(0);
  });
});

describe('an unwritable cache folder', () => {
  test('still serves every image and logs the problem once', async (t) => {
    const lib = await library(t);
    // A file where DATA_DIR/cache should be: no folder can be made there, even as root.
    await writeFile(path.join(lib.dir, 'cache'), 'not a folder');
    const lines: string[] = [];
    const app = await build(t, { dataDir: lib.dir, env: ON_DEMAND, logLines: lines });
    const photos = app.photos.photosOf(EVENT) ?? [];
    for (const p of photos) {
      for (const url of [thumbUrl(p), previewUrl(p)]) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
      }
    }
    // Served again from memory.
    expect((await app.inject({ url: thumbUrl(photos[0] as Photo) })).statusCode).toBe(200);
    await app.close();
    expect(app.images.stats()).toMatchObject({ renders: 6, diskWriteFailures: 6 });
    const complaints = lines.filter((l) => l.includes('image cache directory is not writable'));
    expect(complaints).toHaveLength(1);
    expect(JSON.parse(complaints[0] as string).level).toBe(50); // error
  });
});

describe('formats, 2x thumbnails and the intake', () => {
  test('WebP for a client that accepts it, JPEG otherwise; Vary: Accept; separate cache entries', async (t) => {
    const { app, a } = await appWithLibrary(t);
    const webp = await app.inject({ url: thumbUrl(a), headers: { accept: 'image/avif,image/webp,*/*' } });
    expect(webp.statusCode).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toBe('Accept');
    expect((await sharp(webp.rawPayload).metadata()).format).toBe('webp');
    const jpeg = await app.inject({ url: thumbUrl(a), headers: { accept: 'image/*' } });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(jpeg.headers.vary).toBe('Accept');
    expect(jpeg.headers.etag).not.toBe(webp.headers.etag);
    const refused = await app.inject({ url: thumbUrl(a), headers: { accept: 'image/webp;q=0, image/jpeg' } });
    expect(refused.headers['content-type']).toBe('image/jpeg');
    expect(app.images.stats().renders).toBe(2);
    // A restart reads both encodings from the disk cache.
    const again = await build(t, { dataDir: app.dataDir, env: ON_DEMAND });
    const photo = again.photos.findPhoto(a.eventCode, a.id) as Photo;
    const w2 = await again.inject({ url: thumbUrl(photo), headers: { accept: 'image/webp' } });
    expect(w2.rawPayload.equals(webp.rawPayload)).toBe(true);
    expect(again.images.stats()).toMatchObject({ renders: 0, diskHits: 1 });
  });

  test('size=2x: twice THUMBNAIL_SIZE on the long edge, never upscaled', async (t) => {
    const { app, a, c } = await appWithLibrary(t, { THUMBNAIL_SIZE: '200' });
    const big = await app.inject({ url: `${thumbUrl(a)}?size=2x` });
    expect(await dims(big.rawPayload)).toEqual([400, 267, 'jpeg']);
    const small = await app.inject({ url: `${thumbUrl(a)}?size=1x` });
    expect(await dims(small.rawPayload)).toEqual([200, 133, 'jpeg']);
    const tiny = await app.inject({ url: `${thumbUrl(c)}?size=2x` });
    expect(await dims(tiny.rawPayload)).toEqual([240, 160, 'jpeg']);
    expect((await app.inject({ url: `${thumbUrl(a)}?size=3x` })).statusCode).toBe(400);
  });

  test('tile=<width>: the centre square of the photo, that many pixels a side; never upscaled; cached like the rest', async (t) => {
    const { app, a, b, c } = await appWithLibrary(t);
    const url = `${thumbUrl(a)}?v=${a.version}&tile=360`;
    const tile = await app.inject({ url, headers: { accept: 'image/webp,*/*' } });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/webp');
    expect(tile.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(tile.headers.vary).toBe('Accept');
    expect(await dims(tile.rawPayload)).toEqual([360, 360, 'webp']);
    // The middle of the photo: the same pixels as a centre crop of the original, scaled.
    const side = 800; // a.jpg is 1200×800: its centre square starts 200 px in
    const expected = await sharp(await originalOf(app, a))
      .extract({ left: 200, top: 0, width: side, height: side })
      .resize(360, 360)
      .raw()
      .toBuffer();
    const got = await sharp(tile.rawPayload).raw().toBuffer();
    expect(meanAbsDiff(got, expected)).toBeLessThan(6);
    // Not the same picture as the whole photo squeezed into the square (the check above can fail).
    const squeezed = await sharp(await originalOf(app, a))
      .resize(360, 360, { fit: 'fill' })
      .raw()
      .toBuffer();
    expect(meanAbsDiff(got, squeezed)).toBeGreaterThan(6);

    const again = await app.inject({
      url,
      headers: { accept: 'image/webp', 'if-none-match': tile.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const jpeg = await app.inject({ url: `${thumbUrl(a)}?tile=240` });
    expect(await dims(jpeg.rawPayload)).toEqual([240, 240, 'jpeg']);
    expect(jpeg.headers.etag).not.toBe(tile.headers.etag);
    // Turned by EXIF first (600×900 as shown), then cut square.
    expect(await dims((await app.inject({ url: `${thumbUrl(b)}?tile=480` })).rawPayload)).toEqual([480, 480, 'jpeg']);
    // Smaller than the tile: the square of its short edge.
    expect(await dims((await app.inject({ url: `${thumbUrl(c)}?tile=360` })).rawPayload)).toEqual([160, 160, 'jpeg']);
  });

  test('a tile width off the list, or tile with size, is 400 VALIDATION_FAILED', async (t) => {
    const { app, a } = await appWithLibrary(t);
    for (const query of ['tile=300', 'tile=abc', 'tile=', 'tile=360&size=2x', 'tile=360&tile=240']) {
      const res = await app.inject({ url: `${thumbUrl(a)}?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(errorShape.parse(res.json()).code, query).toBe('VALIDATION_FAILED');
    }
    expect(app.images.stats().renders).toBe(0);
  });

  test('with the intake on, photos found at start-up get their thumbnails (JPEG and WebP) and the tiles phones and desktops ask for, without a request', async (t) => {
    const lib = await library(t);
    const app = await build(t, { dataDir: lib.dir, env: { PREVIEW_SIZE: '600', INTAKE_INSPECT: 'on' } });
    await app.photos.rescan(); // resolves once the background inspections are done
    // a.jpg and b.jpg: the thumbnail twice and the 240 and 360 tiles; c.jpg (240×160): the
    // thumbnail twice, no tile (its short edge is smaller than either).
    expect(app.images.stats().prerendered).toBe(4 + 4 + 2);
    const photo = app.photos.photosOf(EVENT)?.find((p) => p.fileName === 'a.jpg') as Photo;
    for (const accept of ['image/webp', 'image/jpeg']) {
      expect((await app.inject({ url: thumbUrl(photo), headers: { accept } })).statusCode).toBe(200);
    }
    for (const tile of ['240', '360']) {
      const res = await app.inject({ url: `${thumbUrl(photo)}?tile=${tile}`, headers: { accept: 'image/webp' } });
      expect(await dims(res.rawPayload)).toEqual([Number(tile), Number(tile), 'webp']);
    }
    expect(app.images.stats()).toMatchObject({ renders: 0, diskHits: 4 });
  });
});
