/**
 * Several photo libraries on one photo catalogue and one photo folder, as several server
 * processes run them (docs/contract.md, "The photo catalogue"), on both engines: each has its
 * own store connection and its own DATA_DIR. File watching is off, as on a network share whose
 * changes other machines' folder events never report: what one library found reaches the
 * others through the catalogue's change feed alone.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, type TestContext, test } from 'vitest';
import { createPhotoLibrary, type ManagedPhotoLibrary } from '../../../src/services/photos/library.js';
import type { OpenedStore } from '../../../src/services/store/store.js';
import { tempDir } from '../../helpers/build.js';
import { makeImage, recordingLogger, waitFor, writePhoto } from '../../support/photos-fixtures.js';
import { describeOnEngines, reopenStore } from '../../support/store-engines.js';

const EVENT = 'Con';
const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;
/** Waiting on the feed: generous, the machine may be busy; the figure that matters is the bench's. */
const FEED_WAIT_MS = 20_000;

type Library = ManagedPhotoLibrary & { store: OpenedStore };

async function library(t: TestContext, store: OpenedStore, photosDir: string): Promise<Library> {
  const lib = createPhotoLibrary({
    photosDir,
    dataDir: await tempDir(t),
    catalogue: store.photoCatalogue,
    syncIntervalMs: 100,
    log: recordingLogger(),
    rescanIntervalMs: 0,
    watch: false,
  });
  t.onTestFinished(() => lib.close());
  await lib.start();
  return Object.assign(lib, { store });
}

const numbered = (lib: ManagedPhotoLibrary) =>
  (lib.photosOf(EVENT) ?? []).map((p) => `${p.session}/${p.fileName}#${p.number}`);

describeOnEngines('photo libraries of several processes', (open) => {
  test('files found by one are listed by the others under the same numbers, whatever order each saw them in', async (t) => {
    const first = await open(t);
    const photosDir = path.join(await tempDir(t), 'photos');
    await mkdir(photosDir, { recursive: true });
    const a = await library(t, first, photosDir);
    const b = await library(t, await reopenStore(t, first), photosDir);

    // Arrivals out of order: y.jpg (shot last) is seen by b first, x.jpg by a.
    await writePhoto(photosDir, [EVENT, 'D', 'S', 'y.jpg'], await makeImage({ takenAt: at('10:05:00') }));
    await b.rescan();
    await writePhoto(photosDir, [EVENT, 'D', 'S', 'x.jpg'], await makeImage({ takenAt: at('10:00:00') }));
    await a.rescan();
    expect(numbered(a)).toEqual(['S/x.jpg#2', 'S/y.jpg#1']);
    // b never scanned again on its own: the feed made it look.
    await waitFor(() => numbered(b).join() === numbered(a).join(), FEED_WAIT_MS, 'b to list x.jpg');

    // Both scan many new files at once: one number per file, the same in both.
    for (let i = 0; i < 40; i++) {
      const time = at(`11:${String(i).padStart(2, '0')}:00`);
      await writePhoto(photosDir, [EVENT, 'D', i % 2 ? 'T' : 'S', `n${i}.jpg`], await makeImage({ takenAt: time }));
    }
    await Promise.all([a.rescan(), b.rescan()]);
    await waitFor(() => numbered(b).join() === numbered(a).join(), FEED_WAIT_MS, 'the same numbers');
    expect(numbered(a)).toHaveLength(42);
    expect(new Set(a.photosOf(EVENT)?.map((p) => p.number)).size).toBe(42);

    // A late process with an empty DATA_DIR lists the record's numbers.
    const late = await library(t, await reopenStore(t, first), photosDir);
    expect(numbered(late)).toEqual(numbered(a));

    // A file removed through one (b sees it gone) leaves the others too; its number is kept.
    await rm(path.join(photosDir, EVENT, 'D', 'S', 'x.jpg'));
    await b.rescan();
    await waitFor(() => a.findPhoto(EVENT, '2') === undefined, FEED_WAIT_MS, 'a to drop x.jpg');
    await writePhoto(photosDir, [EVENT, 'D', 'S', 'x.jpg'], await makeImage({ takenAt: at('10:00:00') }));
    await late.rescan();
    await waitFor(() => a.findPhoto(EVENT, '2')?.fileName === 'x.jpg', FEED_WAIT_MS, 'x.jpg back as #2');
  });

  test('a takedown, an inspection and the photographer’s metadata made through one reach the others', async (t) => {
    const first = await open(t);
    const photosDir = path.join(await tempDir(t), 'photos');
    for (const [name, time] of [
      ['a.jpg', '10:00:00'],
      ['b.jpg', '10:01:00'],
      ['qr.jpg', '10:02:00'],
      ['c.jpg', '10:03:00'],
    ] as const) {
      await writePhoto(photosDir, [EVENT, 'D', 'S', name], await makeImage({ takenAt: at(time) }));
    }
    const a = await library(t, first, photosDir);
    const b = await library(t, await reopenStore(t, first), photosDir);
    expect(numbered(b)).toEqual(numbered(a));

    // Hidden through a's store (a takedown filed there): a at once, b from the feed.
    const target = a.findPhoto(EVENT, '2');
    expect(target?.fileName).toBe('b.jpg');
    const request = await first.takedowns.create({
      eventSlug: EVENT,
      photoId: target?.id as string,
      photoNumber: '2',
      reason: 'me',
      email: 'cos@example.com',
      message: '',
      hides: true,
    });
    await a.refresh();
    expect(a.findPhoto(EVENT, '2')).toBeUndefined();
    expect(a.findHiddenPhoto(EVENT, '2')?.fileName).toBe('b.jpg');
    await waitFor(() => b.findPhoto(EVENT, '2') === undefined, FEED_WAIT_MS, 'b to hide #2');
    await first.takedowns.decide(request.id, 'restore', {
      by: 'admin:0123abcd',
      mail: (r) => ({ kind: 'takedown', orderId: null, payload: { email: r.email } }),
    });
    await waitFor(() => b.findPhoto(EVENT, '2')?.fileName === 'b.jpg', FEED_WAIT_MS, 'b to list #2 again');

    // a inspects qr.jpg and finds a photo code: b, which has no inspector, follows.
    a.setInspector(async ({ file }) => ({ code: file.endsWith('qr.jpg') ? 'K7M2Q9TX' : null }));
    await waitFor(() => a.photosForCode('K7M2Q9TX') !== undefined, FEED_WAIT_MS, 'a to inspect');
    expect(a.photosForCode('K7M2Q9TX')?.map((p) => p.fileName)).toEqual(['c.jpg']);
    await waitFor(() => b.photosForCode('K7M2Q9TX') !== undefined, FEED_WAIT_MS, 'b to learn the code frame');
    expect(b.photosOf(EVENT)?.map((p) => p.fileName)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);

    // The photographer's metadata, written by a third process: both pages carry it.
    const third = await reopenStore(t, first);
    await third.photoCatalogue.setMetadata(EVENT, 'D/S/a.jpg', { rating: 5, metadata: { caption: 'Opening' } });
    for (const lib of [a, b]) {
      await waitFor(() => lib.findPhoto(EVENT, '1')?.rating === 5, FEED_WAIT_MS, 'the rating');
      expect(lib.findPhoto(EVENT, '1')?.metadata).toEqual({ caption: 'Opening' });
    }
  });
});
