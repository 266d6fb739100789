/**
 * Safe intake and photo codes at the library level, with the real inspector (one sharp
 * decode, zxing-wasm) and a real image service: files are listed only once settled and
 * complete, broken ones are reported, code frames are never listed and group the photos
 * that follow them.
 */
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { photoCodeUrl } from '../../../src/domain/photo-code.js';
import { createImageService } from '../../../src/services/images/service.js';
import { createInspector } from '../../../src/services/intake/inspect.js';
import { createPhotoLibrary, type LibraryOptions } from '../../../src/services/photos/library.js';
import { tempDir } from '../../helpers/build.js';
import { makeImage, recordingLogger, sqliteCatalogue, waitFor, writePhoto } from '../../support/photos-fixtures.js';
import { makeFrame } from '../../support/qr-frames.js';

async function open(
  t: TestContext,
  extra: Partial<LibraryOptions> = {},
  inspect = true,
  beforeStart?: (root: string) => Promise<void>,
) {
  const base = await tempDir(t);
  const root = path.join(base, 'photos');
  await mkdir(root, { recursive: true });
  await beforeStart?.(root);
  const log = recordingLogger();
  const catalogue = await sqliteCatalogue(t, base);
  const lib = createPhotoLibrary({
    photosDir: root,
    dataDir: base,
    catalogue,
    log,
    rescanIntervalMs: 0,
    watch: false,
    ...extra,
  });
  const images = createImageService({
    originalPath: (p) => lib.originalPath(p),
    cacheDir: path.join(base, 'cache'),
    thumbnailSize: 200,
    previewSize: 400,
    watermarkText: 'PROOF',
    memoryBytes: 0,
    log,
  });
  const inspector = createInspector({ images, thumbnailSize: 200 });
  if (inspect) lib.setInspector(inspector.inspect);
  t.onTestFinished(async () => {
    await inspector.close();
    await lib.close();
    await images.close();
  });
  await lib.start();
  return { lib, root, log, images };
}

const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;
const names = (photos: readonly { fileName: string }[] | undefined) => (photos ?? []).map((p) => p.fileName);

describe('safe intake', () => {
  test('a file being copied is listed only once it has settled and is complete', async (t) => {
    // The intake's clock is the test's: "still being written" cannot turn into "settled"
    // because a loaded machine paused between a write and the next look.
    let clock = Date.now();
    const writtenNow = (file: string) => utimes(file, new Date(clock), new Date(clock));
    const { lib, root } = await open(t, { settleMs: 300, watch: true, watchDebounceMs: 20, now: () => clock });
    const full = await makeImage({ width: 64, height: 48 });
    const target = await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], full.subarray(0, full.length >> 1));
    await writtenNow(target);
    await lib.rescan();
    expect(lib.photosOf('Con') ?? []).toHaveLength(0);
    expect(lib.intake().pending).toBe(1);
    // The copy goes on 150 ms later, then ends: listed after it has been quiet for settleMs.
    clock += 150;
    await writeFile(target, full);
    await writtenNow(target);
    await lib.rescan();
    expect(lib.photosOf('Con') ?? []).toHaveLength(0);
    clock += 300;
    // Listed by the library's own second look (no rescan asked for).
    await waitFor(() => (lib.photosOf('Con') ?? []).length === 1, 5000, 'the settled photo');
    expect(lib.intake()).toEqual({ pending: 0, inspecting: 0, broken: [] });
  });

  test('files written just before start-up (a demo library drawn a moment ago) are listed once the library is ready', async (t) => {
    const full = await makeImage({ width: 64, height: 48 });
    const written: string[] = [];
    const { lib } = await open(t, { settleMs: 300 }, true, async (root) => {
      written.push(await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], full));
      written.push(await writePhoto(root, ['Con', 'D', 'S', 'b.jpg'], full));
    });
    // Ready means what was there is listed, not "listed a settling period later".
    expect(lib.isReady).toBe(true);
    expect(names(lib.photosOf('Con'))).toEqual(['a.jpg', 'b.jpg']);
    expect(lib.intake().pending).toBe(0);
    // ...and only once settled: each file's last write is settleMs old (its own mtime, not a
    // clock read before the write, which the file system may stamp a tick earlier).
    const lastWrite = Math.max(...(await Promise.all(written.map(async (f) => (await stat(f)).mtimeMs))));
    expect(Date.now() - lastWrite).toBeGreaterThanOrEqual(300);
  });

  test('a file that stays cut off is reported once, never listed; replacing it lists it', async (t) => {
    const { lib, root, log } = await open(t, { settleMs: 200 });
    const full = await makeImage({ width: 64, height: 48 });
    const target = await writePhoto(root, ['Con', 'D', 'S', 'cut.jpg'], full.subarray(0, full.length - 40));
    await writePhoto(root, ['Con', 'D', 'S', 'fine.jpg'], full);
    const old = new Date(Date.now() - 60_000);
    await utimes(target, old, old);
    await utimes(path.join(root, 'Con', 'D', 'S', 'fine.jpg'), old, old);
    await lib.rescan();
    await new Promise((r) => setTimeout(r, 250));
    await lib.rescan();
    await lib.rescan();
    expect(names(lib.photosOf('Con'))).toEqual(['fine.jpg']);
    const { broken } = lib.intake();
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ event: 'Con', path: 'D/S/cut.jpg', size: full.length - 40 });
    expect(broken[0]?.reason).toMatch(/end-of-image/);
    const lines = log.entries.filter((e) => e.msg === 'skipping an image that cannot be read');
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0]?.obj)).not.toMatch(/\n\s+at /); // no stack trace
    await writeFile(target, full);
    await utimes(target, old, old);
    await lib.rescan();
    await new Promise((r) => setTimeout(r, 250));
    await lib.rescan();
    expect(names(lib.photosOf('Con'))).toEqual(['cut.jpg', 'fine.jpg']);
    expect(lib.intake().broken).toEqual([]);
  });
});

describe('photos the image library cannot decode', () => {
  test('an iPhone HEIC (HEVC-coded) is never listed, and the intake panel says why in words', async (t) => {
    const { lib, root } = await open(t);
    const heic = await readFile(path.resolve('test/fixtures/images/hevc.heic'));
    await writePhoto(root, ['Con', 'D', 'S', 'fine.jpg'], await makeImage({ width: 64, height: 48 }));
    await writePhoto(root, ['Con', 'D', 'S', 'IMG_0001.heic'], heic);
    await lib.rescan(); // resolves once the new photos are inspected
    expect(names(lib.photosOf('Con'))).toEqual(['fine.jpg']);
    const { broken } = lib.intake();
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ event: 'Con', path: 'D/S/IMG_0001.heic', size: heic.length });
    // One line a photographer can act on: not libvips' "bad seek" lines, not the server's paths.
    expect(broken[0]?.reason).toMatch(/HEVC.*export it as JPEG/);
    expect(broken[0]?.reason).not.toMatch(/bad seek|\n/);
    expect(broken[0]?.reason).not.toContain(root);
  });
});

describe('photo codes', () => {
  const frame = (code: string, takenAt: string, seed: number) =>
    makeFrame({
      payload: photoCodeUrl('http://photos.test', code),
      width: 1200,
      height: 800,
      qrFraction: 0.4,
      rotate: 8,
      takenAt,
      seed,
    });
  const photo = (takenAt: string, seed: number) =>
    makeFrame({ payload: '', width: 600, height: 400, qrFraction: 0, takenAt, seed });

  test('code frames are never listed; each groups the following frames up to the next code or a long pause', async (t) => {
    const { lib, root } = await open(t);
    const seen: string[][] = [];
    lib.onChange(() => seen.push(names(lib.photosOf('Con'))));
    const files: [string, Buffer][] = [
      ['0001.jpg', await frame('AAAA2222', at('10:00:00'), 1)],
      ['0002.jpg', await photo(at('10:00:05'), 2)],
      ['0003.jpg', await photo(at('10:01:00'), 3)],
      ['0004.jpg', await frame('BBBB3333', at('10:02:00'), 4)],
      ['0005.jpg', await photo(at('10:03:00'), 5)],
      ['0006.jpg', await photo(at('10:20:00'), 6)], // 17 minutes later: nobody's
    ];
    for (const [name, data] of files) await writePhoto(root, ['Con', 'Sat', 'Hall', name], data);
    await lib.rescan(); // resolves once the new photos are inspected and published
    expect(names(lib.photosOf('Con'))).toEqual(['0002.jpg', '0003.jpg', '0005.jpg', '0006.jpg']);
    expect(names(lib.photosForCode('AAAA2222'))).toEqual(['0002.jpg', '0003.jpg']);
    expect(names(lib.photosForCode('BBBB3333'))).toEqual(['0005.jpg']);
    expect(lib.photosForCode('CCCC4444')).toBeUndefined();
    // Never listed, not even for a moment while being inspected.
    for (const list of seen) expect(list).not.toContain('0001.jpg');
    for (const list of seen) expect(list).not.toContain('0004.jpg');
    expect(lib.findPhoto('Con', '1')?.fileName).toBe('0002.jpg');
    expect(lib.getEvent('Con')?.photoCount).toBe(4);
  });

  test('numbers follow the shooting order whichever inspection finishes first', async (t) => {
    const { lib, root } = await open(t, {}, false);
    // An inspector whose answers the test releases, one file at a time.
    const release = new Map<string, () => void>();
    lib.setInspector(async ({ file }) => {
      await new Promise<void>((resolve) => release.set(path.basename(file), resolve));
      return { code: null };
    });
    await writePhoto(root, ['Con', 'Sat', 'Hall', '0001.jpg'], await photo(at('10:00:00'), 1));
    await writePhoto(root, ['Con', 'Sat', 'Hall', '0002.jpg'], await photo(at('10:00:05'), 2));
    const scanned = lib.rescan();
    await expect.poll(() => release.size).toBe(2);
    // The later photo's inspection finishes first and is committed on its own...
    const committed = new Promise<void>((resolve) => {
      const off = lib.onChange(() => {
        off();
        resolve();
      });
    });
    release.get('0002.jpg')?.();
    await committed;
    // ...but waits for its number until the earlier one has its own.
    expect(names(lib.photosOf('Con'))).toEqual([]);
    release.get('0001.jpg')?.();
    await scanned;
    expect(lib.findPhoto('Con', '1')?.fileName).toBe('0001.jpg');
    expect(lib.findPhoto('Con', '2')?.fileName).toBe('0002.jpg');
  });

  test('codes survive a restart (stored in the index), and frames found at start-up are hidden once inspected', async (t) => {
    const { lib, root } = await open(t, {}, false);
    await writePhoto(root, ['Con', 'D', 'S', 'a.jpg'], await frame('DDDD5555', at('09:00:00'), 7));
    await writePhoto(root, ['Con', 'D', 'S', 'b.jpg'], await photo(at('09:00:30'), 8));
    await lib.rescan();
    // Without an inspector nothing is known to be a code frame.
    expect(names(lib.photosOf('Con'))).toEqual(['a.jpg', 'b.jpg']);
    await lib.close();

    const dataDir = path.dirname(root);
    const log = recordingLogger();
    const images = createImageService({
      originalPath: (p) => again.originalPath(p),
      cacheDir: path.join(dataDir, 'cache'),
      thumbnailSize: 200,
      previewSize: 400,
      watermarkText: 'PROOF',
      memoryBytes: 0,
      log,
    });
    const inspector = createInspector({ images, thumbnailSize: 200 });
    const catalogue = await sqliteCatalogue(t, dataDir);
    const again = createPhotoLibrary({ photosDir: root, dataDir, catalogue, log, rescanIntervalMs: 0, watch: false });
    t.onTestFinished(async () => {
      await inspector.close();
      await again.close();
    });
    again.setInspector(inspector.inspect);
    await again.start();
    await again.rescan();
    expect(names(again.photosOf('Con'))).toEqual(['b.jpg']);
    expect(names(again.photosForCode('DDDD5555'))).toEqual(['b.jpg']);
    await again.close();

    // A third start knows the code from the stored index, with no inspector at all.
    const third = createPhotoLibrary({ photosDir: root, dataDir, catalogue, log, rescanIntervalMs: 0, watch: false });
    t.onTestFinished(() => third.close());
    await third.start();
    expect(names(third.photosOf('Con'))).toEqual(['b.jpg']);
    expect(names(third.photosForCode('DDDD5555'))).toEqual(['b.jpg']);
  });
});
