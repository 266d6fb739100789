/** The photo catalogue port's conformance suite (src/services/store/ports/photo-catalogue.ts), on both engines. */
import { expect, test } from 'vitest';
import {
  type CatalogueRow,
  catalogueRowOf,
  type FileSighting,
  type PhotoCataloguePort,
  type PhotoFacts,
  StoredCatalogueRow,
} from '../../../../src/services/store/ports/photo-catalogue.js';
import type { TakedownRecord } from '../../../../src/services/store/ports/takedowns.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const EVENT = 'Anime Expo';
const facts = (over: Partial<PhotoFacts> = {}): PhotoFacts => ({
  size: 1000,
  mtimeMs: 1_783_080_000_000.123,
  width: 48,
  height: 32,
  takenAtMs: 1_783_072_800_000,
  ...over,
});
const seen = (path: string, over: Partial<PhotoFacts> = {}): FileSighting => ({
  path,
  id: `id-${path}`,
  facts: facts(over),
});
const paths = (n: number, prefix = 'D/S/p') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}.jpg`);

/** The file as numbered and listed by a scan: seen, then numbered in `order`. */
async function list(catalogue: PhotoCataloguePort, order: string[], event = EVENT) {
  return catalogue.write(event, { seen: order.map((p) => seen(p)), number: order }, 0);
}

const numbers = (rows: readonly CatalogueRow[], event = EVENT) =>
  Object.fromEntries(rows.filter((r) => r.eventCode === event).map((r) => [r.path, r.number]));

const mail = (r: TakedownRecord) => ({ kind: 'takedown' as const, orderId: null, payload: { email: r.email } });
const by = 'admin:0123abcd' as const;

describeOnEngines('photo catalogue port', (open) => {
  test('a file seen gets a row with its facts; numbered when listed, in the order given, per event', async (t) => {
    const { photoCatalogue: c } = await open(t);
    const first = await c.write(EVENT, { seen: [seen('D/S/b.jpg'), seen('D/S/a.jpg', { takenAtMs: null })] }, 0);
    expect(first.rows).toHaveLength(2);
    expect(first.rows.find((r) => r.path === 'D/S/a.jpg')).toEqual({
      eventCode: EVENT,
      path: 'D/S/a.jpg',
      id: 'id-D/S/a.jpg',
      number: null,
      facts: facts({ takenAtMs: null }),
      inspected: false,
      photoCode: null,
      present: true,
      hidden: false,
      rating: null,
      metadata: null,
      seq: first.seq,
    });
    const listed = await c.write(EVENT, { number: ['D/S/b.jpg', 'D/S/a.jpg'] }, first.seq);
    expect(numbers(listed.rows)).toEqual({ 'D/S/b.jpg': 1, 'D/S/a.jpg': 2 });
    expect(listed.seq).toBeGreaterThan(first.seq);
    // Another event numbers from 1; a path listed again keeps its number.
    const other = await list(c, ['D/S/a.jpg'], 'Other');
    expect(numbers(other.rows, 'Other')).toEqual({ 'D/S/a.jpg': 1 });
    const again = await c.write(EVENT, { number: ['D/S/c.jpg', 'D/S/a.jpg'] }, other.seq);
    expect(again.rows).toEqual([]); // c.jpg has no row; a.jpg has its number: nothing changed
    expect(numbers((await c.changesSince(0)).rows)).toEqual({ 'D/S/b.jpg': 1, 'D/S/a.jpg': 2 });
  });

  test('numbers are never reused: a removed file keeps its number and gets it back when it returns', async (t) => {
    const { photoCatalogue: c } = await open(t);
    const start = await list(c, ['D/S/a.jpg', 'D/S/b.jpg', 'D/S/c.jpg']);
    const gone = await c.write(EVENT, { gone: ['D/S/c.jpg'] }, start.seq);
    expect(gone.rows).toMatchObject([{ path: 'D/S/c.jpg', number: 3, present: false }]);
    const next = await list(c, ['D/S/z.jpg']);
    expect(numbers(next.rows)['D/S/z.jpg']).toBe(4);
    const back = await c.write(EVENT, { seen: [seen('D/S/c.jpg')], number: ['D/S/c.jpg'] }, next.seq);
    expect(back.rows).toMatchObject([{ path: 'D/S/c.jpg', number: 3, present: true }]);
  });

  test('inspection: kept for the same version, reset by a new one, ignored for an old one; code frames get no number', async (t) => {
    const { photoCatalogue: c } = await open(t);
    const start = await c.write(EVENT, { seen: [seen('D/S/a.jpg'), seen('D/S/qr.jpg')] }, 0);
    const inspected = await c.write(
      EVENT,
      {
        inspected: [
          { path: 'D/S/a.jpg', size: 1000, mtimeMs: facts().mtimeMs, photoCode: null },
          { path: 'D/S/qr.jpg', size: 1000, mtimeMs: facts().mtimeMs, photoCode: 'K7M2Q9TX' },
        ],
        number: ['D/S/qr.jpg', 'D/S/a.jpg'],
      },
      start.seq,
    );
    expect(inspected.rows.map((r) => [r.path, r.inspected, r.photoCode, r.number]).sort()).toEqual([
      ['D/S/a.jpg', true, null, 1],
      ['D/S/qr.jpg', true, 'K7M2Q9TX', null],
    ]);
    // Seen again unchanged: no change at all.
    const same = await c.write(EVENT, { seen: [seen('D/S/a.jpg')] }, inspected.seq);
    expect(same.rows).toEqual([]);
    // Replaced: new facts, inspection to be done again; the number stays.
    const replaced = await c.write(EVENT, { seen: [seen('D/S/a.jpg', { size: 2000, width: 80 })] }, inspected.seq);
    expect(replaced.rows).toMatchObject([
      { path: 'D/S/a.jpg', number: 1, inspected: false, facts: { size: 2000, width: 80 } },
    ]);
    // The old version's inspection arriving late is not taken for the new one.
    const late = await c.write(
      EVENT,
      { inspected: [{ path: 'D/S/a.jpg', size: 1000, mtimeMs: facts().mtimeMs, photoCode: 'K7M2Q9TX' }] },
      replaced.seq,
    );
    expect(late.rows).toEqual([]);
  });

  test('two processes numbering the same new files at once, in different orders: one number per path, seen alike by both', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const files = paths(60);
    const reversed = [...files].reverse();
    // Each process lists a different, overlapping part, in several batches, all at once.
    await Promise.all([
      list(a.photoCatalogue, files.slice(0, 40)),
      list(b.photoCatalogue, reversed.slice(0, 40)),
      list(a.photoCatalogue, files.slice(20, 30)),
      list(b.photoCatalogue, reversed.slice(10, 60)),
    ]);
    const fromA = numbers((await a.photoCatalogue.changesSince(0)).rows);
    const fromB = numbers((await b.photoCatalogue.changesSince(0)).rows);
    expect(fromB).toEqual(fromA);
    expect(Object.keys(fromA).sort()).toEqual([...files].sort());
    expect(
      Object.values(fromA)
        .map(Number)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  test('the change feed: a reader following it from a second process misses nothing written concurrently', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const reader = await reopenStore(t, a);
    const state = new Map<string, CatalogueRow>();
    let seq = 0;
    let writing = true;
    const follow = (async () => {
      while (writing) {
        const changes = await reader.photoCatalogue.changesSince(seq);
        for (const row of changes.rows) state.set(`${row.eventCode}/${row.path}`, row);
        seq = changes.seq;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const batches = Array.from({ length: 12 }, (_, i) => paths(5, `D/S${i}/p`));
    await Promise.all(
      batches.map((batch, i) => list(i % 2 ? a.photoCatalogue : b.photoCatalogue, batch, i % 3 ? EVENT : 'Other')),
    );
    writing = false;
    await follow;
    const tail = await reader.photoCatalogue.changesSince(seq);
    for (const row of tail.rows) state.set(`${row.eventCode}/${row.path}`, row);
    const all = (await a.photoCatalogue.changesSince(0)).rows;
    expect(all).toHaveLength(60);
    expect(new Map(all.map((r) => [`${r.eventCode}/${r.path}`, r]))).toEqual(state);
  });

  test('hidden follows the takedowns: a request hides, a restore lists again; a row made after a takedown starts hidden', async (t) => {
    const store = await open(t);
    const c = store.photoCatalogue;
    const start = await list(c, ['D/S/a.jpg', 'D/S/b.jpg']);
    const request = (photoId: string, hides = true) =>
      store.takedowns.create({
        eventSlug: EVENT,
        photoId,
        photoNumber: '1',
        reason: 'me',
        email: 'cos@example.com',
        message: '',
        hides,
      });
    const asked = await request('id-D/S/a.jpg');
    await request('id-D/S/b.jpg', false); // review-first: stays up
    const hidden = await c.changesSince(start.seq);
    expect(hidden.rows.map((r) => [r.path, r.hidden])).toEqual([['D/S/a.jpg', true]]);
    await store.takedowns.decide(asked.id, 'restore', { by, mail });
    const restored = await c.changesSince(hidden.seq);
    expect(restored.rows.map((r) => [r.path, r.hidden])).toEqual([['D/S/a.jpg', false]]);
    // Removed for good before this design saw the file (an upgrade): its row starts hidden.
    const early = await request('id-D/S/c.jpg', false);
    await store.takedowns.decide(early.id, 'remove', { by, mail });
    const late = await list(c, ['D/S/c.jpg']);
    expect(late.rows.find((r) => r.path === 'D/S/c.jpg')).toMatchObject({ hidden: true, number: 3 });
  });

  test('metadata and rating: set, read back through the feed; the same again changes nothing; unknown path null', async (t) => {
    const { photoCatalogue: c } = await open(t);
    const start = await list(c, ['D/S/a.jpg']);
    const value = { rating: 4, metadata: { caption: 'Group shot', keywords: ['Pokémon', '_private'], extra: 1 } };
    const row = await c.setMetadata(EVENT, 'D/S/a.jpg', value);
    expect(row).toMatchObject({ ...value, number: 1 });
    const changed = await c.changesSince(start.seq);
    expect(changed.rows).toEqual([row]);
    await c.setMetadata(EVENT, 'D/S/a.jpg', value);
    expect((await c.changesSince(changed.seq)).rows).toEqual([]);
    const rejected = await c.setMetadata(EVENT, 'D/S/a.jpg', { rating: -1, metadata: null });
    expect(rejected).toMatchObject({ rating: -1, metadata: null });
    expect(await c.setMetadata(EVENT, 'D/S/none.jpg', value)).toBeNull();
  });

  test('the upgrade import keeps numbers and facts; the record wins for paths it knows; a number taken meanwhile is not', async (t) => {
    const { photoCatalogue: c } = await open(t);
    await list(c, ['D/S/known.jpg']); // number 1, given by the record before the import
    const outcome = await c.importIndex(EVENT, [
      { path: 'D/S/known.jpg', id: 'id-D/S/known.jpg', number: 5, facts: facts(), photoCode: null },
      { path: 'D/S/a.jpg', id: 'id-D/S/a.jpg', number: 7, facts: facts(), photoCode: null },
      { path: 'D/S/b.jpg', id: 'id-D/S/b.jpg', number: 1, facts: facts(), photoCode: null },
      { path: 'D/S/new.jpg', id: 'id-D/S/new.jpg', number: 3, facts: facts() },
      { path: 'D/S/qr.jpg', id: 'id-D/S/qr.jpg', number: null, facts: facts(), photoCode: 'K7M2Q9TX' },
      { path: 'D/S/retired.jpg', id: 'id-D/S/retired.jpg', number: 2, facts: null },
      { path: 'D/S/lost.jpg', id: 'id-D/S/lost.jpg', number: 1, facts: null },
    ]);
    expect(outcome).toEqual({
      imported: 5,
      known: 1,
      disagreed: [{ path: 'D/S/known.jpg', number: 5, recorded: 1 }],
      renumbered: [
        { path: 'D/S/b.jpg', number: 1 },
        { path: 'D/S/lost.jpg', number: 1 },
      ],
    });
    const rows = new Map((await c.changesSince(0)).rows.map((r) => [r.path, r]));
    expect(rows.get('D/S/known.jpg')?.number).toBe(1);
    expect(rows.get('D/S/a.jpg')).toMatchObject({ number: 7, facts: facts(), inspected: true, present: true });
    expect(rows.get('D/S/b.jpg')).toMatchObject({ number: null, present: true });
    expect(rows.get('D/S/new.jpg')).toMatchObject({ number: 3, inspected: false });
    expect(rows.get('D/S/qr.jpg')).toMatchObject({ number: null, inspected: true, photoCode: 'K7M2Q9TX' });
    expect(rows.get('D/S/retired.jpg')).toMatchObject({ number: 2, facts: null, present: false });
    expect(rows.has('D/S/lost.jpg')).toBe(false);
    // Numbering continues after the highest imported number; taken twice, nothing changes.
    const next = await c.write(EVENT, { number: ['D/S/b.jpg'] }, 0);
    expect(numbers(next.rows)['D/S/b.jpg']).toBe(8);
    expect(await c.importIndex(EVENT, [{ path: 'D/S/a.jpg', id: 'x', number: 7, facts: facts() }])).toEqual({
      imported: 0,
      known: 1,
      disagreed: [],
      renumbered: [],
    });
  });
});

test('a stored row is checked flat and its facts nested; part of the facts, or a value out of range, is refused', () => {
  const stored = {
    eventCode: EVENT,
    path: 'D/S/a.jpg',
    id: 'id-a',
    number: 3,
    ...facts(),
    inspected: true,
    photoCode: null,
    present: true,
    hidden: false,
    rating: 4,
    metadata: { title: 'Cosplay' },
    seq: 7,
  };
  const { size, mtimeMs, width, height, takenAtMs, ...rest } = stored;
  expect(catalogueRowOf(StoredCatalogueRow.parse(stored))).toEqual({
    ...rest,
    facts: { size, mtimeMs, width, height, takenAtMs },
  });
  // A retired number (imported at the upgrade): no facts at all.
  const retired = { ...stored, size: null, mtimeMs: null, width: null, height: null, takenAtMs: null };
  expect(catalogueRowOf(StoredCatalogueRow.parse(retired)).facts).toBeNull();
  expect(() => catalogueRowOf(StoredCatalogueRow.parse({ ...retired, width: 48 }))).toThrow(/part of its facts/);
  expect(StoredCatalogueRow.safeParse({ ...stored, rating: 9 }).success).toBe(false);
  expect(StoredCatalogueRow.safeParse({ ...stored, width: 0 }).success).toBe(false);
  expect(StoredCatalogueRow.safeParse({ ...stored, present: 1 }).success).toBe(false);
});
