import path from 'node:path';
import { expect, test } from 'vitest';
import { GroupCommit, type Outcome } from '../../../src/services/store/group-commit.js';
import { openStore } from '../../../src/services/store/store.js';
import { tempDir } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';

test('items arriving together are written as one batch, in arrival order, each with its own outcome', async () => {
  const batches: number[][] = [];
  const gc = new GroupCommit<number, string>((items) => {
    batches.push(items);
    return items.map(
      (n): Outcome<string> => (n === 3 ? { ok: false, error: new Error('bad 3') } : { ok: true, value: `v${n}` }),
    );
  });
  const results = await Promise.allSettled([1, 2, 3, 4].map((n) => gc.submit(n)));
  expect(batches).toEqual([[1, 2, 3, 4]]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
    'v1',
    'v2',
    'bad 3',
    'v4',
  ]);
});

test('items arriving while a batch is being written go in the next one; a failing write rejects its batch only', async () => {
  const batches: number[][] = [];
  let release: () => void = () => {};
  const gc = new GroupCommit<number, number>(async (items) => {
    batches.push(items);
    if (items[0] === 1) await new Promise<void>((r) => (release = r));
    if (items.includes(2)) throw new Error('disk on fire');
    return items.map((n) => ({ ok: true, value: n * 10 }));
  }, 3);
  const first = gc.submit(1);
  await new Promise((r) => setImmediate(r));
  const rest = [2, 3, 4, 5, 6].map((n) => gc.submit(n));
  release();
  await expect(first).resolves.toBe(10);
  const settled = await Promise.allSettled(rest);
  expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
  // and it keeps working afterwards
  await expect(gc.submit(7)).resolves.toBe(70);
});

test('idle() resolves once everything submitted so far is written', async () => {
  const written: number[] = [];
  const gc = new GroupCommit<number, number>(async (items) => {
    await new Promise((r) => setTimeout(r, 5));
    written.push(...items);
    return items.map((n) => ({ ok: true, value: n }));
  });
  await gc.idle(); // nothing pending
  const all = Promise.all([1, 2, 3].map((n) => gc.submit(n)));
  await gc.idle();
  expect(written).toEqual([1, 2, 3]);
  await all;
});

test('a store closing right after creates were submitted still writes them first', async (t) => {
  const file = path.join(await tempDir(t), 'orders.db');
  const store = await openStore({ engine: 'sqlite', file });
  const pending = Promise.all([1, 2, 3].map(() => store.orders.create(newOrder(), { by: 'customer' })));
  await store.close();
  expect((await pending).map((o) => o.orderNumber)).toEqual(['AX25-0001', 'AX25-0002', 'AX25-0003']);
});
