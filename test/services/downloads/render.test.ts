/**
 * The downloaded file: full resolution, no watermark, EXIF reduced to orientation and
 * copyright (read back with exifr), rendered once per photo version.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { createDownloadFiles, DOWNLOADS_DIR } from '../../../src/services/downloads/files.js';
import { readCopyright, renderDownload } from '../../../src/services/downloads/render.js';
import { tempDir } from '../../helpers/build.js';
import { ALLOWED_DOWNLOAD_TAGS, allMetadata, cameraPhoto } from '../../support/selling-fixtures.js';

describe('renderDownload', () => {
  test('full resolution, same pixels (no watermark), orientation and copyright kept, nothing else', async (t) => {
    const dir = await tempDir(t);
    const original = path.join(dir, 'original.jpg');
    await writeFile(original, await cameraPhoto({ width: 900, height: 600 }));
    const before = await allMetadata(await readFile(original));
    // The original really carries what must go.
    for (const tag of ['GPSLatitude', 'Make', 'Model', 'Artist', 'DateTimeOriginal', 'SerialNumber', 'creator']) {
      expect(before, tag).toHaveProperty(tag);
    }
    expect(before).toHaveProperty('ProfileDescription');

    const out = path.join(dir, 'out.jpg');
    expect(await renderDownload(original, out)).toEqual({ width: 900, height: 600 });
    const bytes = await readFile(out);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.orientation]).toEqual(['jpeg', 900, 600, 6]);
    expect([meta.icc, meta.xmp, meta.iptc]).toEqual([undefined, undefined, undefined]);

    const after = await allMetadata(bytes);
    expect(after.Copyright).toBe('(c) 2026 Jane Photographer');
    expect(after.Orientation).toBe('Rotate 90 CW');
    const extra = Object.keys(after).filter((k) => !ALLOWED_DOWNLOAD_TAGS.has(k));
    expect(extra).toEqual([]);

    // A uniform original stays uniform: a tiled watermark would add variance.
    const stats = await sharp(bytes).stats();
    for (const channel of stats.channels) expect(channel.stdev).toBeLessThan(2);
    // The same pixels as the original in sRGB (the P3 profile is converted, then dropped).
    const source = await sharp(await sharp(original).png().toBuffer()).stats();
    stats.channels.forEach((c, i) => {
      expect(Math.abs(c.mean - (source.channels[i]?.mean ?? 0))).toBeLessThan(2);
    });
  });

  test('without a copyright in the original, none is made up; control characters are blanked', async (t) => {
    const dir = await tempDir(t);
    const plain = path.join(dir, 'plain.jpg');
    await writeFile(plain, await cameraPhoto({ copyright: '' }));
    await renderDownload(plain, path.join(dir, 'plain-out.jpg'));
    const meta = await allMetadata(await readFile(path.join(dir, 'plain-out.jpg')));
    expect(meta.Copyright).toBeUndefined();
    expect(meta.Orientation).toBe('Rotate 90 CW');

    const odd = path.join(dir, 'odd.jpg');
    await writeFile(odd, await cameraPhoto({ copyright: '(c)\tJane\nDoe' }));
    expect(await readCopyright(odd)).toBe('(c) Jane Doe');
    expect(await readCopyright(path.join(dir, 'missing.jpg'))).toBe('');
  });

  test('a file that is not an image fails (the route answers 503)', async (t) => {
    const dir = await tempDir(t);
    const bad = path.join(dir, 'bad.jpg');
    await writeFile(bad, 'not a jpeg');
    await expect(renderDownload(bad, path.join(dir, 'bad-out.jpg'))).rejects.toThrow();
  });
});

describe('download files', () => {
  test('rendered once per photo version, shared by concurrent requests; a new version replaces the old', async (t) => {
    const dir = await tempDir(t);
    const original = path.join(dir, 'o.jpg');
    await writeFile(original, await cameraPhoto({ width: 300, height: 200 }));
    const files = createDownloadFiles(dir);
    const photo = { eventCode: 'AX', id: 'p1', version: 'v1' };
    const [a, b] = await Promise.all([files.ensure(photo, original), files.ensure(photo, original)]);
    expect(a).toEqual(b);
    expect(files.renders).toBe(1);
    expect((await files.ensure(photo, original)).file).toBe(a.file);
    expect(files.renders).toBe(1);
    expect(a.size).toBe((await readFile(a.file)).length);

    const next = await files.ensure({ ...photo, version: 'v2' }, original);
    expect(files.renders).toBe(2);
    expect(next.file).not.toBe(a.file);
    // Only the newest version is kept, and no temporary file is left behind.
    expect(await readdir(path.join(dir, DOWNLOADS_DIR))).toEqual([path.basename(next.file)]);
  });

  test('a failed render leaves nothing behind', async (t) => {
    const dir = await tempDir(t);
    const bad = path.join(dir, 'bad.jpg');
    await writeFile(bad, 'nope');
    const files = createDownloadFiles(dir);
    await expect(files.ensure({ eventCode: 'AX', id: 'p', version: '1' }, bad)).rejects.toThrow();
    expect(await readdir(path.join(dir, DOWNLOADS_DIR))).toEqual([]);
  });
});
