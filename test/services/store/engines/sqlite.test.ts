/**
 * The SQLite engine (src/services/store/engines/sqlite/engine.ts): the file, its migrations
 * (an upgrade of the databases earlier versions left), start-up failures, and what happens
 * with a second process on the same file. The ports' behaviour: test/services/store/ports/.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../../../src/config/env.js';
import { SQLITE_MIGRATIONS } from '../../../../src/services/store/engines/sqlite/migrations.js';
import { LIST_SLICE } from '../../../../src/services/store/sql/order-lists.js';
import { openStore } from '../../../../src/services/store/store.js';
import { tempDir } from '../../../helpers/build.js';
import { recordingLogger } from '../../../support/recording-logger.js';
import { reopenStore, sqliteStore } from '../../../support/store-engines.js';
import { ADMIN, newOrder } from '../../../support/store-fixtures.js';

const by = { by: 'customer' } as const;

/** An order row as versions 1 and 2 wrote it (v2 adds prefix and seq). */
function oldRow(n: number, over: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    order_number: `AX25-000${n}`,
    event_slug: 'AX2025',
    created_at: `2026-11-01T10:00:0${n}.000Z`,
    updated_at: `2026-11-01T10:00:0${n}.000Z`,
    customer_name: `Customer ${n}`,
    customer_email: 'c@example.com',
    customer_phone: '',
    fulfillment_type: 'ship',
    shipping_address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip_code: '62701',
    items: JSON.stringify([{ photoNumber: '12', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 }]),
    subtotal_cents: 500,
    shipping_fee_cents: 500,
    total_cents: 1000,
    status: 'paid',
    shipping_status: 'ship',
    tracking_number: '',
    feedback: '',
    held: 0,
    hold_expires_at: null,
    address_verified: 1,
    channel: 'web',
    ...over,
  };
}

function insertOld(db: Database.Database, row: Record<string, unknown>) {
  const cols = Object.keys(row);
  db.prepare(`INSERT INTO orders (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
}

describe('sqlite engine', () => {
  test('the file is in WAL mode, the connection at NORMAL (a durable commit syncs the WAL), migrated to the latest version', async (t) => {
    const file = path.join(await tempDir(t), 'nested', 'orders.db');
    const store = await sqliteStore(t, file);
    expect(store.db.synchronous).toBe(1);
    await store.orders.create(newOrder(), by);
    const db = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      db.close();
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
    // Numbers and lookups by number go through the (prefix, seq) key, never a scan.
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
    expect(plan("SELECT max(seq) FROM orders WHERE prefix = 'AX25'")).toMatch(/USING COVERING INDEX/);
    expect(plan("SELECT * FROM orders WHERE id = 'a' OR id = 'b' OR (prefix = 'AX25' AND seq = 1)")).not.toMatch(
      /SCAN orders/,
    );
  });

  test('start-up says what its migrations did in one plain line (each step at debug): a new database, or one updated', async (t) => {
    const dir = await tempDir(t);
    const fresh = recordingLogger('debug');
    const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'orders.db'), log: fresh });
    await store.close();
    const info = (l: typeof fresh) => l.entries.filter((e) => e.level === 'info' && /database/.test(e.msg ?? ''));
    expect(info(fresh).map((e) => e.msg)).toEqual([
      `order store: a new, empty order database was made (${path.join(dir, 'orders.db')})`,
    ]);
    expect(fresh.entries.filter((e) => e.msg === 'order store: SQLite migration applied').map((e) => e.level)).toEqual(
      SQLITE_MIGRATIONS.map(() => 'debug'),
    );

    // A database of an earlier version (8): the line names what changed.
    const file = path.join(dir, 'old.db');
    const raw = new Database(file);
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= 8)) raw.exec(m.sql);
    raw.pragma('user_version = 8');
    raw.close();
    const upgraded = recordingLogger('info');
    const old = await openStore({ engine: 'sqlite', file, log: upgraded });
    await old.close();
    const [line] = info(upgraded);
    expect(line?.msg).toContain('was updated for this version of the server:');
    expect(line?.msg).toContain(SQLITE_MIGRATIONS.at(-1)?.name);
    expect(line?.obj).toMatchObject({ from: 8, to: SQLITE_MIGRATIONS.at(-1)?.version });
    expect(upgraded.entries.some((e) => e.msg === 'order store: SQLite migration applied')).toBe(false);
  });

  test('an order of digital files only, stored before such orders were "digital", reads back as digital', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const store = await sqliteStore(t, file);
    const digital = [{ photoNumber: '3', size: 'Digital', quantity: 1, unitCents: 800, lineCents: 800 }];
    const made = await store.orders.create(newOrder({ items: digital, fulfillmentType: 'ship' }), by);
    expect(made).toMatchObject({ fulfillmentType: 'digital', shippingStatus: 'digital', pickupStatus: null });
    // What an earlier version wrote for it: a pickup order waiting at the booth.
    const raw = new Database(file);
    t.onTestFinished(() => {
      raw.close();
    });
    expect(raw.prepare('SELECT fulfillment_type, shipping_status FROM orders').get()).toEqual({
      fulfillment_type: 'pickup',
      shipping_status: 'pickup',
    });
    raw.prepare("UPDATE orders SET pickup_status = 'waiting', version = version + 1").run();
    const other = await reopenStore(t, store);
    expect(await other.orders.get(made.id)).toMatchObject({
      fulfillmentType: 'digital',
      shippingStatus: 'digital',
      pickupStatus: null,
    });
  });

  test('a version 1 database is upgraded: orders, keys, settings and mail kept; pickup orders say pickup; history begins; numbering continues', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
    raw.pragma('user_version = 1');
    insertOld(raw, oldRow(1));
    insertOld(
      raw,
      oldRow(2, { fulfillment_type: 'pickup', shipping_fee_cents: 0, total_cents: 500, channel: 'booth' }),
    );
    insertOld(raw, oldRow(3, { status: 'pending', feedback: '[2026-11-02T10:00:00.000Z] nice' }));
    raw.exec(`INSERT INTO order_sequences (prefix, last) VALUES ('AX25', 3);
      INSERT INTO idempotency_keys VALUES ('k', 'f', 'done', 201, '{"orderNumber":"AX25-0003"}', '2026-11-01T10:00:00.000Z', '2099-01-01T00:00:00.000Z');
      INSERT INTO event_settings VALUES ('AX2025', '{"eventSlug":"AX2025","orderingEnabled":false,"updatedAt":"2026-11-01T10:00:00.000Z"}', '2026-11-01T10:00:00.000Z');
      INSERT INTO mail_jobs (id, kind, order_id, payload, attempts, next_attempt_at, created_at)
        VALUES ('m1', 'receipt', '00000000-0000-4000-8000-000000000003', '{}', 0, '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:00.000Z');`);
    raw.close();

    const store = await sqliteStore(t, file);
    const [one, two, three] = await Promise.all(
      ['AX25-0001', 'ax25-0002', 'AX25-0003'].map((n) => store.orders.get(n)),
    );
    expect(one).toMatchObject({
      id: '00000000-0000-4000-8000-000000000001',
      status: 'paid',
      shippingStatus: 'ship',
      version: 1,
      history: [{ at: '2026-11-01T10:00:01.000Z', action: 'create', to: 'pending', by: 'customer' }],
    });
    expect(two).toMatchObject({ fulfillmentType: 'pickup', shippingStatus: 'pickup', history: [{ by: 'admin' }] });
    expect(three?.feedback).toBe('[2026-11-02T10:00:00.000Z] nice');
    // every change from now on is recorded
    const paid = await store.orders.update('AX25-0003', { status: 'paid' }, { by: ADMIN });
    expect(paid.order).toMatchObject({ version: 2, history: [{ action: 'create' }, { action: 'status', by: ADMIN }] });
    expect((await store.orders.create(newOrder(), by)).orderNumber).toBe('AX25-0004');
    expect(
      await store.idempotencyKeys.reserve({
        key: 'k',
        fingerprint: 'f',
        createdAt: new Date().toISOString(),
        expiresAt: '2099-01-02T00:00:00.000Z',
      }),
    ).toMatchObject({
      reserved: false,
      existing: { state: 'done', responseBody: '{"orderNumber":"AX25-0003"}', orderId: null },
    });
    expect(await store.eventSettings.get('AX2025')).toMatchObject({ orderingEnabled: false });
    expect(await store.outbox.pendingCount()).toBe(1);
    expect(await store.captchaTokens.spend('h', new Date(Date.now() + 60_000))).toBe(true);

    const check = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      check.close();
    });
    expect(check.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')").pluck().all();
    expect(tables).not.toContain('order_sequences');
    expect(tables).toEqual(expect.arrayContaining(['orders_holds', 'captcha_tokens']));
  });

  test('a version 2 database (numbered by prefix and seq) is upgraded the same way', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
    raw.exec(SQLITE_MIGRATIONS[1]?.sql ?? '');
    raw.pragma('user_version = 2');
    insertOld(raw, { ...oldRow(1), prefix: 'AX25', seq: 1 });
    insertOld(raw, {
      ...oldRow(2, { order_number: 'ZZ-10000', fulfillment_type: 'pickup' }),
      prefix: 'ZZ',
      seq: 10_000,
    });
    raw.close();
    const store = await sqliteStore(t, file);
    expect(await store.orders.get('zz-10000')).toMatchObject({ shippingStatus: 'pickup', version: 1 });
    expect((await store.orders.create(newOrder({ prefix: 'ZZ' }), by)).orderNumber).toBe('ZZ-10001');
    expect((await store.orders.list()).map((o) => o.orderNumber)).toEqual(['ZZ-10001', 'ZZ-10000', 'AX25-0001']);
  });

  test('orders survive a reopen; the sequence continues; migrations are not re-run', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const first = await openStore({ engine: 'sqlite', file });
    const a = await first.orders.create(newOrder(), by);
    await first.close();
    const second = await sqliteStore(t, file);
    expect(await second.orders.get(a.id)).toEqual(a);
    expect((await second.orders.create(newOrder(), by)).orderNumber).toBe('AX25-0002');
  });

  test('round 2 upgrade: the coupon uses held orders took before are given back (their confirmation takes them)', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const first = await openStore({ engine: 'sqlite', file });
    await first.coupons.create({
      code: 'HELD2',
      eventSlug: null,
      kind: 'amount',
      value: 100,
      expiresAt: null,
      maxUses: 5,
      minSubtotalCents: 0,
      createdAt: new Date().toISOString(),
    });
    const confirmed = await first.orders.create(newOrder({ couponCode: 'HELD2' }), by);
    const holdExpiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const held = await first.orders.create(newOrder({ couponCode: 'HELD2', held: true, holdExpiresAt }), by);
    await first.close();
    // As version 9 left it: the held order had taken a use too, and round 2's columns are not there.
    const raw = new Database(file);
    raw.exec(`
      DROP INDEX takedowns_client; ALTER TABLE takedowns DROP COLUMN client;
      DROP INDEX photo_code_subscriptions_confirm; ALTER TABLE photo_code_subscriptions DROP COLUMN confirm_token;
      ALTER TABLE photo_code_subscriptions DROP COLUMN confirmed_at;
      UPDATE coupons SET uses = 2;
    `);
    // Tables of the migrations after 10 go too, so that applying them again finds none.
    const v9 = new Database(':memory:');
    for (const m of SQLITE_MIGRATIONS.filter((x) => x.version <= 9)) v9.exec(m.sql);
    const kept = new Set(v9.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    v9.close();
    for (const name of raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()) {
      if (!kept.has(name) && !String(name).startsWith('sqlite_')) raw.exec(`DROP TABLE "${String(name)}"`);
    }
    raw.pragma('user_version = 9');
    raw.close();

    const store = await sqliteStore(t, file);
    expect((await store.coupons.get('HELD2'))?.uses).toBe(1);
    // Confirming takes it again; the confirmed order keeps its own.
    await store.orders.releaseHold(held.id, by);
    expect((await store.coupons.get('HELD2'))?.uses).toBe(2);
    expect((await store.orders.get(confirmed.id))?.couponCode).toBe('HELD2');
  });

  test('two stores (two processes) on one file: unique numbers, and each sees the other’s changes at once', async (t) => {
    const a = await sqliteStore(t);
    const b = await reopenStore(t, a);
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).orders.create(newOrder(), by)));
    expect(new Set(made.map((o) => o.orderNumber)).size).toBe(50);
    const listedByA = await a.orders.list();
    expect(listedByA).toHaveLength(50);
    const target = made[0];
    if (!target) throw new Error('no order');
    await b.orders.update(target.id, { status: 'paid' }, { by: ADMIN });
    expect((await a.orders.get(target.id))?.status).toBe('paid');
    expect((await a.orders.list({ statuses: ['pending'] })).map((o) => o.id)).not.toContain(target.id);
    expect((await a.orders.list({ statuses: ['paid'] })).map((o) => o.id)).toEqual([target.id]);
  });

  test('long lists are read in slices, newest first, letting other work run between slices', async (t) => {
    const store = await sqliteStore(t);
    const { orders } = store;
    const n = LIST_SLICE * 2 + 7;
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) => orders.create(newOrder(i % 3 === 0 ? { eventSlug: 'OTHER' } : {}), by)),
    );
    await Promise.all(
      made.filter((_, i) => i % 5 === 0).map((o) => orders.update(o.id, { status: 'paid' }, { by: ADMIN })),
    );
    const newestFirst = [...made].reverse();
    // A fresh store on the file: nothing read yet, every order is parsed.
    const cold = await reopenStore(t, store);
    let ticks = 0;
    let reading = true;
    const tick = () => {
      ticks++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const all = await cold.orders.list();
    reading = false;
    expect(all.map((o) => o.orderNumber)).toEqual(newestFirst.map((o) => o.orderNumber));
    expect(ticks).toBeGreaterThan(0);
    const pending = await cold.orders.list({ statuses: ['pending'], eventSlug: 'AX2025' });
    expect(pending.map((o) => o.id)).toEqual(
      newestFirst.filter((o) => o.eventSlug === 'AX2025' && made.indexOf(o) % 5 !== 0).map((o) => o.id),
    );
  });

  test('an unusable DATA_DIR, a file that is not a database, or a newer schema stop start-up naming DATA_DIR', async (t) => {
    const dir = await tempDir(t);
    const notADir = path.join(dir, 'file');
    await writeFile(notADir, 'x');
    const inFile = openStore({ engine: 'sqlite', file: path.join(notADir, 'orders.db') });
    await expect(inFile).rejects.toThrow(ConfigError);
    await expect(inFile).rejects.toThrow(/^DATA_DIR: /);
    const garbage = path.join(dir, 'garbage.db');
    await writeFile(garbage, 'this is not sqlite '.repeat(100));
    await expect(openStore({ engine: 'sqlite', file: garbage })).rejects.toThrow(
      /DATA_DIR: cannot open the order database .*garbage\.db/,
    );
    const future = path.join(dir, 'future.db');
    const db = new Database(future);
    db.pragma('user_version = 999');
    db.close();
    await expect(openStore({ engine: 'sqlite', file: future })).rejects.toThrow(/DATA_DIR: .*schema version 999/);
  });

  test('a closed store answers STORE_UNAVAILABLE, and health says not ok', async (t) => {
    const store = await openStore({ engine: 'sqlite', file: path.join(await tempDir(t), 'orders.db') });
    await store.close();
    await expect(store.orders.get('x')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      statusCode: 503,
      headers: { 'Retry-After': '5' },
    });
    await expect(store.orders.create(newOrder(), by)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await store.health()).ok).toBe(false);
  });

  test('a write blocked by another process past the busy timeout is STORE_UNAVAILABLE', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const store = await openStore({ engine: 'sqlite', file, busyTimeoutMs: 50 });
    t.onTestFinished(() => store.close());
    const other = new Database(file);
    t.onTestFinished(() => {
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    await expect(store.orders.create(newOrder(), by)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    other.exec('ROLLBACK');
    expect((await store.orders.create(newOrder(), by)).orderNumber).toBe('AX25-0001');
  });

  test('rows that fail the domain schema are refused at the boundary, not passed on', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const store = await sqliteStore(t, file);
    const o = await store.orders.create(newOrder(), by);
    const db = new Database(file);
    db.prepare("UPDATE orders SET items = '[]', version = 2 WHERE id = ?").run(o.id);
    db.close();
    await expect(store.orders.get(o.id)).rejects.toThrow();
  });
});
