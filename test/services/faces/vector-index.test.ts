/** The in-memory face vectors and their WebAssembly dot kernel (src/services/faces/vector-index.ts, dot-kernel.ts). */
import { expect, test } from 'vitest';
import { VectorIndex } from '../../../src/services/faces/vector-index.js';

const DIM = 64;

/** A deterministic pseudo-random vector of signed bytes. */
function vec(seed: number): Int8Array {
  const out = new Int8Array(DIM);
  let x = seed * 2_654_435_761;
  for (let i = 0; i < DIM; i++) {
    x = (x * 1_103_515_245 + 12_345) & 0x7fffffff;
    out[i] = (x % 255) - 127;
  }
  return out;
}

function cosine(a: Int8Array, b: Int8Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

const photo = (photoId: string, version = 'v1') => ({ photoId, version, indexedAt: '2026-01-01T00:00:00.000Z' });
const faces = (...vs: Int8Array[]) => {
  const out = new Int8Array(vs.length * DIM);
  for (const [i, v] of vs.entries()) out.set(v, i * DIM);
  return out;
};

test('the kernel’s similarities equal a plain computation, for every face, best face per photo, best first', () => {
  const index = new VectorIndex(DIM);
  for (let p = 0; p < 300; p++) index.put(photo(`p${p}`), faces(vec(p * 3), vec(p * 3 + 1), vec(p * 3 + 2)));
  const query = vec(31);
  const found = index.search(query, -1);
  expect(found).toHaveLength(300);
  for (const match of found.slice(0, 50)) {
    const p = Number(match.photoId.slice(1));
    const expected = Math.max(...[0, 1, 2].map((f) => cosine(query, vec(p * 3 + f))));
    expect(match.similarity).toBeCloseTo(expected, 10);
  }
  expect(found[0]).toMatchObject({ photoId: 'p10', similarity: expect.closeTo(1, 10) });
  for (let i = 1; i < found.length; i++) {
    expect(found[i - 1]?.similarity).toBeGreaterThanOrEqual(found[i]?.similarity as number);
  }
  expect(index.search(query, 0.99).map((m) => m.photoId)).toEqual(['p10']);
});

test('a photo indexed again replaces its faces; removed photos and unused rows never match; compaction keeps the rest', () => {
  const index = new VectorIndex(DIM);
  for (let p = 0; p < 40; p++) index.put(photo(`p${p}`), faces(vec(1000 + p)));
  index.put(photo('p5', 'v2'), faces(vec(7), vec(8)));
  expect(index.search(vec(1005), 0.99)).toEqual([]);
  expect(index.search(vec(8), 0.99)).toEqual([{ photoId: 'p5', version: 'v2', similarity: expect.closeTo(1, 10) }]);
  // Replacing many photos makes a quarter of the rows unused: compacted, answers unchanged.
  for (let p = 10; p < 30; p++) index.put(photo(`p${p}`, 'v2'), faces());
  index.remove('p39');
  expect(index.faceCount).toBe(40 - 1 + 2 - 20 - 1);
  expect(index.search(vec(1020), 0.99)).toEqual([]);
  expect(index.search(vec(1039), 0.99)).toEqual([]);
  expect(index.search(vec(1031), 0.99).map((m) => m.photoId)).toEqual(['p31']);
  expect(index.search(vec(8), 0.99).map((m) => m.photoId)).toEqual(['p5']);
  expect(index.indexed.get('p12')?.photo.version).toBe('v2');
});

test('an empty index or a zero query finds nothing', () => {
  const index = new VectorIndex(DIM);
  expect(index.search(vec(1), 0)).toEqual([]);
  index.put(photo('a'), faces(vec(1)));
  expect(index.search(new Int8Array(DIM), 0)).toEqual([]);
});
