/**
 * `npm run bench -- store`: the system of record (issue "One system of record").
 *
 * SQLite (WAL, every create durable before it resolves):
 * - creates/s through the record, one caller, against the raw engine's single-row commits
 *   with synchronous=FULL measured in the same run on the same disk (target >= 0.6x); also
 *   10 concurrent callers, ten seconds without a pause (and the WAL's size after), with a
 *   receipt mail each, and with an Idempotency-Key each (reserve, then the create that
 *   completes the key in its own transaction: an order from the checkout or the booth);
 *   and where one caller's time goes: the same record with its WAL synced on the event loop
 *   (as FULL does) and never synced (its own CPU and SQLite's writes);
 * - what the machinery is worth: creates/s with the WAL synced in libuv's thread pool
 *   instead of the store's own thread, while the pool is busy (as when images render), and
 *   one caller without the checkpoint thread;
 * - reads: orders.get (10 concurrent) against parsing the row each time (what the reuse of
 *   unchanged records saves; target >= 20,000/s, the old cache's); the pending list of
 *   10,000 orders as every admin poll reads it (read through: ids and versions, unchanged
 *   records reused) against a cold read, and the longest event-loop stall of a cold read.
 * PostgreSQL 17 (embedded, fsync on): creates/s at 10 concurrent against raw single-row
 * INSERT commits at 10 concurrent (target >= 2,000/s); reads; and a change made through one
 * process read by another right after its commit (read through: no lag to wait for).
 */
import { pbkdf2 } from 'node:crypto';
import { fdatasyncSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type * as WalSyncModule from '../src/services/store/engines/sqlite/wal-sync.js';
import type * as OrderRowsModule from '../src/services/store/sql/order-rows.js';
import type * as StoreModule from '../src/services/store/store.js';
import { startPostgresServer } from '../test/support/postgres-embedded.js';
import { newOrder } from '../test/support/store-fixtures.js';
import { importBuilt } from './lib/built.js';
import { type BenchRow, median, printReport } from './lib/report.js';

// The store as it ships (bench/lib/built.ts): compiled, not through tsx.
const { openStore } = await importBuilt<typeof StoreModule>('services/store/store.js');
const { rowToOrder, SELECT_COLUMNS } = await importBuilt<typeof OrderRowsModule>('services/store/sql/order-rows.js');
const { fdatasyncFile } = await importBuilt<typeof WalSyncModule>('services/store/engines/sqlite/wal-sync.js');

type Store = Awaited<ReturnType<typeof openStore>>;
const by = { by: 'customer' } as const;

/** Runs `op` from `concurrency` loops for `ms`; operations per second. */
async function rate(ms: number, concurrency: number, op: (i: number) => Promise<unknown> | unknown): Promise<number> {
  let count = 0;
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await op(count++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/**
 * Measures each op in turn, `rounds` times, and returns each one's median rate: the other
 * engineers' test runs load this 2-core machine unevenly, and alternating keeps a baseline
 * and the figure it is compared with under the same conditions.
 */
async function alternate(rounds: number, ms: number, concurrency: number, ops: ((i: number) => unknown)[]) {
  const rates: number[][] = ops.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [k, op] of ops.entries()) rates[k]?.push(await rate(ms, concurrency, op));
  }
  return rates.map((v) => median(v));
}

const row = (name: string, value: number, unit: string, extra: Partial<BenchRow> = {}): BenchRow => ({
  name,
  value: Math.round(value * 100) / 100,
  unit,
  ...extra,
});

/** Runs `fn` while a ticker on the event loop records the longest gap between its turns (ms). */
async function longestStall(fn: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 5));
  } finally {
    clearInterval(ticker);
  }
  return longest;
}

/** Keeps libuv's four pool threads busy (as image renders and file reads do) until stopped. */
function busyPool(): () => void {
  let on = true;
  const spin = () => {
    if (on) pbkdf2('x', 'y', 20_000, 32, 'sha256', spin);
  };
  for (let i = 0; i < 4; i++) spin();
  return () => {
    on = false;
  };
}

async function sqliteFigures(dir: string): Promise<BenchRow[]> {
  // raw engine baseline: one row per committed transaction, synchronous=FULL, same disk
  const raw = new Database(path.join(dir, 'raw.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = raw.prepare('INSERT INTO t (v) VALUES (?)');
  const payload = 'x'.repeat(700); // about the size of an order row
  const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'orders.db') });
  const order = newOrder();
  // Warm up for seconds: one caller's rate climbs over the first seconds (V8 optimising).
  await rate(4000, 1, () => store.orders.create(order, by));
  await rate(1000, 1, () => insert.run(payload));
  // The same record with its WAL synced on the event loop (what synchronous=FULL does inside
  // COMMIT), and with no sync at all (the record's own cost): where one caller's time goes.
  const inline = await openStore({
    engine: 'sqlite',
    file: path.join(dir, 'inline.db'),
    walSync: async (fd) => fdatasyncSync(fd),
  });
  const unsynced = await openStore({ engine: 'sqlite', file: path.join(dir, 'unsynced.db'), walSync: async () => {} });
  await rate(2000, 1, () => inline.orders.create(order, by));
  await rate(2000, 1, () => unsynced.orders.create(order, by));
  const [rawRate = 0, storeRate = 0, inlineRate = 0, unsyncedRate = 0] = await alternate(5, 1000, 1, [
    () => insert.run(payload),
    () => store.orders.create(order, by),
    () => inline.orders.create(order, by),
    () => unsynced.orders.create(order, by),
  ]);
  raw.close();
  await inline.close();
  await unsynced.close();
  // Ten seconds without a pause: where an ever-growing WAL would show (checkpointer.ts).
  const sustainedRate = await rate(10_000, 1, () => store.orders.create(order, by));
  const walMb = statSync(path.join(dir, 'orders.db-wal')).size / 1e6;
  const concurrentRate = await rate(2000, 10, () => store.orders.create(order, by));
  const mailRate = await rate(1000, 1, () =>
    store.orders.create(order, { ...by, mail: [{ kind: 'receipt', orderId: null, payload: {} }] }),
  );
  const keyedRate = await rate(2000, 50, async (i) => {
    const now = new Date();
    const key = `bench-${i}-${now.getTime()}`;
    const createdAt = now.toISOString();
    await store.idempotencyKeys.reserve({
      key,
      fingerprint: 'f',
      createdAt,
      expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
    });
    await store.orders.create(order, {
      ...by,
      idempotency: {
        key,
        reservedAt: createdAt,
        respond: (o) => ({ statusCode: 201, body: JSON.stringify({ orderNumber: o.orderNumber }) }),
      },
    });
  });

  // The machinery, against the plain way, each measured in alternation.
  const poolSynced = await openStore({ engine: 'sqlite', file: path.join(dir, 'pool.db'), walSync: fdatasyncFile });
  const noCheckpointer = await openStore({
    engine: 'sqlite',
    file: path.join(dir, 'no-ckpt.db'),
    checkpointIntervalMs: 0,
  });
  const stopPool = busyPool();
  const [threadUnderLoad = 0, poolUnderLoad = 0] = await alternate(3, 1500, 10, [
    () => store.orders.create(order, by),
    () => poolSynced.orders.create(order, by),
  ]);
  stopPool();
  const [withCkpt = 0, withoutCkpt = 0] = await alternate(3, 3000, 1, [
    () => store.orders.create(order, by),
    () => noCheckpointer.orders.create(order, by),
  ]);
  await poolSynced.close();
  await noCheckpointer.close();

  const reads = await readFigures('SQLite', store, 1000, (id) =>
    store.db.get(`SELECT ${SELECT_COLUMNS} FROM orders WHERE id = ?`, [id]).then((r) => rowToOrder(r ?? {})),
  );
  await store.close();
  return [
    row('SQLite raw engine: single-row commits/s (WAL, FULL)', rawRate, '/s'),
    row('SQLite record: creates/s, one caller (durable)', storeRate, '/s', {
      baseline: rawRate,
      target: '>= 0.6x',
      pass: storeRate >= 0.6 * rawRate,
    }),
    row('  the same record, WAL synced on the event loop (as FULL does)', inlineRate, '/s'),
    row('  the store against it (a lone commit is synced in place too)', storeRate, '/s', { baseline: inlineRate }),
    row('  the same record, never synced (its own CPU and SQLite’s writes)', unsyncedRate, '/s'),
    row('SQLite record: creates/s, one caller for 10 s without a pause', sustainedRate, '/s', { baseline: rawRate }),
    row('  WAL file after those 10 s', walMb, 'MB'),
    row('SQLite record: creates/s, 10 concurrent callers', concurrentRate, '/s', { baseline: rawRate }),
    row('SQLite record: creates/s with a receipt mail job each', mailRate, '/s', { baseline: rawRate }),
    row('SQLite record: orders/s with an Idempotency-Key each, 50 concurrent', keyedRate, '/s', { baseline: rawRate }),
    row('SQLite: creates/s, 10 concurrent, thread pool busy: WAL synced in libuv’s pool', poolUnderLoad, '/s'),
    row('SQLite: ... the same, WAL synced in the store’s own thread', threadUnderLoad, '/s', {
      baseline: poolUnderLoad,
    }),
    row('SQLite: creates/s, one caller, checkpoints left to SQLite (no thread)', withoutCkpt, '/s'),
    row('SQLite: ... the same with the checkpoint thread', withCkpt, '/s', { baseline: withoutCkpt }),
    ...reads,
  ];
}

/** orders.get through the port (unchanged records reused) against a read that parses the row every time. */
async function readFigures(
  label: string,
  store: Store,
  n: number,
  parseEveryTime: (id: string) => Promise<unknown>,
): Promise<BenchRow[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await store.orders.create(newOrder({ customerName: `r${i}` }), by)).id);
  const pick = (i: number) => ids[(i * 7919) % ids.length] as string;
  for (const id of ids) await store.orders.get(id);
  const [parsed = 0, reused = 0] = await alternate(3, 1000, 10, [
    (i) => parseEveryTime(pick(i)),
    (i) => store.orders.get(pick(i)),
  ]);
  return [
    row(`${label}: order reads/s, the row parsed every time (10 concurrent)`, parsed, '/s'),
    row(`${label}: order reads/s through the port (10 concurrent)`, reused, '/s', {
      baseline: parsed,
      target: '>= 20000/s',
      pass: reused >= 20_000,
    }),
  ];
}

async function listFigures(dir: string): Promise<BenchRow[]> {
  const file = path.join(dir, 'list.db');
  const store = await openStore({ engine: 'sqlite', file });
  for (let i = 0; i < 10_000; i += 500) {
    await Promise.all(
      Array.from({ length: 500 }, (_, k) => store.orders.create(newOrder({ customerName: `c${i + k}` }), by)),
    );
  }
  const query = { statuses: ['pending' as const] };
  const cold: number[] = [];
  const stalls: number[] = [];
  for (let r = 0; r < 3; r++) {
    const fresh = await openStore({ engine: 'sqlite', file });
    stalls.push(
      await longestStall(async () => {
        const t0 = performance.now();
        const list = await fresh.orders.list(query);
        cold.push(performance.now() - t0);
        if (list.length !== 10_000) throw new Error(`listed ${list.length}`);
      }),
    );
    await fresh.close();
  }
  await store.orders.list(query);
  const warm: number[] = [];
  for (let r = 0; r < 20; r++) {
    const t0 = performance.now();
    await store.orders.list(query);
    warm.push(performance.now() - t0);
  }
  // one order changed since the last read (another process, or an admin)
  const changed: number[] = [];
  const some = await store.orders.list(query);
  for (let r = 0; r < 10; r++) {
    await store.orders.update(some[r]?.id ?? '', { fields: { city: `C${r}` } }, by);
    const t0 = performance.now();
    await store.orders.list(query);
    changed.push(performance.now() - t0);
  }
  await store.close();
  const coldMs = median(cold);
  return [
    row('SQLite 10,000 pending orders: cold list read (every record parsed)', coldMs, 'ms'),
    row('SQLite 10,000 pending orders: list read, nothing changed (ids, versions)', median(warm), 'ms', {
      baseline: coldMs,
    }),
    row('SQLite 10,000 pending orders: list read after one order changed', median(changed), 'ms', {
      baseline: coldMs,
    }),
    row('SQLite 10,000 pending orders: longest event-loop stall of a cold read', median(stalls), 'ms', {
      target: '<= 50 ms',
      pass: median(stalls) <= 50,
    }),
  ];
}

async function postgresFigures(): Promise<BenchRow[]> {
  const server = await startPostgresServer({ durable: true });
  try {
    const rawUrl = await server.createDatabase('raw');
    const rawPool = new pg.Pool({ connectionString: rawUrl, max: 10 });
    await rawPool.query('CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text NOT NULL)');
    const payload = 'x'.repeat(700);
    const rawInsert = () => rawPool.query({ name: 'ins', text: 'INSERT INTO t (v) VALUES ($1)', values: [payload] });
    const url = await server.createDatabase('orders');
    const store = await openStore({ engine: 'postgres', connectionString: url, poolSize: 10 });
    const order = newOrder();
    await rate(1000, 10, rawInsert);
    await rate(1000, 10, () => store.orders.create(order, by));
    const [rawRate = 0, storeRate = 0] = await alternate(3, 1500, 10, [
      rawInsert,
      () => store.orders.create(order, by),
    ]);
    await rawPool.end();
    const reads = await readFigures('PostgreSQL', store, 1000, (id) =>
      store.db.get(`SELECT ${SELECT_COLUMNS} FROM orders WHERE id = ?`, [id]).then((r) => rowToOrder(r ?? {})),
    );

    // Another process reads a change right after its commit: read through, nothing to wait for.
    const other = await openStore({ engine: 'postgres', connectionString: url, poolSize: 2 });
    const target = await store.orders.create(order, by);
    const seen: number[] = [];
    let stale = 0;
    for (let i = 0; i < 200; i++) {
      const city = `City ${i}`;
      await store.orders.update(target.id, { fields: { city } }, by);
      const t0 = performance.now();
      const read = await other.orders.get(target.id);
      seen.push(performance.now() - t0);
      if (read?.city !== city) stale++;
    }
    await other.close();
    await store.close();
    return [
      row('PostgreSQL raw: single-row INSERT commits/s, 10 concurrent', rawRate, '/s'),
      row('PostgreSQL record: creates/s, 10 concurrent', storeRate, '/s', {
        baseline: rawRate,
        target: '>= 2000/s',
        pass: storeRate >= 2000,
      }),
      ...reads,
      row('PostgreSQL: another process reads a change right after its commit (median)', median(seen), 'ms'),
      { name: '  reads that missed the change', value: stale, unit: 'of 200', target: '0', pass: stale === 0 },
    ];
  } finally {
    await server.destroy();
  }
}

export default async function storeBench(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'store-bench-'));
  try {
    printReport('system of record: SQLite (2 cores)', [...(await sqliteFigures(dir)), ...(await listFigures(dir))]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printReport('system of record: PostgreSQL 17 (embedded, fsync on, 2 cores)', await postgresFigures());
}
