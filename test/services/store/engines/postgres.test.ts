/**
 * The PostgreSQL engine (src/services/store/engines/postgres/engine.ts): migrations (an
 * upgrade of a database version 1 left), start-up failures, several processes on one
 * database, and group commit. The ports' behaviour: test/services/store/ports/.
 */
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../../../src/services/store/engines/postgres/migrations.js';
import { openStore } from '../../../../src/services/store/store.js';
import { usePostgresServer } from '../../../support/postgres-server.js';
import { reopenStore } from '../../../support/store-engines.js';
import { ADMIN, newOrder } from '../../../support/store-fixtures.js';

const server = usePostgresServer();
const by = { by: 'customer' } as const;

async function postgresStore(url: string, t: { onTestFinished(fn: () => unknown): void }) {
  const store = await openStore({ engine: 'postgres', connectionString: url });
  t.onTestFinished(() => store.close());
  return store;
}

describe('postgres engine', () => {
  test('several processes starting at once migrate exactly once', async (t) => {
    const url = await server().freshDatabase(t);
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openStore({ engine: 'postgres', connectionString: url, poolSize: 2 })),
    );
    t.onTestFinished(() => Promise.all(stores.map((s) => s.close())).then(() => {}));
    const { rows } = await stores[0]!.db.pool.query('SELECT version FROM order_store_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
  });

  test('a version 1 database is upgraded: orders and keys kept; pickup orders say pickup; history begins; numbering continues', async (t) => {
    const url = await server().freshDatabase(t);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE TABLE order_store_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(POSTGRES_MIGRATIONS[0]?.sql ?? '');
    await client.query(`INSERT INTO order_store_migrations (version, name) VALUES (1, 'v1')`);
    const insert = `INSERT INTO orders (id, order_number, event_slug, created_at, updated_at, customer_name, customer_email,
      customer_phone, fulfillment_type, shipping_address, city, state, zip_code, items, subtotal_cents, shipping_fee_cents,
      total_cents, status, shipping_status, tracking_number, feedback, held, hold_expires_at, address_verified, channel)
      VALUES ($1, $2, 'AX2025', $3, $3, 'Ada', 'ada@example.com', '', $4, '', '', '', '',
        '[{"photoNumber":"1","size":"4x6","quantity":1,"unitCents":500,"lineCents":500}]', 500, 0, 500, 'paid', 'ship', '', '',
        false, NULL, NULL, $5)`;
    await client.query(insert, [
      '00000000-0000-4000-8000-000000000001',
      'AX25-0001',
      '2026-11-01T10:00:01.000Z',
      'ship',
      'web',
    ]);
    await client.query(insert, [
      '00000000-0000-4000-8000-000000000002',
      'AX25-0002',
      '2026-11-01T10:00:02.000Z',
      'pickup',
      'booth',
    ]);
    await client.query(`INSERT INTO order_sequences (prefix, last) VALUES ('AX25', 2)`);
    await client.query(
      `INSERT INTO idempotency_keys VALUES ('k', 'f', 'done', 201, '{}', now(), now() + interval '1 day')`,
    );
    await client.end();

    const store = await postgresStore(url, t);
    expect(await store.orders.get('ax25-0001')).toMatchObject({
      shippingStatus: 'ship',
      version: 1,
      history: [{ at: '2026-11-01T10:00:01.000Z', action: 'create', to: 'pending', by: 'customer' }],
    });
    expect(await store.orders.get('AX25-0002')).toMatchObject({ shippingStatus: 'pickup', history: [{ by: 'admin' }] });
    expect((await store.orders.create(newOrder(), by)).orderNumber).toBe('AX25-0003');
    const paid = await store.orders.update('AX25-0003', { status: 'paid' }, { by: ADMIN });
    expect(paid.order.history.map((h) => h.action)).toEqual(['create', 'status']);
    expect(
      await store.idempotencyKeys.reserve({
        key: 'k',
        fingerprint: 'f',
        createdAt: new Date().toISOString(),
        expiresAt: '2099-01-01T00:00:00.000Z',
      }),
    ).toMatchObject({ reserved: false, existing: { state: 'done', orderId: null } });
    const tables = await store.db.pool.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    expect(tables.rows.map((r) => r.tablename)).not.toContain('order_sequences');
    expect(tables.rows.map((r) => r.tablename)).toContain('captcha_tokens');
  });

  test('two server processes creating at once still get distinct consecutive numbers; each sees the other’s changes at once', async (t) => {
    const a = await postgresStore(await server().freshDatabase(t), t);
    const b = await reopenStore(t, a);
    const made = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).orders.create(newOrder(), by)),
    );
    const seqs = made.map((o) => Number(o.orderNumber.slice(5))).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await b.orders.list()).toHaveLength(200);
    // No delay, no notice: the next read in the other process answers the change.
    const target = made[17];
    if (!target) throw new Error('no order');
    await a.orders.update(target.id, { status: 'paid' }, { by: ADMIN });
    expect((await b.orders.get(target.orderNumber))?.status).toBe('paid');
    expect((await b.orders.list({ statuses: ['paid'] })).map((o) => o.id)).toEqual([target.id]);
    expect((await b.orders.summary()).completedCount).toBe(1);
    await b.eventSettings.put('AX2025', { orderingEnabled: false });
    expect(await a.eventSettings.get('AX2025')).toMatchObject({ orderingEnabled: false });
    // even a change made by hand in psql
    await a.db.pool.query(`UPDATE orders SET customer_name = 'Edited in psql', version = version + 1 WHERE id = $1`, [
      target.id,
    ]);
    expect((await b.orders.list({ statuses: ['paid'] }))[0]?.customerName).toBe('Edited in psql');
  });

  test('a wrong password stops start-up naming DATABASE_URL', async () => {
    const url = server().url('postgres').replace(':test-password@', ':wrong@');
    await expect(openStore({ engine: 'postgres', connectionString: url })).rejects.toThrow(
      /^DATABASE_URL: cannot use the PostgreSQL database at .*password authentication failed/,
    );
  });

  test('a database with a newer schema is refused', async (t) => {
    const url = await server().freshDatabase(t);
    const first = await openStore({ engine: 'postgres', connectionString: url });
    await first.db.pool.query(`INSERT INTO order_store_migrations (version, name) VALUES (999, 'future')`);
    await first.close();
    await expect(openStore({ engine: 'postgres', connectionString: url })).rejects.toThrow(/schema version 999/);
  });
});

describe('postgres group commit', () => {
  test('one bad order in a batch fails alone; the others keep consecutive numbers', async (t) => {
    const store = await postgresStore(await server().freshDatabase(t), t);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.orders.create(newOrder({ customerName: i === 4 ? 'NUL \u0000 inside' : `ok ${i}` }), by),
      ),
    );
    expect(results[4]).toMatchObject({ status: 'rejected', reason: { code: 'VALIDATION_FAILED', statusCode: 400 } });
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => r.value.orderNumber);
    expect(ok.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `AX25-000${i + 1}`));
    expect(await store.orders.list()).toHaveLength(9);
  });

  test('creates of several prefixes in one batch each follow their own sequence', async (t) => {
    const store = await postgresStore(await server().freshDatabase(t), t);
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.orders.create(newOrder({ prefix: ['AA', 'BB', 'CC'][i % 3] }), by)),
    );
    for (const prefix of ['AA', 'BB', 'CC']) {
      const nums = made.filter((o) => o.orderNumber.startsWith(`${prefix}-`)).map((o) => o.orderNumber);
      expect(nums).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`));
    }
  });
});
