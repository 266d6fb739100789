import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { pruneDiskCache } from '../../../src/services/images/prune.js';
import { createImageService } from '../../../src/services/images/service.js';
import type { Photo } from '../../../src/services/photos/types.js';
import { tempDir } from '../../helpers/build.js';
import { fixturePhoto, recordingLogger, writeFixture } from '../../support/images-fixtures.js';

const HOUR = 60 * 60 * 1000;

/** A service over a temp folder whose originals are real JPEGs, rendered for real. */
async function setup(t: TestContext) {
  const dir = await tempDir(t, 'images-prune-');
  const cacheDir = path.join(dir, 'cache', 'images');
  const originals = new Map<string, string>();
  const service = createImageService({
    originalPath: (p) => originals.get(p.id) ?? path.join(dir, 'missing.jpg'),
    cacheDir,
    thumbnailSize: 200,
    previewSize: 500,
    watermarkText: 'PROOF',
    memoryBytes: 0, // every get goes to the disk cache, so what the sweep removed shows
    log: recordingLogger(),
  });
  t.onTestFinished(() => service.close());
  let seed = 0;
  async function photo(id: string, version = 'v1'): Promise<Photo> {
    const file = await writeFixture(path.join(dir, 'photos', `${id}-${version}.jpg`), {
      width: 800,
      height: 600,
      seed: seed++,
    });
    originals.set(id, file);
    return fixturePhoto({ id, version, width: 800, height: 600 });
  }
  async function renderBoth(p: Photo) {
    expect(await service.ensure('thumbnail', p)).toBe('rendered');
    expect(await service.ensure('preview', p)).toBe('rendered');
  }
  /** Every file in the cache, as `<kind>/<name>`, sorted. */
  async function files(): Promise<string[]> {
    const out: string[] = [];
    for (const kind of await readdir(cacheDir).catch(() => [] as string[])) {
      for (const shard of await readdir(path.join(cacheDir, kind))) {
        for (const name of await readdir(path.join(cacheDir, kind, shard))) out.push(`${kind}/${name}`);
      }
    }
    return out.sort();
  }
  /** Sets the modification time of every cached render of `kind` matching `filter`. */
  async function age(ms: number, filter: (rel: string) => boolean = () => true) {
    const when = new Date(Date.now() - ms);
    for (const rel of await files()) {
      if (!filter(rel)) continue;
      const [kind, name] = rel.split('/') as [string, string];
      await utimes(path.join(cacheDir, kind, name.slice(0, 2), name), when, when);
    }
  }
  return { dir, cacheDir, service, photo, renderBoth, files, age };
}

describe('the image disk cache sweep', () => {
  test('removes the renders of a replaced original and of a removed photo, and keeps the rest', async (t) => {
    const { service, photo, renderBoth, files, age } = await setup(t);
    const kept = await photo('kept');
    const old = await photo('swapped', 'v1');
    const gone = await photo('gone');
    for (const p of [kept, old, gone]) await renderBoth(p);
    const replaced = await photo('swapped', 'v2'); // the file was replaced: a new version
    await renderBoth(replaced);
    const before = await files();
    expect(before).toHaveLength(8);
    await age(HOUR);

    // The library now holds `kept` and the new `swapped`; `gone` was deleted from it.
    const r = await service.prune([kept, replaced], { graceMs: 10 * 60 * 1000, maxBytes: 0 });
    expect(r).toMatchObject({ files: 8, orphansRemoved: 4, tempsRemoved: 0, evicted: 0 });
    expect(r.removedBytes).toBeGreaterThan(0);
    const after = await files();
    expect(after).toHaveLength(4);
    expect(before).toEqual(expect.arrayContaining(after));

    // What stays is what the library's photos are served from: read back from disk, not rendered.
    const rendersBefore = service.stats().renders;
    for (const p of [kept, replaced]) {
      await service.get('thumbnail', p);
      await service.get('preview', p);
    }
    expect(service.stats().renders).toBe(rendersBefore);
    expect(service.stats().diskHits).toBe(4);
    // And a removed render is made again when it is asked for after all.
    expect(await service.ensure('thumbnail', old)).toBe('rendered');
  });

  test('an empty cache costs no hashing: the library is not even walked', async (t) => {
    const { service, photo } = await setup(t);
    const p = await photo('p');
    let walked = 0;
    const library = {
      *[Symbol.iterator]() {
        walked++;
        yield p;
      },
    };
    expect(await service.prune(library, { graceMs: 0, maxBytes: 0 })).toMatchObject({ files: 0, keptBytes: 0 });
    expect(walked).toBe(0);
    // Once there is a render to judge, it is (once per sweep, not per file).
    expect(await service.ensure('thumbnail', p)).toBe('rendered');
    expect(await service.ensure('preview', p)).toBe('rendered');
    expect(await service.prune(library, { graceMs: 0, maxBytes: 0 })).toMatchObject({ files: 2, orphansRemoved: 0 });
    expect(walked).toBe(1);
  });

  test('keeps an orphan younger than the grace time (another process may have just written it)', async (t) => {
    const { service, photo, renderBoth, files } = await setup(t);
    const p = await photo('fresh');
    await renderBoth(p);
    const young = await service.prune([], { graceMs: 10 * 60 * 1000, maxBytes: 0 });
    expect(young).toMatchObject({ files: 2, orphansRemoved: 0 });
    expect(await files()).toHaveLength(2);
    // Eleven minutes on, they are orphans like any other.
    const later = Date.now() + 11 * 60 * 1000;
    const r = await pruneDiskCache({
      dir: service.cacheDir,
      isLive: () => false,
      graceMs: 10 * 60 * 1000,
      maxBytes: 0,
      now: later,
    });
    expect(r.orphansRemoved).toBe(2);
    expect(await files()).toEqual([]);
  });

  test('removes temp files left by a crash, not ones being written, and nothing that is not its own', async (t) => {
    const { service, cacheDir, photo, renderBoth, files } = await setup(t);
    const p = await photo('p');
    await renderBoth(p);
    const shard = path.join(cacheDir, 'thumbnail', 'ab');
    await mkdir(shard, { recursive: true });
    const stale = path.join(shard, 'ab12.jpg.123.deadbeef.tmp');
    const writing = path.join(shard, 'ab34.jpg.123.cafebabe.tmp');
    const foreign = path.join(shard, 'notes.txt');
    for (const f of [stale, writing, foreign]) await writeFile(f, 'x'.repeat(100));
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await utimes(foreign, twoHoursAgo, twoHoursAgo);

    const r = await service.prune([p], { graceMs: 0, maxBytes: 0 });
    expect(r).toMatchObject({ files: 2, orphansRemoved: 0, tempsRemoved: 1, evicted: 0, removedBytes: 100 });
    const left = await files();
    expect(left).toContain('thumbnail/ab34.jpg.123.cafebabe.tmp');
    expect(left).toContain('thumbnail/notes.txt');
    expect(left).not.toContain('thumbnail/ab12.jpg.123.deadbeef.tmp');
    expect(left.filter((f) => f.endsWith('.jpg'))).toHaveLength(2);
  });

  test('over the size limit, removes the oldest previews first, then the oldest thumbnails', async (t) => {
    const { service, photo, renderBoth, files, age, cacheDir } = await setup(t);
    const photos: Photo[] = [];
    for (const id of ['p1', 'p2', 'p3']) {
      const p = await photo(id);
      await renderBoth(p);
      photos.push(p);
    }
    const sizes = new Map<string, number>();
    for (const rel of await files()) {
      const [kind, name] = rel.split('/') as [string, string];
      sizes.set(rel, (await stat(path.join(cacheDir, kind, name.slice(0, 2), name))).size);
    }
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const previews = (await files()).filter((f) => f.startsWith('preview/'));
    const thumbs = (await files()).filter((f) => f.startsWith('thumbnail/'));
    expect(previews).toHaveLength(3);
    // Write times, oldest first: the previews in this order, all older than any thumbnail.
    const order = previews.slice();
    for (const [i, rel] of order.entries()) await age(HOUR * (10 - i), (f) => f === rel);
    const oldest = order[0] as string;
    const second = order[1] as string;

    // Room for everything but about one and a half previews: the two oldest previews go.
    const limit = total - (sizes.get(oldest) as number) - Math.ceil((sizes.get(second) as number) / 2);
    const r = await service.prune(photos, { graceMs: 0, maxBytes: limit });
    expect(r.evicted).toBe(2);
    expect(r.keptBytes).toBeLessThanOrEqual(limit);
    const left = await files();
    expect(left).not.toContain(oldest);
    expect(left).not.toContain(second);
    expect(left).toContain(order[2]);
    for (const th of thumbs) expect(left).toContain(th);

    // A limit below what the thumbnails alone take: every preview goes before any thumbnail.
    const tight = await service.prune(photos, { graceMs: 0, maxBytes: 1 });
    expect(tight.evicted).toBe(4);
    expect(await files()).toEqual([]);
  });
});
