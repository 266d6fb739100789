/**
 * The store plugin (src/services/store/plugin.ts): `fastify.store` holds the ports of the
 * engine ORDER_STORE names, /readyz reports it, it closes last, and start-up failures name
 * the variable.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import fp from 'fastify-plugin';
import { expect, test } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openStore } from '../../../src/services/store/store.js';
import { build, tempDir, testConfig } from '../../helpers/build.js';
import { mirrorSetup } from '../../support/mirror-fixtures.js';
import { newOrder } from '../../support/store-fixtures.js';

test('the default app has a SQLite store in DATA_DIR, one port per record, reported on /readyz', async (t) => {
  const app = await build(t);
  expect(app.store.engine).toBe('sqlite');
  expect(Object.keys(app.store).sort()).toEqual([
    'adminTokens',
    'businessSettings',
    'captchaTokens',
    'coupons',
    'downloadGrants',
    'engine',
    'eventSettings',
    'faces',
    'idempotencyKeys',
    'mirror',
    'orders',
    'outbox',
    'paymentEvents',
    'photoCatalogue',
    'photoCodes',
    'printJobs',
    'pushSubscriptions',
    'takedowns',
  ]);
  expect(existsSync(path.join(app.dataDir, 'orders.db'))).toBe(true);
  const o = await app.store.orders.create(newOrder(), { by: 'customer' });
  expect(await app.store.orders.get(o.orderNumber)).toEqual(o);
  const res = await app.inject({ url: '/readyz' });
  expect(res.json().checks.store).toEqual({ ok: true, details: { engine: 'sqlite', file: 'orders.db' } });
});

test('ORDER_STORE=sheets runs on SQLite with the spreadsheet mirror on', async (t) => {
  const m = await mirrorSetup(t);
  const dir = await tempDir(t);
  // No plugin start-up limit, as build(t) sets: a loaded machine makes the mirror's start slow, not wrong.
  const app = await buildApp(testConfig(dir, { ...m.env, ORDER_STORE: 'sheets' }), false, { pluginTimeout: 0 });
  t.onTestFinished(() => app.close());
  await app.ready();
  expect(app.store.engine).toBe('sqlite');
  expect(existsSync(path.join(dir, 'orders.db'))).toBe(true);
  expect(app.mirror.enabled).toBe(true);
  // the first start read the (empty) sheet and wrote its header row
  expect((await app.mirror.status()).importedAt).not.toBeNull();
  expect(m.emu.getValues(m.sheetId, "'Orders'!A1:B1")).toEqual([['orderNumber', 'createdAt']]);
});

test('the store is closed last: services closing after it still can write', async (t) => {
  const dataDir = await tempDir(t);
  const app = await build(t, { dataDir, noReady: true });
  // stands in for the mail outbox flushing on shutdown (registered after the store, as it is)
  await app.register(
    fp(async (f) => {
      f.addHook('onClose', async () => {
        await f.store.orders.create(newOrder({ customerName: 'written while closing' }), { by: 'customer' });
      });
    }),
  );
  await app.ready();
  await app.close();
  const reopened = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  t.onTestFinished(() => reopened.close());
  expect((await reopened.orders.list()).map((o) => o.customerName)).toEqual(['written while closing']);
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
