import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, type TestContext, test } from 'vitest';
import { isAppError } from '../../../src/errors/catalogue.js';
import { isOutcomeUnknown } from '../../../src/services/store/rules.js';
import { createSqliteStore, type SqliteStoreOptions } from '../../../src/services/store/sqlite/index.js';
import { fdatasyncFile, SyncLevelError, withoutSync } from '../../../src/services/store/sqlite/wal-sync.js';
import { tempDir } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';

/** A walSync whose calls wait until the test lets them go (or fail them). */
function gatedSync() {
  const calls: { fd: number; release: () => void; fail: (e: Error) => void }[] = [];
  const sync = (fd: number) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ fd, release: resolve, fail: reject });
    });
  return { calls, sync };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

/** An idempotency reservation for `key`, made now, valid for a day. */
function rec(key: string) {
  const now = new Date();
  return {
    key,
    fingerprint: `fp-${key}`,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
  };
}

/** A store in a temp dir whose batch syncs wait for the test (closed after it). */
async function gatedStore(t: TestContext, extra: Partial<SqliteStoreOptions> = {}) {
  const file = path.join(await tempDir(t), 'orders.db');
  const gate = gatedSync();
  const store = createSqliteStore({ file, walSync: gate.sync, ...extra });
  await store.init();
  t.onTestFinished(() => store.close());
  return { file, gate, store };
}

describe('sqlite: batches of creates are synced off the event loop', () => {
  test('no order of a batch resolves before the WAL sync returns; then all do, numbered in order', async (t) => {
    const { file, gate, store } = await gatedStore(t);

    let resolved = 0;
    const batch = Array.from({ length: 10 }, () =>
      store.createOrder(newOrder()).then((o) => {
        resolved++;
        return o;
      }),
    );
    await settle();
    expect(gate.calls).toHaveLength(1);
    expect(resolved).toBe(0);
    // Committed already (a reader sees the rows), but nobody has been told.
    const reader = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      reader.close();
    });
    expect(reader.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 10 });

    gate.calls[0]?.release();
    const orders = await Promise.all(batch);
    expect(orders.map((o) => o.orderNumber)).toEqual(
      Array.from({ length: 10 }, (_, i) => `AX25-${String(i + 1).padStart(4, '0')}`),
    );
  });

  test('a lone create commits with FULL itself (no sync call); the connection stays FULL between batches', async (t) => {
    const { gate, store } = await gatedStore(t);

    await store.createOrder(newOrder());
    expect(gate.calls).toHaveLength(0);
    const two = Promise.all([store.createOrder(newOrder()), store.createOrder(newOrder())]);
    await settle();
    expect(gate.calls).toHaveLength(1);
    // While the batch waits for its sync, another write (a status change) runs with FULL:
    // it resolves on its own, without the gate.
    const first = await store.getOrder('AX25-0001');
    const paid = await store.updateOrder(first?.id ?? '', { status: 'paid' });
    expect(paid.order.status).toBe('paid');
    gate.calls[0]?.release();
    expect((await two).map((o) => o.orderNumber)).toEqual(['AX25-0002', 'AX25-0003']);
  });

  test("the outbox's bookkeeping commits without a sync of its own, and leaves the connection at FULL", async (t) => {
    const { file, gate, store } = await gatedStore(t);
    const order = await store.createOrder(newOrder(), { mail: [{ kind: 'receipt', orderId: null, payload: {} }] });
    const [job] = await store.claimDueMail(new Date(), 10, 60_000);
    expect(job?.orderId).toBe(order.id);
    await store.markMailSent(job?.id ?? '', 'file', new Date());
    const [other] = await store.enqueueMail([{ kind: 'receipt', orderId: order.id, payload: {} }]);
    await store.claimDueMail(new Date(), 10, 60_000);
    await store.markMailFailed(other?.id ?? '', 'refused', new Date(Date.now() + 60_000));
    // None of them went through the batch sync, and a lone create after them still commits
    // with FULL on its own (no sync call): the connection was put back.
    expect(store.synchronous).toBe(2);
    await store.createOrder(newOrder());
    expect(gate.calls).toHaveLength(0);
    expect(await store.pendingMailCount()).toBe(1);
    // Committed: on disk once the WAL is synced (here: by the close's checkpoint).
    await store.close();
    const reader = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      reader.close();
    });
    const rows = reader.prepare('SELECT sent_via, attempts FROM mail_jobs ORDER BY created_at, id').all();
    expect(rows).toEqual([
      { sent_via: 'file', attempts: 0 },
      { sent_via: null, attempts: 1 },
    ]);
  });

  test('idempotency keys: a reservation commits without a sync; a completion and a release wait for the WAL sync', async (t) => {
    const { file, gate, store } = await gatedStore(t);
    // Resolves with nothing let through the gate: no sync of its own.
    expect(await store.reserveIdempotencyKey(rec('k1'))).toEqual({ reserved: true });
    expect(gate.calls).toHaveLength(0);

    let completed = false;
    const completing = store.completeIdempotencyKey('k1', 201, '{"orderNumber":"AX25-0001"}').then(() => {
      completed = true;
    });
    await settle();
    expect(gate.calls).toHaveLength(1);
    expect(completed).toBe(false);
    // Meanwhile the store answers: a lone create commits with FULL on its own.
    await store.createOrder(newOrder());
    expect(gate.calls).toHaveLength(1);
    gate.calls[0]?.release();
    await completing;
    expect(await store.reserveIdempotencyKey(rec('k1'))).toMatchObject({
      reserved: false,
      existing: { state: 'done', statusCode: 201, responseBody: '{"orderNumber":"AX25-0001"}' },
    });

    await store.reserveIdempotencyKey(rec('k2'));
    let released = false;
    const releasing = store.releaseIdempotencyKey('k2').then(() => {
      released = true;
    });
    await settle();
    expect(gate.calls).toHaveLength(2);
    expect(released).toBe(false);
    gate.calls[1]?.release();
    await releasing;
    expect(await store.reserveIdempotencyKey(rec('k2'))).toEqual({ reserved: true });
    expect(store.synchronous).toBe(2);

    // All of it is in the file.
    await store.close();
    const reader = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      reader.close();
    });
    expect(reader.prepare('SELECT key, status_code FROM idempotency_keys ORDER BY key').all()).toEqual([
      { key: 'k1', status_code: 201 },
      { key: 'k2', status_code: null },
    ]);
  });

  test('idempotency keys: a completion whose sync fails is "outcome unknown", and the store stops', async (t) => {
    const { gate, store } = await gatedStore(t);
    await store.reserveIdempotencyKey(rec('k'));
    const completing = store.completeIdempotencyKey('k', 201, '{}');
    await settle();
    gate.calls[0]?.fail(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const err = await completing.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(isAppError(err) && err.code).toBe('STORE_UNAVAILABLE');
    await expect(store.getOrder('AX25-0001')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });

  test('a failed sync: the batch fails as "outcome unknown", the store refuses everything until a restart, which keeps what reached the disk', async (t) => {
    const errors: string[] = [];
    const log = {
      info: () => {},
      warn: () => {},
      debug: () => {},
      error: (_o: object, msg?: string) => errors.push(msg ?? ''),
    };
    const { file, gate, store } = await gatedStore(t, { log });

    const first = await store.createOrder(newOrder());
    const batch = Promise.allSettled([store.createOrder(newOrder()), store.createOrder(newOrder())]);
    await settle();
    gate.calls[0]?.fail(new Error('EIO: i/o error, fdatasync'));
    const results = await batch;
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason;
      expect(isAppError(reason) && reason.code).toBe('STORE_UNAVAILABLE');
      expect(isOutcomeUnknown(reason)).toBe(true);
    }
    expect(errors.filter((m) => m.includes('could not be made durable'))).toHaveLength(1);
    // Fail-stop: writes and reads alike, and /readyz through health().
    await expect(store.createOrder(newOrder())).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(store.getOrder(first.id)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await store.health()).ok).toBe(false);
    await store.close();

    // A restart recovers the file (here the frames did reach the disk: only the sync "failed").
    const again = createSqliteStore({ file });
    await again.init();
    t.onTestFinished(() => again.close());
    expect((await again.listOrders()).map((o) => o.orderNumber).sort()).toEqual([
      'AX25-0001',
      'AX25-0002',
      'AX25-0003',
    ]);
    expect((await again.createOrder(newOrder())).orderNumber).toBe('AX25-0004');
  });

  test('the real sync: concurrent creates through fdatasync all land, and survive a reopen', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const fds: number[] = [];
    const walSync = (fd: number) => {
      fds.push(fd);
      return fdatasyncFile(fd);
    };
    const store = createSqliteStore({ file, walSync });
    await store.init();
    const orders = await Promise.all(Array.from({ length: 50 }, () => store.createOrder(newOrder())));
    expect(new Set(orders.map((o) => o.orderNumber)).size).toBe(50);
    expect(fds.length).toBeGreaterThan(0);
    await store.close();
    const again = createSqliteStore({ file });
    await again.init();
    t.onTestFinished(() => again.close());
    expect((await again.listOrders()).length).toBe(50);
  });

  test('withoutSync: the transaction runs at NORMAL, the connection is back at FULL after it, also after a throw', async (t) => {
    const db = new Database(path.join(await tempDir(t), 'x.db'));
    t.onTestFinished(() => {
      db.close();
    });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const level = () => db.pragma('synchronous', { simple: true });
    expect(withoutSync(db, level)).toBe(1);
    expect(level()).toBe(2);
    expect(() =>
      withoutSync(db, () => {
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(level()).toBe(2);
    // A transaction left open keeps SQLite from changing the level back: that is reported
    // as a SyncLevelError (the store stops on it), never swallowed.
    expect(() => withoutSync(db, () => db.exec('BEGIN'))).toThrow(SyncLevelError);
    db.exec('ROLLBACK');
    db.pragma('synchronous = FULL');
    // Why not prepared statements: SQLite applies the level when the PRAGMA is prepared, so
    // running a prepared NORMAL after preparing FULL changes nothing.
    const normal = db.prepare('PRAGMA synchronous = NORMAL');
    db.prepare('PRAGMA synchronous = FULL');
    normal.run();
    expect(level()).toBe(2);
  });
});
