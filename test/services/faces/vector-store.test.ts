/** The face vectors kept and searched in the vector thread (src/services/faces/vector-store.ts, vector-thread.ts). */
import { expect, test } from 'vitest';
import { VectorStore } from '../../../src/services/faces/vector-store.js';

const DIM = 32;

/** A vector pointing mostly along axis `axis`. */
function along(axis: number, noise = 0): Int8Array {
  const out = new Int8Array(DIM);
  for (let i = 0; i < DIM; i++) out[i] = i === axis ? 100 : (i * 7 + noise) % 11;
  return out;
}

const photo = (photoId: string, version = 'v1') => ({ photoId, version, indexedAt: '2026-01-01T00:00:00.000Z' });
const faces = (...vs: Int8Array[]) => {
  const out = new Int8Array(vs.length * DIM);
  for (const [i, v] of vs.entries()) out.set(v, i * DIM);
  return out;
};

test('photos put in one call are searched in the thread, per event; removed and dropped photos no longer match', async (t) => {
  const store = new VectorStore(DIM);
  t.onTestFinished(() => store.close());
  const generation = store.generation;
  await store.put('E', [
    { photo: photo('a'), vectors: faces(along(1), along(2)) },
    { photo: photo('b'), vectors: faces(along(3)) },
    { photo: photo('c'), vectors: faces() },
  ]);
  await store.put('Other', [{ photo: photo('x'), vectors: faces(along(2, 1)) }]);
  expect(store.generation).toBe(generation);

  const found = await store.search('E', along(2, 3), 0.8);
  expect(found.map((m) => [m.photoId, m.version])).toEqual([['a', 'v1']]);
  expect(found[0]?.similarity).toBeGreaterThan(0.9);
  expect((await store.search('E', along(3), 0.8)).map((m) => m.photoId)).toEqual(['b']);
  expect((await store.search('Nobody', along(3), 0.8)).map((m) => m.photoId)).toEqual([]);

  // A new version replaces the photo's faces.
  await store.put('E', [{ photo: photo('b', 'v2'), vectors: faces(along(5)) }]);
  expect(await store.search('E', along(3), 0.8)).toEqual([]);
  expect((await store.search('E', along(5), 0.8)).map((m) => [m.photoId, m.version])).toEqual([['b', 'v2']]);

  await store.remove('E', ['a']);
  expect(await store.search('E', along(2), 0.8)).toEqual([]);
  expect((await store.search('Other', along(2), 0.8)).map((m) => m.photoId)).toEqual(['x']);
  await store.drop('Other');
  expect(await store.search('Other', along(2), 0.8)).toEqual([]);

  await store.close();
  expect(() => store.search('E', along(5), 0.8)).toThrow(/closed/);
});
