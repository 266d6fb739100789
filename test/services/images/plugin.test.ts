import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { imageCacheDir } from '../../../src/services/images/plugin.js';
import type { Photo } from '../../../src/services/photos/types.js';
import { build, tempDir } from '../../helpers/build.js';
import { writeFixture } from '../../support/images-fixtures.js';
import { waitUntil } from '../../support/wait.js';

const EVENT = 'SWEEP24';

/** Every .jpg in the cache, with its path. */
async function cachedRenders(cacheDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of await readdir(cacheDir).catch(() => [] as string[])) {
    for (const shard of await readdir(path.join(cacheDir, kind))) {
      for (const name of await readdir(path.join(cacheDir, kind, shard))) {
        if (name.endsWith('.jpg')) out.push(path.join(cacheDir, kind, shard, name));
      }
    }
  }
  return out.sort();
}

/**
 * A DATA_DIR whose cache holds the thumbnail of the library's one photo (rendered by a first
 * app, served over HTTP) and a render nobody has any more, both written an hour ago.
 */
async function cacheWithAnOrphan(t: TestContext) {
  const dataDir = await tempDir(t, 'images-sweep-');
  await writeFixture(path.join(dataDir, 'photos', EVENT, 'Day 1', 'Main', 'a.jpg'), { width: 900, height: 600 });
  const env = { IMAGE_CACHE_SWEEP_INTERVAL_MS: '0' };
  const first = await build(t, { dataDir, env });
  const photo = (first.photos.photosOf(EVENT) as readonly Photo[])[0] as Photo;
  expect((await first.inject({ url: `/api/proxy-image/${EVENT}/${photo.id}` })).statusCode).toBe(200);
  await first.close();

  const cacheDir = imageCacheDir(dataDir);
  const [live] = await cachedRenders(cacheDir);
  expect(live).toBeDefined();
  const orphan = path.join(cacheDir, 'preview', 'ff', `ff${'0'.repeat(38)}.jpg`);
  await mkdir(path.dirname(orphan), { recursive: true });
  await writeFile(orphan, 'a render of a photo that was deleted');
  const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
  for (const f of [live as string, orphan]) await utimes(f, anHourAgo, anHourAgo);
  return { dataDir, cacheDir, photo, live: live as string, orphan };
}

describe('the image cache sweep, as the app runs it', () => {
  test('at start-up, removes renders no photo has and keeps the ones the library still serves', async (t) => {
    const { dataDir, cacheDir, photo, live, orphan } = await cacheWithAnOrphan(t);
    const app = await build(t, { dataDir });
    // However long the start-up sweep takes on this machine (the test's timeout bounds it).
    const swept = () =>
      cachedRenders(cacheDir).then(
        (left) => left.join() === live,
        () => false, // a folder the sweep removed while it was listed
      );
    await waitUntil(swept, 'the start-up sweep');
    expect(await cachedRenders(cacheDir)).toEqual([live]);
    expect(orphan).not.toBe(live);

    const res = await app.inject({ url: `/api/proxy-image/${EVENT}/${photo.id}` });
    expect(res.statusCode).toBe(200);
    // Served from the render the sweep kept: read from disk, not made again.
    expect(app.images.stats()).toMatchObject({ renders: 0, diskHits: 1 });
  });

  test('IMAGE_CACHE_SWEEP_INTERVAL_MS=0 turns it off', async (t) => {
    const { dataDir, cacheDir, live, orphan } = await cacheWithAnOrphan(t);
    const app = await build(t, { dataDir, env: { IMAGE_CACHE_SWEEP_INTERVAL_MS: '0' } });
    // A sweep starts the moment the index is ready (before this await returns), and closing
    // waits for a sweep in progress: after both, a sweep that ran has finished.
    await app.photos.ready();
    await app.close();
    expect(await cachedRenders(cacheDir)).toEqual([live, orphan].sort());
  });

  test('IMAGE_DISK_CACHE_MB must be a whole number of MB', async (t) => {
    await expect(build(t, { env: { IMAGE_DISK_CACHE_MB: '1.5' } })).rejects.toThrow(/IMAGE_DISK_CACHE_MB/);
  });
});
