/** The faces port's conformance suite (src/services/store/ports/faces.ts), on both engines. */
import { setTimeout as delay } from 'node:timers/promises';
import { expect, test } from 'vitest';
import type { NewFaceIndexEntry } from '../../../../src/services/store/ports/faces.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const entry = (over: Partial<NewFaceIndexEntry> = {}): NewFaceIndexEntry => ({
  eventSlug: 'AX2025',
  photoId: 'p1',
  version: '1000-1',
  model: 'test-model',
  faces: 2,
  vectors: Buffer.from([1, 2, 3, 4, 250, 251, 252, 253]).toString('base64'),
  ...over,
});

describeOnEngines('faces port', (open) => {
  test('a photo’s faces are recorded and read back, per event, vectors unchanged', async (t) => {
    const { faces } = await open(t);
    const put = await faces.put(entry());
    await faces.put(entry({ photoId: 'p2', faces: 0, vectors: '' }));
    await faces.put(entry({ eventSlug: 'Other', photoId: 'p1' }));
    expect(put.indexedAt).toMatch(/Z$/);
    const rows = await faces.list('AX2025');
    expect(rows.map((r) => r.photoId).sort()).toEqual(['p1', 'p2']);
    expect(rows.find((r) => r.photoId === 'p1')).toEqual(put);
    expect([...Buffer.from(put.vectors, 'base64')]).toEqual([1, 2, 3, 4, 250, 251, 252, 253]);
    expect(await faces.versions('AX2025')).toEqual(
      expect.arrayContaining([
        { photoId: 'p1', version: '1000-1', model: 'test-model' },
        { photoId: 'p2', version: '1000-1', model: 'test-model' },
      ]),
    );
    expect(await faces.list('Nobody')).toEqual([]);
  });

  test('a new version (or model) of a photo replaces its row', async (t) => {
    const { faces } = await open(t);
    await faces.put(entry());
    await faces.put(entry({ version: '2000-2', faces: 1, vectors: 'AAAA' }));
    await faces.put(entry({ photoId: 'p2' }));
    await faces.put(entry({ photoId: 'p2', model: 'next-model' }));
    const rows = await faces.versions('AX2025');
    expect(rows.sort((a, b) => a.photoId.localeCompare(b.photoId))).toEqual([
      { photoId: 'p1', version: '2000-2', model: 'test-model' },
      { photoId: 'p2', version: '1000-1', model: 'next-model' },
    ]);
    expect((await faces.list('AX2025')).find((r) => r.photoId === 'p1')).toMatchObject({ faces: 1, vectors: 'AAAA' });
  });

  test('since: only rows recorded at or after that instant, in the order they were recorded', async (t) => {
    const { faces } = await open(t);
    const first = await faces.put(entry({ photoId: 'p1' }));
    // Distinct instants, whatever the clock's resolution.
    while (new Date().toISOString() === first.indexedAt) await delay(1);
    const second = await faces.put(entry({ photoId: 'p2' }));
    while (new Date().toISOString() === second.indexedAt) await delay(1);
    const third = await faces.put(entry({ photoId: 'p1', version: '3000-3' }));
    expect((await faces.list('AX2025', { since: second.indexedAt })).map((r) => [r.photoId, r.version])).toEqual([
      ['p2', '1000-1'],
      ['p1', '3000-3'],
    ]);
    expect(await faces.list('AX2025', { since: new Date(Date.parse(third.indexedAt) + 1).toISOString() })).toEqual([]);
  });

  test('page: the event’s rows in photo id order, a page after another, none of another event', async (t) => {
    const { faces } = await open(t);
    for (const id of ['p3', 'p1', 'p5', 'p2', 'p4']) await faces.put(entry({ photoId: id }));
    await faces.put(entry({ eventSlug: 'Other', photoId: 'p6' }));
    const first = await faces.page('AX2025', { limit: 2 });
    expect(first.map((r) => r.photoId)).toEqual(['p1', 'p2']);
    expect(first[0]).toEqual((await faces.list('AX2025')).find((r) => r.photoId === 'p1'));
    expect((await faces.page('AX2025', { afterPhotoId: 'p2', limit: 2 })).map((r) => r.photoId)).toEqual(['p3', 'p4']);
    expect((await faces.page('AX2025', { afterPhotoId: 'p4', limit: 2 })).map((r) => r.photoId)).toEqual(['p5']);
    expect(await faces.page('AX2025', { afterPhotoId: 'p5', limit: 2 })).toEqual([]);
  });

  test('remove forgets the named photos of the event only', async (t) => {
    const { faces } = await open(t);
    for (const id of ['a', 'b', 'c']) await faces.put(entry({ photoId: id }));
    await faces.put(entry({ eventSlug: 'Other', photoId: 'a' }));
    expect(await faces.remove('AX2025', ['a', 'c', 'zz'])).toBe(2);
    expect(await faces.remove('AX2025', [])).toBe(0);
    expect((await faces.versions('AX2025')).map((r) => r.photoId)).toEqual(['b']);
    expect((await faces.versions('Other')).map((r) => r.photoId)).toEqual(['a']);
  });

  test('what one process records, another reads; two writing the same photo at once leave one row', async (t) => {
    const store = await open(t);
    const other = await reopenStore(t, store);
    await Promise.all([
      store.faces.put(entry({ version: 'v-a' })),
      other.faces.put(entry({ version: 'v-b' })),
      ...Array.from({ length: 20 }, (_, i) => other.faces.put(entry({ photoId: `x${i}` }))),
    ]);
    const rows = await store.faces.versions('AX2025');
    expect(rows).toHaveLength(21);
    expect(['v-a', 'v-b']).toContain(rows.find((r) => r.photoId === 'p1')?.version);
    expect(await other.faces.list('AX2025')).toHaveLength(21);
  });
});
