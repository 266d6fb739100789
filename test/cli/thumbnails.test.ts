import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { formatSummary, pregenerate, UsageError } from '../../src/cli/thumbnails.js';
import { imageCacheDir } from '../../src/services/images/plugin.js';
import { build, tempDir, testConfig } from '../helpers/build.js';
import { writeFixture } from '../support/images-fixtures.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

const silent = pino({ level: 'silent' });

/** Two events: AAA with three photos (one broken), BBB with one. */
async function library(t: TestContext) {
  const dir = await tempDir(t, 'images-cli-');
  const photos = path.join(dir, 'photos');
  await writeFixture(path.join(photos, 'AAA', 'Day 1', 'Morning', '1.jpg'), { width: 800, height: 600 });
  await writeFixture(path.join(photos, 'AAA', 'Day 1', 'Morning', '2.jpg'), { width: 600, height: 800, seed: 1 });
  await writeFixture(path.join(photos, 'AAA', 'Day 2', 'Evening', '3.png'), { width: 500, height: 500, format: 'png' });
  await writeFixture(path.join(photos, 'BBB', 'Day 1', 'Noon', '1.jpg'), { width: 700, height: 500, seed: 3 });
  return dir;
}

const cachedFiles = async (dataDir: string) =>
  (await readdir(imageCacheDir(dataDir), { recursive: true })).filter((f) => /\.(jpg|webp)$/.test(f)).length;

describe('pregenerate', () => {
  test('renders every thumbnail (JPEG and WebP), the 240 and 360 px tiles (WebP) and preview once, then skips them', async (t) => {
    const dir = await library(t);
    const config = testConfig(dir, { PREVIEW_SIZE: '400' });
    const progress: number[] = [];
    const first = await pregenerate({ config, log: silent, onProgress: (p) => progress.push(p.done) });
    expect(first).toMatchObject({ events: 2, photos: 4, done: 20, skipped: 0, failed: 0 });
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await cachedFiles(dir)).toBe(20);
    expect(formatSummary(first)).toMatch(
      /^4 photos in 2 events: done 20, skipped 0 \(already cached\), failed 0, time \d+\.\d s\n$/,
    );

    const second = await pregenerate({ config, log: silent });
    expect(second).toMatchObject({ done: 0, skipped: 20, failed: 0 });

    // The server reads what the job wrote: no render (and nothing for its intake to do).
    const app = await build(t, { dataDir: dir, env: { PREVIEW_SIZE: '400', INTAKE_INSPECT: 'off' } });
    const photo = app.photos.photosOf('AAA')?.[0];
    const res = await app.inject({ url: `/api/preview/AAA/${photo?.id}` });
    expect(res.statusCode).toBe(200);
    const thumb = await app.inject({ url: `/api/proxy-image/AAA/${photo?.id}`, headers: { accept: 'image/webp' } });
    expect(thumb.headers['content-type']).toBe('image/webp');
    const tile = await app.inject({
      url: `/api/proxy-image/AAA/${photo?.id}?tile=360`,
      headers: { accept: 'image/webp' },
    });
    expect(tile.headers['content-type']).toBe('image/webp');
    expect(app.images.stats()).toMatchObject({ renders: 0, diskHits: 3 });
  });

  test('one event, one kind; an unknown event is a usage error', async (t) => {
    const dir = await library(t);
    const config = testConfig(dir);
    const summary = await pregenerate({ config, log: silent, event: 'BBB', kinds: ['thumbnail'], concurrency: 1 });
    expect(summary).toMatchObject({ events: 1, photos: 1, done: 2, skipped: 0, failed: 0 });
    await expect(pregenerate({ config, log: silent, event: 'NOPE' })).rejects.toBeInstanceOf(UsageError);
  });

  test('images that fail are counted and reported', async (t) => {
    const dir = await library(t);
    // An unwritable cache: every image fails, and the summary says which and why.
    await writeFile(path.join(dir, 'cache'), 'not a folder');
    const summary = await pregenerate({ config: testConfig(dir), log: silent, event: 'BBB' });
    expect(summary).toMatchObject({ done: 0, failed: 5 });
    expect(formatSummary(summary)).toContain('failed: BBB #');
  });
});

describe('npm run thumbnails', () => {
  test('runs as a command: progress on stderr, a summary on stdout', async (t) => {
    const dir = await library(t);
    const env = {
      PATH: process.env.PATH,
      DATA_DIR: dir,
      PHOTOS_DIR: path.join(dir, 'photos'),
      DEMO_LIBRARY: 'off',
      LOG_LEVEL: 'silent',
      PREVIEW_SIZE: '300',
      NODE_ENV: 'test',
    };
    const tsx = require.resolve('tsx');
    const script = path.resolve('src/cli/thumbnails.ts');
    const { stdout } = await run(process.execPath, ['--import', tsx, script, '--event', 'AAA'], { env });
    expect(stdout).toMatch(/3 photos in 1 event: done 15, skipped 0 \(already cached\), failed 0, time \d+\.\d s/);
    expect(await cachedFiles(dir)).toBe(15);
  });
});
