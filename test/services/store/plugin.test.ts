import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import fp from 'fastify-plugin';
import { expect, test } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { createStore } from '../../../src/services/store/create-store.js';
import { silentLogger } from '../../../src/services/store/logger.js';
import { createSqliteStore } from '../../../src/services/store/sqlite/index.js';
import { build, tempDir, testConfig } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';

test('the default app has a SQLite store in DATA_DIR behind the cache, reported on /readyz', async (t) => {
  const app = await build(t);
  expect(app.store.kind).toBe('sqlite');
  expect(existsSync(path.join(app.dataDir, 'orders.db'))).toBe(true);
  const o = await app.store.createOrder(newOrder());
  expect(await app.store.getOrder(o.orderNumber)).toEqual(o);
  const res = await app.inject({ url: '/readyz' });
  expect(res.json().checks.store).toMatchObject({
    ok: true,
    details: { backend: 'sqlite', cache: { ttlMs: 30_000 } },
  });
});

test('the store is closed last: services closing after it still can write', async (t) => {
  const dataDir = await tempDir(t);
  const app = await build(t, { dataDir, noReady: true });
  // stands in for the mail outbox flushing on shutdown (registered after the store, as it is)
  await app.register(
    fp(async (f) => {
      f.addHook('onClose', async () => {
        await f.store.createOrder(newOrder({ customerName: 'written while closing' }));
      });
    }),
  );
  await app.ready();
  await app.close();
  const reopened = createSqliteStore({ file: path.join(dataDir, 'orders.db') });
  await reopened.init();
  t.onTestFinished(() => reopened.close());
  expect((await reopened.listOrders()).map((o) => o.customerName)).toEqual(['written while closing']);
});

test('an unusable DATA_DIR stops start-up naming DATA_DIR', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'not-a-folder');
  await writeFile(file, 'x');
  await expect(buildApp(testConfig(file))).rejects.toThrow(/^DATA_DIR: cannot open the order database/);
});

test('an unreachable database stops start-up naming DATABASE_URL (and not its password)', async (t) => {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const dir = await tempDir(t);
  const err = await buildApp(
    testConfig(dir, { ORDER_STORE: 'postgres', DATABASE_URL: `postgres://u:sekrit@127.0.0.1:${port}/photos` }),
  ).then(
    () => null,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(
    /^DATABASE_URL: cannot use the PostgreSQL database at postgres:\/\/u@127\.0\.0\.1:\d+\/photos/,
  );
  expect(err?.message).not.toContain('sekrit');
});

test('ORDER_STORE picks the adapter', async (t) => {
  const dir = await tempDir(t);
  expect((await createStore(testConfig(dir), silentLogger)).kind).toBe('sqlite');
  const pgStore = await createStore(
    testConfig(dir, { ORDER_STORE: 'postgres', DATABASE_URL: 'postgres://u:p@127.0.0.1:1/x' }),
    silentLogger,
  );
  expect(pgStore.kind).toBe('postgres');
  await pgStore.close();
});
