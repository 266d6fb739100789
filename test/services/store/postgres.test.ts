import { describe, expect, test, vi } from 'vitest';
import { createCachedStore } from '../../../src/services/store/cached-store.js';
import { createPostgresStore } from '../../../src/services/store/postgres/index.js';
import { POSTGRES_MIGRATIONS } from '../../../src/services/store/postgres/migrations.js';
import { usePostgresServer } from '../../support/postgres-server.js';
import { newOrder } from '../../support/store-fixtures.js';
import { describeStoreConformance } from './conformance.js';

const server = usePostgresServer();

describeStoreConformance('postgres', async (t) => {
  const store = createPostgresStore({ connectionString: await server().freshDatabase(t) });
  await store.init();
  t.onTestFinished(() => store.close());
  return store;
});

describe('postgres adapter', () => {
  test('several processes starting at once migrate exactly once', async (t) => {
    const url = await server().freshDatabase(t);
    const stores = Array.from({ length: 4 }, () => createPostgresStore({ connectionString: url, poolSize: 2 }));
    t.onTestFinished(() => Promise.all(stores.map((s) => s.close())).then(() => {}));
    await Promise.all(stores.map((s) => s.init()));
    const { rows } = await stores[0]!.pool.query('SELECT version FROM order_store_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
  });

  test('two server processes creating at once still get distinct consecutive numbers', async (t) => {
    const url = await server().freshDatabase(t);
    const a = createPostgresStore({ connectionString: url, changeFeed: false });
    const b = createPostgresStore({ connectionString: url, changeFeed: false });
    t.onTestFinished(async () => {
      await a.close();
      await b.close();
    });
    await a.init();
    await b.init();
    const made = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).createOrder(newOrder())));
    const seqs = made.map((o) => Number(o.orderNumber.slice(5))).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect((await b.listOrders()).length).toBe(200);
  });

  test('a wrong password stops start-up naming DATABASE_URL', async () => {
    const url = server().url('postgres').replace(':test-password@', ':wrong@');
    const store = createPostgresStore({ connectionString: url });
    await expect(store.init()).rejects.toThrow(
      /^DATABASE_URL: cannot use the PostgreSQL database at .*password authentication failed/,
    );
  });

  test('a database with a newer schema is refused', async (t) => {
    const url = await server().freshDatabase(t);
    const first = createPostgresStore({ connectionString: url, changeFeed: false });
    await first.init();
    await first.pool.query(`INSERT INTO order_store_migrations (version, name) VALUES (999, 'future')`);
    await first.close();
    await expect(createPostgresStore({ connectionString: url }).init()).rejects.toThrow(/schema version 999/);
  });

  test('a cached store in another process sees a change as soon as it commits (LISTEN/NOTIFY)', async (t) => {
    const url = await server().freshDatabase(t);
    const open = async () => {
      const s = createPostgresStore({ connectionString: url, poolSize: 4 });
      await s.init();
      const cached = createCachedStore(s, { ttlMs: 30_000 });
      t.onTestFinished(() => cached.close());
      return { raw: s, cached };
    };
    const a = await open();
    const b = await open();
    const order = await a.cached.createOrder(newOrder());
    await vi.waitFor(async () => expect(await b.cached.getOrder(order.id)).toEqual(order));
    expect((await b.cached.listOrders()).length).toBe(1);
    expect((await b.cached.summary()).pendingCount).toBe(1);
    await b.cached.getEventSettings('AX2025');
    // once A's notice of the create has arrived, B serves the order from its own memory
    await vi.waitFor(async () => {
      const hitsBefore = b.cached.stats().hits;
      await b.cached.getOrder(order.id);
      expect(b.cached.stats().hits).toBe(hitsBefore + 1);
    });

    const visibleIn = async (check: () => Promise<boolean>) => {
      const started = performance.now();
      await vi.waitFor(async () => expect(await check()).toBe(true), { timeout: 2000, interval: 1 });
      return performance.now() - started;
    };
    await a.cached.updateOrder(order.id, { status: 'paid' });
    const lag = await visibleIn(async () => (await b.cached.getOrder(order.orderNumber))?.status === 'paid');
    expect(lag).toBeLessThan(500);
    await visibleIn(async () => (await b.cached.summary()).completedCount === 1);
    await visibleIn(async () => (await b.cached.listOrders({ statuses: ['paid'] })).length === 1);
    await a.cached.putEventSettings('AX2025', { orderingEnabled: false });
    await visibleIn(async () => (await b.cached.getEventSettings('AX2025'))?.orderingEnabled === false);
    // a change made by hand in psql reaches the caches too
    await a.raw.pool.query(`UPDATE orders SET customer_name = 'Edited in psql' WHERE id = $1`, [order.id]);
    await visibleIn(async () => (await b.cached.getOrder(order.id))?.customerName === 'Edited in psql');
  });

  test('when its LISTEN connection drops, the cache reads through, then recovers', async (t) => {
    const url = await server().freshDatabase(t);
    const raw = createPostgresStore({ connectionString: url, poolSize: 2 });
    await raw.init();
    const cached = createCachedStore(raw, { ttlMs: 30_000 });
    t.onTestFinished(() => cached.close());
    const order = await cached.createOrder(newOrder());
    expect(raw.changes.coherent).toBe(true);
    await raw.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await vi.waitFor(() => expect(raw.changes.coherent).toBe(false), { timeout: 2000, interval: 5 });
    // meanwhile, a change nobody announces to this cache (the trigger fires, but nobody listens)
    await raw.pool.query(`UPDATE orders SET city = 'Unannounced' WHERE id = $1`, [order.id]);
    expect((await cached.getOrder(order.id))?.city).toBe('Unannounced');
    await vi.waitFor(() => expect(raw.changes.coherent).toBe(true), { timeout: 5000, interval: 20 });
    expect((await cached.health()).details).toMatchObject({ changeFeed: 'listening', cache: { coherent: true } });
  });
});

describe('postgres group commit', () => {
  test('one bad order in a batch fails alone; the others keep consecutive numbers', async (t) => {
    const store = createPostgresStore({ connectionString: await server().freshDatabase(t), changeFeed: false });
    await store.init();
    t.onTestFinished(() => store.close());
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.createOrder(newOrder({ customerName: i === 4 ? 'NUL \u0000 inside' : `ok ${i}` })),
      ),
    );
    expect(results[4]).toMatchObject({ status: 'rejected', reason: { code: 'VALIDATION_FAILED', statusCode: 400 } });
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => r.value.orderNumber);
    expect(ok.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `AX25-000${i + 1}`));
    expect((await store.listOrders()).length).toBe(9);
  });

  test('creates of several prefixes in one batch each follow their own sequence', async (t) => {
    const store = createPostgresStore({ connectionString: await server().freshDatabase(t), changeFeed: false });
    await store.init();
    t.onTestFinished(() => store.close());
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.createOrder(newOrder({ prefix: ['AA', 'BB', 'CC'][i % 3] }))),
    );
    for (const prefix of ['AA', 'BB', 'CC']) {
      const nums = made.filter((o) => o.orderNumber.startsWith(`${prefix}-`)).map((o) => o.orderNumber);
      expect(nums).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`));
    }
  });
});
