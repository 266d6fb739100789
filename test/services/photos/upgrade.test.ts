/**
 * The upgrade to the photo catalogue (docs/contract.md, "The photo catalogue"): the first
 * start on a DATA_DIR holding the earlier design's `photo-index/` (test/fixtures/photo-index-v2,
 * written by that code) takes its numbers into the record unchanged, on either engine; the
 * files are renamed and never read again; the scan facts come along (no header read again).
 */
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { indexDir } from '../../../src/services/photos/legacy-index.js';
import { createPhotoLibrary, type ManagedPhotoLibrary } from '../../../src/services/photos/library.js';
import { photoId } from '../../../src/services/photos/naming.js';
import type { PhotoCataloguePort } from '../../../src/services/store/ports/photo-catalogue.js';
import { openStore } from '../../../src/services/store/store.js';
import { ADMIN_TOKEN, build, tempDir } from '../../helpers/build.js';
import { copyLegacyDataDir, LEGACY_MTIME, LEGACY_NUMBERS } from '../../support/legacy-photo-index.js';
import { makeImage, recordingLogger, sqliteCatalogue, writePhoto } from '../../support/photos-fixtures.js';
import { usePostgresServer } from '../../support/postgres-server.js';
import { newOrder } from '../../support/store-fixtures.js';

const numbered = (lib: ManagedPhotoLibrary, event: string) =>
  (lib.photosOf(event) ?? []).map((p) => `${p.day}/${p.session}/${p.fileName}#${p.number}`);

async function open(t: TestContext, photosDir: string, dataDir: string, catalogue: PhotoCataloguePort) {
  const log = recordingLogger();
  const lib = createPhotoLibrary({ photosDir, dataDir, catalogue, log, rescanIntervalMs: 0, watch: false });
  t.onTestFinished(() => lib.close());
  await lib.start();
  return Object.assign(lib, { log });
}

const pg = usePostgresServer();

const ENGINES = {
  sqlite: (t: TestContext, dataDir: string) => sqliteCatalogue(t, dataDir),
  postgres: async (t: TestContext) => {
    const store = await openStore({ engine: 'postgres', connectionString: await pg().freshDatabase(t) });
    t.onTestFinished(() => store.close());
    return store.photoCatalogue;
  },
};

describe.each(Object.keys(ENGINES) as (keyof typeof ENGINES)[])('upgrade from DATA_DIR/photo-index/ (%s)', (engine) => {
  test('numbers, retired numbers, code frames and scan facts are taken in unchanged; the files are set aside', async (t) => {
    const base = await tempDir(t);
    const photosDir = path.join(base, 'photos');
    const dataDir = path.join(base, 'data');
    await copyLegacyDataDir(photosDir, dataDir);
    // early.jpg turns to garbage of the same size and time: a start that trusts the imported
    // facts keeps its dimensions; one that read it again would drop it as unreadable.
    const early = path.join(photosDir, 'Con 2025', 'Day 1', 'Stage A', 'early.jpg');
    await writeFile(early, Buffer.alloc((await stat(early)).size, 0x41));
    await utimes(early, LEGACY_MTIME, LEGACY_MTIME);
    const catalogue = await ENGINES[engine](t, dataDir);

    const lib = await open(t, photosDir, dataDir, catalogue);
    expect(numbered(lib, 'Con 2025')).toEqual(LEGACY_NUMBERS['Con 2025']);
    expect(numbered(lib, 'Other')).toEqual(LEGACY_NUMBERS.Other);
    expect(lib.findPhoto('Con 2025', '6')).toMatchObject({ fileName: 'early.jpg', width: 48, height: 32 });
    expect(lib.findPhoto('Con 2025', '6')?.id).toBe(photoId('Con 2025', 'Day 1/Stage A/early.jpg'));
    // The code frame stays unlisted and still opens its group (b.jpg follows it).
    expect(lib.photosForCode('K7M2Q9TX')?.map((p) => p.fileName)).toEqual(['b.jpg']);
    expect(lib.log.entries.some((e) => e.msg?.includes('cannot be read'))).toBe(false);
    expect(lib.log.entries.filter((e) => e.msg?.includes('taken into the photo catalogue'))).toHaveLength(2);
    expect((await readdir(indexDir(dataDir))).sort()).toEqual([
      'Con-2025-67844e7e1e80.json.imported',
      'Other-f97e9da0e3b8.json.imported',
    ]);

    // Numbering goes on after the highest number; the removed file's number stays retired and
    // is its own again when it comes back.
    await writePhoto(photosDir, ['Con 2025', 'Day 2', 'Hall', 'new.jpg'], await makeImage());
    await writePhoto(photosDir, ['Con 2025', 'Day 1', 'Stage A', 'c.jpg'], await makeImage());
    await lib.rescan();
    expect(lib.findPhoto('Con 2025', '8')?.fileName).toBe('new.jpg');
    expect(lib.findPhoto('Con 2025', '3')?.fileName).toBe('c.jpg');
    await lib.close();

    // A restart finds nothing to take in; the numbers are the record's.
    const before = (await catalogue.changesSince(0)).seq;
    const again = await open(t, photosDir, dataDir, catalogue);
    expect(numbered(again, 'Con 2025')).toEqual([
      'Day 1/Stage A/early.jpg#6',
      'Day 1/Stage A/a.jpg#1',
      'Day 1/Stage A/b.jpg#2',
      'Day 1/Stage A/c.jpg#3',
      'Day 1/Stage B/x.jpg#4',
      'Day 1/Stage B/y.jpg#5',
      'Day 2/Hall/z.jpg#7',
      'Day 2/Hall/new.jpg#8',
    ]);
    expect(again.log.entries.some((e) => e.msg?.includes('taken into the photo catalogue'))).toBe(false);
    expect((await catalogue.changesSince(before)).rows).toEqual([]);
  });
});

test('two servers upgrading onto one PostgreSQL database: the first index taken in stands, the other is told', async (t) => {
  const url = await pg().freshDatabase(t);
  const base = await tempDir(t);
  const photosDir = path.join(base, 'photos');
  const first = path.join(base, 'data-1');
  const second = path.join(base, 'data-2');
  await copyLegacyDataDir(photosDir, first);
  // The second server had numbered the same files in another order (the bug this design ends).
  await copyLegacyDataDir(path.join(base, 'photos-2'), second);
  const [file] = await readdir(indexDir(second));
  const swapped = path.join(indexDir(second), file as string);
  const text = await readFile(swapped, 'utf8');
  await writeFile(
    swapped,
    text.replace('"a.jpg",498,1783080000000,48,32,1783072800000,1', '"a.jpg",498,1783080000000,48,32,1783072800000,9'),
  );
  const stores = await Promise.all(
    [1, 2].map(async () => {
      const store = await openStore({ engine: 'postgres', connectionString: url });
      t.onTestFinished(() => store.close());
      return store.photoCatalogue;
    }),
  );
  const a = await open(t, photosDir, first, stores[0] as PhotoCataloguePort);
  const b = await open(t, photosDir, second, stores[1] as PhotoCataloguePort);
  expect(numbered(a, 'Con 2025')).toEqual(LEGACY_NUMBERS['Con 2025']);
  expect(numbered(b, 'Con 2025')).toEqual(LEGACY_NUMBERS['Con 2025']);
  const told = b.log.entries.find((e) => e.level === 'warn' && e.msg?.includes('numbered some photos otherwise'));
  expect(told?.obj).toMatchObject({
    event: 'Con 2025',
    first: [{ path: 'Day 1/Stage A/a.jpg', number: 9, recorded: 1 }],
  });
  expect(a.log.entries.some((e) => e.level === 'warn')).toBe(false);
});

test('the app after the upgrade: an order placed before it names the same photo', async (t) => {
  const dataDir = await tempDir(t);
  await copyLegacyDataDir(path.join(dataDir, 'photos'), dataDir);
  // An order of the earlier version, for photo #6 (early.jpg, numbered out of display order).
  const before = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  const order = await before.orders.create(
    newOrder({
      eventSlug: 'Con 2025',
      prefix: 'CON2025',
      items: [{ photoNumber: '6', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 }],
    }),
    { by: 'customer' },
  );
  await before.close();

  const app = await build(t, { dataDir });
  await app.photos.ready();
  const res = await app.inject({ url: `/api/orders/${order.id}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.json().lines[0].photo).toMatchObject({ number: '6', file: 'Con 2025/Day 1/Stage A/early.jpg' });
});
