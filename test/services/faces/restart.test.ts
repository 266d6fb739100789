/**
 * The face indexer (src/services/faces/indexer.ts) closed and started again in the same process,
 * as a service restarted in place is: a second app on the same DATA_DIR carries on with what the
 * first left and indexes the photos added since. And switching face search on starts indexing
 * at once, whether or not the app was made ready (a tool, or a bench, that changes the setting on
 * an app it never started: the cause of a second app that once sat idle).
 */
import { expect, test } from 'vitest';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { FACE_FRAMES } from '../../support/face-frames.js';
import { waitFor, writePhoto } from '../../support/photos-fixtures.js';

const EVENT = 'FaceCon';
/** Indexing takes a second or two of a core per frame; the machine may be shared and slow. */
const INDEXED_WITHIN_MS = 300_000;

async function addFrames(app: TestApp, indexes: number[]): Promise<void> {
  for (const i of indexes) {
    const frame = FACE_FRAMES[i];
    if (!frame) throw new Error(`no frame ${i}`);
    await writePhoto(app.config.photosDir, [EVENT, 'Day 1', 'Main', frame.file], await frame.build());
  }
  await app.photos.rescan();
  await waitFor(() => app.photos.intake().inspecting === 0 && app.photos.intake().pending === 0, 120_000, 'intake');
}

const progress = async (app: TestApp) => (await app.faces.status()).events.find((e) => e.eventSlug === EVENT);

async function indexedAll(app: TestApp, total: number): Promise<void> {
  await waitFor(
    async () => {
      const ev = await progress(app);
      return ev !== undefined && ev.total === total && ev.indexed === total;
    },
    INDEXED_WITHIN_MS,
    `${total} photos indexed`,
  );
}

/** Every listed photo has its row, each with faces (frames 0-2 all show some). */
async function expectRowsForEveryPhoto(app: TestApp): Promise<void> {
  const rows = await app.store.faces.list(EVENT);
  const listed = app.photos.photosOf(EVENT) ?? [];
  expect(rows.map((r) => `${r.photoId}@${r.version}`).sort()).toEqual(listed.map((p) => `${p.id}@${p.version}`).sort());
  expect(rows.every((r) => r.faces > 0)).toBe(true);
}

test('an app closed while indexing, then another on the same DATA_DIR: the second indexes the rest and a photo added since', {
  timeout: INDEXED_WITHIN_MS * 2,
}, async (t) => {
  const first = await build(t, { env: { FACE_SEARCH: 'on', FACE_THREADS: '1' } });
  // Two frames are enough to leave one behind (each costs a second or two of a core to index):
  // with one thread they are indexed in turn, and the first app closes once one is done.
  await addFrames(first, [0, 1]);
  const on = await first.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: adminHeaders,
    payload: { eventSlug: EVENT, faceSearch: true },
  });
  expect(on.statusCode).toBe(200);
  // Closed as soon as one photo is done: one thread, so the others are queued or under way.
  await waitFor(async () => ((await progress(first))?.indexed ?? 0) >= 1, INDEXED_WITHIN_MS, 'a first photo indexed');
  await first.close();
  const second = await build(t, { env: { FACE_SEARCH: 'on', FACE_THREADS: '1' }, dataDir: first.dataDir });
  await second.photos.ready();
  await addFrames(second, [2]);
  expect(second.photos.photosOf(EVENT)).toHaveLength(3);
  await indexedAll(second, 3);
  await expectRowsForEveryPhoto(second);
});

test('switching face search on starts indexing at once, even on an app never made ready (no timer running)', {
  timeout: INDEXED_WITHIN_MS * 2,
}, async (t) => {
  const app = await build(t, { env: { FACE_SEARCH: 'on', FACE_THREADS: '1' }, noReady: true });
  await app.photos.ready();
  await addFrames(app, [0]);
  expect(await progress(app)).toBeUndefined();
  await app.events.update(EVENT, { faceSearch: true });
  await indexedAll(app, 1);
  await expectRowsForEveryPhoto(app);
});
