import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../../src/config/env.js';
import { buildNewOrder, LIST_SLICE } from '../../../src/services/store/rules.js';
import { createSqliteStore } from '../../../src/services/store/sqlite/index.js';
import { SQLITE_MIGRATIONS } from '../../../src/services/store/sqlite/migrations.js';
import { ORDER_COLUMNS, orderToRow, rowFromValues } from '../../../src/services/store/sqlite/rows.js';
import { tempDir } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';
import { describeStoreConformance } from './conformance.js';

describeStoreConformance('sqlite', async (t) => {
  const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
  await store.init();
  t.onTestFinished(() => store.close());
  return store;
});

describe('sqlite adapter', () => {
  test('the file is in WAL mode with synchronous=FULL, migrated to the latest version', async (t) => {
    const file = path.join(await tempDir(t), 'nested', 'orders.db');
    const store = createSqliteStore({ file });
    await store.init();
    t.onTestFinished(() => store.close());
    await store.createOrder(newOrder());
    const db = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      db.close();
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
    // Numbers and lookups by number go through the (prefix, seq) index, never a scan.
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
    expect(plan("SELECT max(seq) FROM orders WHERE prefix = 'AX25'")).toMatch(/USING COVERING INDEX/);
    expect(plan("SELECT * FROM orders WHERE id = 'a' OR id = 'b' OR (prefix = 'AX25' AND seq = 1)")).not.toMatch(
      /SCAN orders/,
    );
  });

  test('a version 1 database is migrated: orders kept, numbering continues, numbers still found', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    // A file as a version 1 server left it, with orders and their sequence rows.
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
    raw.pragma('user_version = 1');
    const insert = raw.prepare(
      `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${ORDER_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    const put = (id: string, prefix: string, seq: number) => {
      const order = buildNewOrder(newOrder({ prefix }), seq, new Date('2026-11-01T10:00:00Z'), id);
      insert.run(orderToRow({ ...order, status: 'paid' }));
    };
    put('00000000-0000-4000-8000-000000000001', 'AX25', 1);
    put('00000000-0000-4000-8000-000000000002', 'AX25', 2);
    put('00000000-0000-4000-8000-000000000003', 'ZZ', 10000);
    raw.exec("INSERT INTO order_sequences (prefix, last) VALUES ('AX25', 2), ('ZZ', 10000)");
    raw.close();

    const store = createSqliteStore({ file });
    await store.init();
    t.onTestFinished(() => store.close());
    expect((await store.getOrder('ax25-0002'))?.id).toBe('00000000-0000-4000-8000-000000000002');
    expect((await store.getOrder('ZZ-10000'))?.status).toBe('paid');
    expect((await store.createOrder(newOrder())).orderNumber).toBe('AX25-0003');
    expect((await store.createOrder(newOrder({ prefix: 'ZZ' }))).orderNumber).toBe('ZZ-10001');
    expect((await store.listOrders({ includeHeld: true })).map((o) => o.orderNumber)).toEqual([
      'ZZ-10001',
      'AX25-0003',
      'ZZ-10000',
      'AX25-0002',
      'AX25-0001',
    ]);
    const check = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      check.close();
    });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')").pluck().all();
    expect(tables).not.toContain('order_sequences');
    expect(tables).not.toContain('orders_by_status');
    expect(tables).toContain('orders_holds');
  });

  test('long lists are read in pages, newest first, letting other work run between pages', async (t) => {
    const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
    await store.init();
    t.onTestFinished(() => store.close());
    const n = LIST_SLICE * 2 + 7;
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) => store.createOrder(newOrder(i % 3 === 0 ? { eventSlug: 'OTHER' } : {}))),
    );
    await Promise.all(made.filter((_, i) => i % 5 === 0).map((o) => store.updateOrder(o.id, { status: 'paid' })));
    const newestFirst = [...made].reverse();
    let ticks = 0;
    let reading = true;
    const tick = () => {
      ticks++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const all = await store.listOrders();
    reading = false;
    expect(all.map((o) => o.orderNumber)).toEqual(newestFirst.map((o) => o.orderNumber));
    expect(ticks).toBeGreaterThan(0); // the event loop turned while the list was read
    const pending = await store.listOrders({ statuses: ['pending'], eventSlug: 'AX2025' });
    expect(pending.map((o) => o.id)).toEqual(
      newestFirst.filter((o) => o.eventSlug === 'AX2025' && made.indexOf(o) % 5 !== 0).map((o) => o.id),
    );
    expect(await store.getOrder(made[0]?.id ?? '')).toEqual(all.at(-1));
  });

  test('rowFromValues reads the columns in ORDER_COLUMNS order', () => {
    const row = rowFromValues([...ORDER_COLUMNS]);
    expect(Object.keys(row)).toEqual([...ORDER_COLUMNS]);
    for (const [key, value] of Object.entries(row)) expect(value).toBe(key);
  });

  test('orders survive a reopen; the sequence continues; migrations are not re-run', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const first = createSqliteStore({ file });
    await first.init();
    const a = await first.createOrder(newOrder());
    await first.close();
    const second = createSqliteStore({ file });
    await second.init();
    t.onTestFinished(() => second.close());
    expect(await second.getOrder(a.id)).toEqual(a);
    expect((await second.createOrder(newOrder())).orderNumber).toBe('AX25-0002');
  });

  test('two stores (two processes) on one file still number orders uniquely', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const a = createSqliteStore({ file });
    const b = createSqliteStore({ file });
    await Promise.all([a.init(), b.init()]);
    t.onTestFinished(async () => {
      await a.close();
      await b.close();
    });
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).createOrder(newOrder())));
    expect(new Set(made.map((o) => o.orderNumber)).size).toBe(50);
    expect((await a.listOrders()).length).toBe(50);
  });

  test('an unusable DATA_DIR stops start-up with a message naming it', async (t) => {
    const dir = await tempDir(t);
    const notADir = path.join(dir, 'file');
    await writeFile(notADir, 'x');
    const store = createSqliteStore({ file: path.join(notADir, 'orders.db') });
    await expect(store.init()).rejects.toThrow(ConfigError);
    await expect(store.init()).rejects.toThrow(/^DATA_DIR: /);
  });

  test('a file that is not a database stops start-up naming DATA_DIR', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    await writeFile(file, 'this is not sqlite '.repeat(100));
    const store = createSqliteStore({ file });
    await expect(store.init()).rejects.toThrow(/DATA_DIR: cannot open the order database .*orders\.db/);
  });

  test('a database from a newer server version is refused', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    await expect(createSqliteStore({ file }).init()).rejects.toThrow(/DATA_DIR: .*schema version 999/);
  });

  test('a closed store answers STORE_UNAVAILABLE, and health says not ok', async (t) => {
    const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
    await store.init();
    await store.close();
    await expect(store.getOrder('x')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      statusCode: 503,
      headers: { 'Retry-After': '5' },
    });
    await expect(store.createOrder(newOrder())).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await store.health()).ok).toBe(false);
  });

  test('a write blocked by another process past the busy timeout is STORE_UNAVAILABLE', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const store = createSqliteStore({ file, busyTimeoutMs: 50 });
    await store.init();
    t.onTestFinished(() => store.close());
    const other = new Database(file);
    t.onTestFinished(() => {
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    await expect(store.createOrder(newOrder())).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    other.exec('ROLLBACK');
    expect((await store.createOrder(newOrder())).orderNumber).toBe('AX25-0001');
  });

  test('rows that fail the domain schema are refused at the boundary, not passed on', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const store = createSqliteStore({ file });
    await store.init();
    t.onTestFinished(() => store.close());
    const o = await store.createOrder(newOrder());
    const db = new Database(file);
    db.prepare("UPDATE orders SET items = '[]' WHERE id = ?").run(o.id);
    db.close();
    await expect(store.getOrder(o.id)).rejects.toThrow();
  });
});
