/**
 * How the SQLite engine makes a commit durable (src/services/store/engines/sqlite/wal-sync.ts):
 * the connection runs at NORMAL; a durable transaction resolves only after an fdatasync of the
 * WAL (in the sync thread), shared with whatever committed meanwhile; a relaxed one doesn't wait.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, type TestContext, test } from 'vitest';
import { isAppError } from '../../../../src/errors/catalogue.js';
import type { SqliteEngineOptions } from '../../../../src/services/store/engines/sqlite/engine.js';
import { fdatasyncFile } from '../../../../src/services/store/engines/sqlite/wal-sync.js';
import { isOutcomeUnknown } from '../../../../src/services/store/errors.js';
import { openStore } from '../../../../src/services/store/store.js';
import { tempDir } from '../../../helpers/build.js';
import { recordingLogger } from '../../../support/recording-logger.js';
import { newOrder } from '../../../support/store-fixtures.js';

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
const by = { by: 'customer' } as const;

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

/** A store in a temp dir whose WAL syncs wait for the test (closed after it). */
async function gatedStore(t: TestContext, extra: Partial<SqliteEngineOptions> = {}) {
  const file = path.join(await tempDir(t), 'orders.db');
  const gate = gatedSync();
  const store = await openStore({ engine: 'sqlite', file, walSync: gate.sync, ...extra });
  t.onTestFinished(() => store.close());
  return { file, gate, store };
}

describe('sqlite: durable commits are synced off the event loop', () => {
  test('the connection runs at NORMAL; no create resolves before the WAL sync returns; then all do, numbered in order', async (t) => {
    const { file, gate, store } = await gatedStore(t);
    expect(store.db.synchronous).toBe(1);
    let resolved = 0;
    const batch = Array.from({ length: 10 }, () =>
      store.orders.create(newOrder(), by).then((o) => {
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

  test('writes committed while a sync runs share the next one; the event loop goes on meanwhile', async (t) => {
    const { gate, store } = await gatedStore(t);
    const first = store.orders.create(newOrder(), by);
    await settle();
    expect(gate.calls).toHaveLength(1);
    // The store still answers reads while the sync is under way.
    expect((await store.orders.get('AX25-0001'))?.orderNumber).toBe('AX25-0001');
    const later = [store.orders.create(newOrder(), by), store.eventSettings.put('AX2025', { orderingEnabled: false })];
    await settle();
    // each durable transaction asks for its own sync (the real thread lets calls made before a
    // sync starts share it: sqlite-wal-sync-thread.test.ts)
    expect(gate.calls.length).toBeGreaterThanOrEqual(2);
    for (const c of gate.calls) c.release();
    await first;
    await settle();
    for (const c of gate.calls) c.release();
    await Promise.all(later);
  });

  test('relaxed bookkeeping (mail leases, sent/failed, key reservations, CAPTCHA spends) waits for no sync', async (t) => {
    const { file, gate, store } = await gatedStore(t);
    const order = store.orders.create(newOrder(), { ...by, mail: [{ kind: 'receipt', orderId: null, payload: {} }] });
    await settle();
    gate.calls[0]?.release();
    const { id } = await order;
    const syncsBefore = gate.calls.length;
    const [job] = await store.outbox.claimDue(new Date(), 10, 60_000);
    expect(job?.orderId).toBe(id);
    await store.outbox.markFailed(job?.id ?? '', 'refused', new Date());
    const [again] = await store.outbox.claimDue(new Date(), 10, 60_000);
    await store.outbox.markSent(again?.id ?? '', 'file', new Date());
    expect(await store.idempotencyKeys.reserve(rec('k1'))).toEqual({ reserved: true });
    expect(await store.captchaTokens.spend('token-hash', new Date(Date.now() + 60_000))).toBe(true);
    expect(gate.calls).toHaveLength(syncsBefore);
    // Committed: on disk once the WAL is synced (here: by the close's checkpoint).
    await store.close();
    const reader = new Database(file, { readonly: true });
    t.onTestFinished(() => {
      reader.close();
    });
    expect(reader.prepare('SELECT sent_via, attempts FROM mail_jobs').all()).toEqual([
      { sent_via: 'file', attempts: 1 },
    ]);
    expect(reader.prepare('SELECT key FROM idempotency_keys').pluck().all()).toEqual(['k1']);
  });

  test('a failed sync: the write fails as "outcome unknown", the store refuses everything until a restart, which keeps what reached the disk', async (t) => {
    const log = recordingLogger();
    const { file, gate, store } = await gatedStore(t, { log });
    const first = store.orders.create(newOrder(), by);
    await settle();
    gate.calls[0]?.release();
    await first;
    const batch = Promise.allSettled([store.orders.create(newOrder(), by), store.orders.create(newOrder(), by)]);
    await settle();
    gate.calls[1]?.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    for (const r of await batch) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason;
      expect(isAppError(reason) && reason.code).toBe('STORE_UNAVAILABLE');
      expect(isOutcomeUnknown(reason)).toBe(true);
    }
    const errors = log.entries.filter((e) => e.level === 'error').map((e) => e.msg ?? '');
    expect(errors.filter((m) => m.includes('could not be made durable'))).toHaveLength(1);
    // Fail-stop: writes and reads alike, and /readyz through health().
    await expect(store.orders.create(newOrder(), by)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(store.orders.get('AX25-0001')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await store.health()).ok).toBe(false);
    await store.close();

    // A restart recovers the file (here the frames did reach the disk: only the sync "failed").
    const again = await openStore({ engine: 'sqlite', file });
    t.onTestFinished(() => again.close());
    expect((await again.orders.list()).map((o) => o.orderNumber).sort()).toEqual([
      'AX25-0001',
      'AX25-0002',
      'AX25-0003',
    ]);
    expect((await again.orders.create(newOrder(), by)).orderNumber).toBe('AX25-0004');
  });

  test('the real sync: concurrent creates through fdatasync all land, and survive a reopen', async (t) => {
    const file = path.join(await tempDir(t), 'orders.db');
    const fds: number[] = [];
    const walSync = (fd: number) => {
      fds.push(fd);
      return fdatasyncFile(fd);
    };
    const store = await openStore({ engine: 'sqlite', file, walSync });
    const orders = await Promise.all(Array.from({ length: 50 }, () => store.orders.create(newOrder(), by)));
    expect(new Set(orders.map((o) => o.orderNumber)).size).toBe(50);
    expect(fds.length).toBeGreaterThan(0);
    expect(fds.length).toBeLessThan(50); // group-committed
    await store.close();
    const again = await openStore({ engine: 'sqlite', file });
    t.onTestFinished(() => again.close());
    expect(await again.orders.list()).toHaveLength(50);
  });
});
