import path from 'node:path';
import { describe, expect, type TestContext, test, vi } from 'vitest';
import { type CachedOrderStore, createCachedStore } from '../../../src/services/store/cached-store.js';
import type { ChangeFeed, StoreChange } from '../../../src/services/store/change-feed.js';
import type { OrderStore } from '../../../src/services/store/port.js';
import { createSqliteStore } from '../../../src/services/store/sqlite/index.js';
import { tempDir } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';
import { describeStoreConformance } from './conformance.js';

async function sqlite(t: TestContext): Promise<OrderStore> {
  const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
  await store.init();
  t.onTestFinished(() => store.close());
  return store;
}

describeStoreConformance('cached sqlite', async (t) => createCachedStore(await sqlite(t), { ttlMs: 30_000 }));

/** Counts the calls that reach the backend. */
function counting(inner: OrderStore) {
  const calls: Record<string, number> = {};
  const proxy = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy as OrderStore, calls };
}

/** A feed the test drives by hand, standing in for another process's notices. */
function manualFeed() {
  const listeners = new Set<(c: StoreChange) => void>();
  const feed: ChangeFeed & { emit(c: StoreChange): void; coherent: boolean } = {
    coherent: true,
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit(c) {
      for (const l of listeners) l(c);
    },
  };
  return feed;
}

/** Resolves once no background refresh is under way. */
async function settled(store: CachedOrderStore): Promise<void> {
  await vi.waitFor(() => expect(store.stats().refreshing).toBe(0), { timeout: 5000, interval: 2 });
}

/** A gate a test opens by hand. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

describe('cached store', () => {
  test('reads are served from memory until the TTL ends', async (t) => {
    let clock = 1_000_000;
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000, now: () => clock });
    const o = await store.createOrder(newOrder());
    await store.summary();
    await store.listOrders({ statuses: ['pending'] });
    for (let i = 0; i < 5; i++) {
      expect(await store.getOrder(o.id)).toEqual(o);
      expect(await store.getOrder(o.orderNumber.toLowerCase())).toEqual(o);
      expect((await store.listOrders({ statuses: ['pending'] })).map((x) => x.id)).toEqual([o.id]);
      expect((await store.summary()).pendingCount).toBe(1);
    }
    expect(calls.getOrder ?? 0).toBe(0); // the create filled it
    expect(calls.listOrders).toBe(1);
    expect(calls.summary).toBe(1);
    clock += 30_000;
    await store.getOrder(o.id);
    await store.listOrders({ statuses: ['pending'] });
    await settled(store);
    expect(calls.getOrder).toBe(1);
    expect(calls.listOrders).toBe(2);
    expect(store.stats().hits).toBeGreaterThan(10);
  });

  test('admin push subscriptions: read once per TTL, dropped by a subscription saved or deleted through it', async (t) => {
    let clock = 1_000_000;
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000, now: () => clock });
    const sub = {
      endpoint: 'https://push.example.net/send/abc',
      p256dh: 'BPublicKey',
      auth: 'authSecret',
      scope: 'admin' as const,
      orderId: null,
      createdAt: '2026-07-05T09:00:00.000Z',
    };
    expect(await store.listPushSubscriptions({ scope: 'admin' })).toEqual([]);
    expect(await store.listPushSubscriptions({ scope: 'admin' })).toEqual([]);
    expect(calls.listPushSubscriptions).toBe(1);

    await store.savePushSubscription(sub);
    const admins = await store.listPushSubscriptions({ scope: 'admin' });
    expect(admins.map((s) => s.endpoint)).toEqual([sub.endpoint]);
    expect(Object.isFrozen(admins[0])).toBe(true);
    await store.listPushSubscriptions({ scope: 'admin' });
    expect(calls.listPushSubscriptions).toBe(2);

    // Per-order lists always go to the backend.
    await store.listPushSubscriptions({ orderId: 'x' });
    await store.listPushSubscriptions({ orderId: 'x' });
    expect(calls.listPushSubscriptions).toBe(4);

    await store.deletePushSubscription(sub.endpoint);
    expect(await store.listPushSubscriptions({ scope: 'admin' })).toEqual([]);
    expect(calls.listPushSubscriptions).toBe(5);

    // Another process's subscription shows once the entry expires (no feed for subscriptions).
    await inner.savePushSubscription(sub);
    expect(await store.listPushSubscriptions({ scope: 'admin' })).toEqual([]);
    clock += 30_000;
    await store.listPushSubscriptions({ scope: 'admin' });
    await settled(store);
    expect((await store.listPushSubscriptions({ scope: 'admin' })).map((s) => s.endpoint)).toEqual([sub.endpoint]);
  });

  test('no stale read after a write made through it: the order, lists, summary and settings refresh', async (t) => {
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000 });
    const o = await store.createOrder(newOrder());
    expect((await store.listOrders()).length).toBe(1);
    expect((await store.summary()).pendingCount).toBe(1);
    expect(await store.getOrder('AX25-0002')).toBeNull(); // cached as "no such order"

    const paid = await store.updateOrder(o.id, { status: 'paid' });
    expect(await store.getOrder(o.orderNumber)).toEqual(paid.order);
    expect((await store.summary()).completedCount).toBe(1);
    expect((await store.listOrders({ statuses: ['paid'] })).map((x) => x.id)).toEqual([o.id]);

    const second = await store.createOrder(newOrder());
    expect(second.orderNumber).toBe('AX25-0002');
    expect(await store.getOrder('AX25-0002')).toEqual(second);
    expect((await store.listOrders()).length).toBe(2);

    const fb = await store.appendFeedback(o.id, 'great', new Date());
    expect((await store.getOrder(o.id))?.feedback).toBe(fb.feedback);
    const shipped = await store.setShipping(o.id, { shipped: true, trackingNumber: 'T1' });
    expect(await store.getOrder(o.id)).toEqual(shipped.order);

    expect(await store.getEventSettings('AX2025')).toBeNull();
    const s = await store.putEventSettings('AX2025', { orderingEnabled: false });
    expect(await store.getEventSettings('AX2025')).toEqual(s);
    expect(await store.listEventSettings()).toEqual([s]);
    await store.putEventSettings('AX2025', { orderingEnabled: true });
    expect((await store.getEventSettings('AX2025'))?.orderingEnabled).toBe(true);
    expect(calls.getEventSettings).toBe(1);
  });

  test('a failed write forgets the order, so the next read goes to the backend', async (t) => {
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000 });
    const o = await store.createOrder(newOrder());
    await store.updateOrder(o.id, { status: 'void' });
    await expect(store.updateOrder(o.id, { status: 'paid' })).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    expect((await store.getOrder(o.id))?.status).toBe('void');
    expect(calls.getOrder).toBe(1);
  });

  test('cached records are frozen; lists are fresh arrays', async (t) => {
    const store = createCachedStore(await sqlite(t), { ttlMs: 30_000 });
    const o = await store.createOrder(newOrder());
    const read = await store.getOrder(o.id);
    expect(Object.isFrozen(read)).toBe(true);
    expect(Object.isFrozen(read?.items[0])).toBe(true);
    expect(() => {
      (read as { status: string }).status = 'paid';
    }).toThrow(TypeError);
    const list = await store.listOrders();
    list.pop();
    expect(await store.listOrders()).toHaveLength(1);
  });

  test('concurrent identical reads share one backend call', async (t) => {
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000 });
    await inner.createOrder(newOrder());
    const results = await Promise.all(Array.from({ length: 20 }, () => store.listOrders()));
    expect(results.every((r) => r.length === 1)).toBe(true);
    expect(calls.listOrders).toBe(1);
  });

  test('a read that overlaps a write does not put stale data in the cache', async (t) => {
    const base = await sqlite(t);
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // A backend whose getOrder answers with what it read before a write finished.
    const slow: OrderStore = {
      ...base,
      async getOrder(ref) {
        const before = await base.getOrder(ref);
        await gate;
        return before;
      },
    };
    const store = createCachedStore(slow, { ttlMs: 30_000 });
    const o = await base.createOrder(newOrder());
    const staleRead = store.getOrder(o.id);
    await new Promise((r) => setTimeout(r, 5));
    const paid = await store.updateOrder(o.id, { status: 'paid' });
    release();
    expect((await staleRead)?.status).toBe('pending'); // that read began before the write
    expect(await store.getOrder(o.id)).toEqual(paid.order); // but did not overwrite the cache
  });

  test('changes reported by the feed drop what they touch; an incoherent feed means read-through', async (t) => {
    const { store: base, calls } = counting(await sqlite(t));
    const feed = manualFeed();
    const store = createCachedStore(Object.assign(Object.create(base) as OrderStore, { changes: feed }), {
      ttlMs: 30_000,
    });
    const o = await base.createOrder(newOrder());
    await store.getOrder(o.id);
    await store.getOrder(o.orderNumber);
    await store.listOrders();
    await store.getEventSettings('AX2025');
    expect(calls.getOrder).toBe(1); // one read filled both keys (id and number)
    // another process pays it
    await base.updateOrder(o.id, { status: 'paid' });
    expect((await store.getOrder(o.id))?.status).toBe('pending'); // not told yet
    feed.emit({ kind: 'order', id: o.id });
    expect((await store.getOrder(o.orderNumber))?.status).toBe('paid');
    expect((await store.listOrders())[0]?.status).toBe('paid');
    // event settings
    await base.putEventSettings('AX2025', { isArchived: true });
    feed.emit({ kind: 'event', eventSlug: 'AX2025' });
    expect((await store.getEventSettings('AX2025'))?.isArchived).toBe(true);
    // feed down: every read goes through
    feed.coherent = false;
    const before = calls.getOrder ?? 0;
    await store.getOrder(o.id);
    await store.getOrder(o.id);
    expect(calls.getOrder).toBe(before + 2);
    // back: told to drop everything, then cached again
    feed.emit({ kind: 'all' });
    feed.coherent = true;
    await store.getOrder(o.id);
    await store.getOrder(o.id);
    expect(calls.getOrder).toBe(before + 3);
  });

  test('a full cache drops the least recently used lookups and still answers everything', async (t) => {
    const { store: inner, calls } = counting(await sqlite(t));
    // four lookup keys: two orders (id and number each)
    const store = createCachedStore(inner, { ttlMs: 30_000, maxEntries: 4 });
    const a = await store.createOrder(newOrder());
    const b = await store.createOrder(newOrder());
    expect(await store.getOrder(a.id)).toEqual(a); // a is now the most recently used
    const c = await store.createOrder(newOrder());
    expect(store.stats().entries).toBe(4);
    expect(calls.getOrder ?? 0).toBe(0);
    // c's two keys pushed out the two least recently used: a's number, then b's id
    expect(await store.getOrder(a.id)).toEqual(a);
    expect(await store.getOrder(b.orderNumber)).toEqual(b);
    expect(await store.getOrder(c.orderNumber)).toEqual(c);
    expect(calls.getOrder ?? 0).toBe(0);
    expect(await store.getOrder(b.id)).toEqual(b);
    expect(await store.getOrder(a.orderNumber)).toEqual(a);
    expect(calls.getOrder).toBe(2);
    expect(store.stats().entries).toBe(4);
  });

  test('ttlMs 0 turns the cache off', async (t) => {
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 0 });
    const o = await store.createOrder(newOrder());
    await store.getOrder(o.id);
    await store.getOrder(o.id);
    expect(calls.getOrder).toBe(2);
  });

  test('health carries the backend details and the cache state', async (t) => {
    const store = createCachedStore(await sqlite(t), { ttlMs: 30_000 });
    const h = await store.health();
    expect(h.ok).toBe(true);
    expect(h.details).toMatchObject({ backend: 'sqlite', cache: { ttlMs: 30_000, coherent: true } });
  });

  test('past the TTL the cached value is answered at once and refreshed in the background', async (t) => {
    let clock = 1_000_000;
    const { store: inner, calls } = counting(await sqlite(t));
    const store = createCachedStore(inner, { ttlMs: 30_000, now: () => clock });
    const first = await store.createOrder(newOrder());
    expect((await store.listOrders()).map((o) => o.id)).toEqual([first.id]);
    // another process adds an order; the TTL runs out
    const second = await inner.createOrder(newOrder());
    clock += 30_000;
    const stale = await store.listOrders();
    expect(stale.map((o) => o.id)).toEqual([first.id]); // not waited for
    expect(store.stats()).toMatchObject({ staleHits: 1, refreshes: 1 });
    await settled(store);
    expect((await store.listOrders()).map((o) => o.id)).toEqual([second.id, first.id]);
    expect(calls.listOrders).toBe(2);
    // the same for a single order and the summary
    await store.getOrder(first.id); // stale too: refreshed
    await store.summary();
    await settled(store);
    await inner.updateOrder(first.id, { status: 'paid' });
    clock += 30_000;
    expect((await store.getOrder(first.id))?.status).toBe('pending');
    expect((await store.summary()).completedCount).toBe(0);
    await settled(store);
    expect((await store.getOrder(first.id))?.status).toBe('paid');
    expect((await store.summary()).completedCount).toBe(1);
  });

  test('one refresh per entry at a time, however many reads find it stale', async (t) => {
    let clock = 1_000_000;
    const base = await sqlite(t);
    let listCalls = 0;
    let hold = gate();
    const slow: OrderStore = {
      ...base,
      async listOrders(query) {
        listCalls++;
        const list = await base.listOrders(query);
        await hold.opened;
        return list;
      },
    };
    const store = createCachedStore(slow, { ttlMs: 30_000, now: () => clock });
    await base.createOrder(newOrder());
    hold.open();
    await store.listOrders();
    hold = gate();
    clock += 30_000;
    const reads = await Promise.all(Array.from({ length: 20 }, () => store.listOrders()));
    expect(reads.every((r) => r.length === 1)).toBe(true);
    await vi.waitFor(() => expect(listCalls).toBe(2));
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 5; i++) await store.listOrders();
    expect(listCalls).toBe(2);
    expect(store.stats()).toMatchObject({ refreshes: 1, refreshing: 1 });
    hold.open();
    await settled(store);
    await store.listOrders();
    expect(listCalls).toBe(2); // fresh again
  });

  test('a failed refresh keeps the stale value and is logged; past the stale window reads wait for the backend', async (t) => {
    let clock = 1_000_000;
    const base = await sqlite(t);
    let failing = false;
    const flaky: OrderStore = {
      ...base,
      async listOrders(query) {
        if (failing) throw new Error('backend down');
        return base.listOrders(query);
      },
    };
    const warnings: unknown[][] = [];
    const log = { debug() {}, info() {}, error() {}, warn: (...args: unknown[]) => warnings.push(args) };
    const store = createCachedStore(flaky, { ttlMs: 30_000, staleMs: 10_000, now: () => clock, log });
    const o = await store.createOrder(newOrder());
    await store.listOrders();
    failing = true;
    clock += 30_000;
    expect((await store.listOrders()).map((x) => x.id)).toEqual([o.id]);
    await settled(store);
    expect(store.stats().refreshErrors).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[1]).toMatch(/refresh failed/);
    // still served (and retried) within the window
    clock += 9_999;
    expect((await store.listOrders()).map((x) => x.id)).toEqual([o.id]);
    await settled(store);
    expect(store.stats().refreshErrors).toBe(2);
    // past it: the read goes to the backend and gets its error
    clock += 1;
    await expect(store.listOrders()).rejects.toThrow('backend down');
    failing = false;
    expect(await store.listOrders()).toHaveLength(1);
  });

  test('a refresh that overlaps a write made through the cache never installs what it read before the write', async (t) => {
    let clock = 1_000_000;
    const base = await sqlite(t);
    const hold = gate();
    let holding = false;
    // A backend whose reads answer with what they saw before a write finished.
    const slow: OrderStore = {
      ...base,
      async getOrder(ref) {
        const before = await base.getOrder(ref);
        if (holding) await hold.opened;
        return before;
      },
      async listOrders(query) {
        const before = await base.listOrders(query);
        if (holding) await hold.opened;
        return before;
      },
    };
    const store = createCachedStore(slow, { ttlMs: 30_000, now: () => clock });
    const o = await store.createOrder(newOrder());
    await store.getOrder(o.id);
    await store.listOrders({ statuses: ['pending'] });
    holding = true;
    clock += 30_000;
    // both entries are stale: the reads answer them and start refreshes, which read "pending"
    expect((await store.getOrder(o.id))?.status).toBe('pending');
    expect(await store.listOrders({ statuses: ['pending'] })).toHaveLength(1);
    await vi.waitFor(() => expect(store.stats().refreshing).toBe(2));
    await new Promise((r) => setTimeout(r, 10));
    holding = false;
    const paid = await store.updateOrder(o.id, { status: 'paid' });
    expect(await store.listOrders({ statuses: ['pending'] })).toEqual([]);
    hold.open();
    await settled(store);
    expect(await store.getOrder(o.id)).toEqual(paid.order);
    expect(await store.listOrders({ statuses: ['pending'] })).toEqual([]);
    expect((await store.listOrders({ statuses: ['paid'] })).map((x) => x.id)).toEqual([o.id]);
  });

  test('a change announced by the feed is never answered stale, even past the TTL', async (t) => {
    let clock = 1_000_000;
    const { store: base, calls } = counting(await sqlite(t));
    const feed = manualFeed();
    const store = createCachedStore(Object.assign(Object.create(base) as OrderStore, { changes: feed }), {
      ttlMs: 30_000,
      now: () => clock,
    });
    const o = await base.createOrder(newOrder());
    await store.getOrder(o.id);
    await store.listOrders();
    clock += 30_000; // stale now
    await base.updateOrder(o.id, { status: 'paid' });
    feed.emit({ kind: 'order', id: o.id });
    expect((await store.getOrder(o.id))?.status).toBe('paid');
    expect((await store.listOrders())[0]?.status).toBe('paid');
    expect(store.stats().staleHits).toBe(0);
    expect(calls.getOrder).toBe(2);
  });

  test('a reloaded list answers unchanged orders with the same frozen objects as before', async (t) => {
    let clock = 1_000_000;
    const base = await sqlite(t);
    const store = createCachedStore(base, { ttlMs: 30_000, now: () => clock });
    const a = await store.createOrder(newOrder());
    const b = await store.createOrder(newOrder());
    const before = await store.listOrders();
    await base.appendFeedback(a.id, 'thanks', new Date()); // another process changes one
    clock += 30_000;
    await store.listOrders();
    await settled(store);
    const after = await store.listOrders();
    expect(after.map((o) => o.id)).toEqual([b.id, a.id]);
    expect(after[0]).toBe(before[0]); // b: unchanged, the same object
    expect(after[1]).not.toBe(before[1]); // a: changed, a new one
    expect(after[1]?.feedback).toContain('thanks');
    expect(Object.isFrozen(after[1])).toBe(true);
    expect(Object.isFrozen(after[1]?.items)).toBe(true);
    expect(Object.isFrozen(after[1]?.items[0])).toBe(true);
  });
});
