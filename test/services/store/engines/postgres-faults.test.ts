import { expect, test, vi } from 'vitest';
import type { OrderRecord } from '../../../../src/domain/order.js';
import { openStore } from '../../../../src/services/store/store.js';
import { build } from '../../../helpers/build.js';
import { usePostgresServer } from '../../../support/postgres-server.js';
import { newOrder } from '../../../support/store-fixtures.js';

const server = usePostgresServer({ own: true });

test('PostgreSQL stopped mid-run: 503 STORE_UNAVAILABLE while down, recovery after, nothing acknowledged lost', async (t) => {
  const url = await server().freshDatabase(t);
  const app = await build(t, { env: { ORDER_STORE: 'postgres', DATABASE_URL: url } });
  const store = app.store;
  expect(store.engine).toBe('postgres');

  // writers keep creating orders while the database goes away and comes back
  const acknowledged: OrderRecord[] = [];
  const failures: unknown[] = [];
  let stop = false;
  const writer = async () => {
    while (!stop) {
      try {
        acknowledged.push(
          await store.orders.create(newOrder({ customerName: `c${acknowledged.length}` }), { by: 'customer' }),
        );
      } catch (err) {
        failures.push(err);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const writers = Promise.all([writer(), writer(), writer()]);
  await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(30), { timeout: 5000 });
  const firstOrder = acknowledged[0] as OrderRecord;
  expect(await store.orders.get(firstOrder.id)).toEqual(firstOrder);

  await server().stop();
  const ackedWhenStopped = acknowledged.length;
  await expect(store.orders.create(newOrder(), { by: 'customer' })).rejects.toMatchObject({
    code: 'STORE_UNAVAILABLE',
    statusCode: 503,
  });
  // nothing is answered from memory for a database that can't be reached
  await expect(store.orders.get(firstOrder.id)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  await expect(store.orders.list()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  const ready = await app.inject({ url: '/readyz' });
  expect(ready.statusCode).toBe(503);
  expect(ready.json().checks.store).toMatchObject({ ok: false, details: { engine: 'postgres' } });
  await new Promise((r) => setTimeout(r, 300));
  expect(failures.length).toBeGreaterThan(0);
  expect(failures.every((e) => (e as { code?: string }).code === 'STORE_UNAVAILABLE')).toBe(true);
  expect(acknowledged.length - ackedWhenStopped).toBeLessThanOrEqual(3); // at most the in-flight ones

  await server().start();
  await vi.waitFor(async () => expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200), {
    timeout: 10_000,
    interval: 100,
  });
  const ackedWhenBack = acknowledged.length;
  await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThan(ackedWhenBack + 30), { timeout: 10_000 });
  stop = true;
  await writers;

  // every acknowledged order is there, exactly as acknowledged, numbers unique
  const check = await openStore({ engine: 'postgres', connectionString: url });
  t.onTestFinished(() => check.close());
  const all = await check.orders.list();
  const byId = new Map(all.map((o) => [o.id, o]));
  for (const o of acknowledged) expect(byId.get(o.id)).toEqual(o);
  expect(new Set(all.map((o) => o.orderNumber)).size).toBe(all.length);
  expect(await store.orders.get(firstOrder.orderNumber)).toEqual(firstOrder);
});
