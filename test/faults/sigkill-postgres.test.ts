/**
 * SIGKILL during order load on PostgreSQL, with two server processes on one database (the
 * set-up ORDER_STORE=postgres exists for): orders pour into both, one is killed, the other
 * keeps taking orders, the killed one is restarted. Every acknowledged order (from either)
 * is there exactly as acknowledged, no order number was used twice across the two, and
 * numbering carries on after the highest in both. (PostgreSQL itself going down:
 * test/services/store/postgres-faults.test.ts.)
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { adminHeaders, tempDir } from '../helpers/build.js';
import { listAllOrders, orderLoad, sequenceOf } from '../support/fault-orders.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { bodyB, writeLibrary } from '../support/orders-fixtures.js';
import { usePostgresServer } from '../support/postgres-server.js';

const pg = usePostgresServer();

test('SIGKILL of one of two servers on PostgreSQL mid-load: every acknowledged order present, no number twice', {
  timeout: 300_000,
}, async (t) => {
  const databaseUrl = await pg().freshDatabase(t);
  const photosDir = path.join(await tempDir(t), 'photos');
  await writeLibrary(photosDir);
  const envFor = async () =>
    serverEnv(await tempDir(t), { ORDER_STORE: 'postgres', DATABASE_URL: databaseUrl, PHOTOS_DIR: photosDir });
  const envA = await envFor();
  const envB = await envFor();
  // Independent processes: started side by side.
  const [a, b] = await Promise.all([startServer(t, { env: envA }), startServer(t, { env: envB })]);

  const load = orderLoad({ urls: [a.url, b.url], clients: 12 });
  // 40 answered on A and 80 in all: with 12 clients over the two, numbers taken by A and B
  // interleave many times over before the kill, as with any larger number.
  await load.until((s) => s.acks.filter((x) => x.url === a.url).length >= 40 && s.acks.length >= 80, 180_000);
  expect((await a.kill('SIGKILL')).signal).toBe('SIGKILL');
  // B carries on alone for a while.
  const ackedAtKill = load.state.acks.length;
  await load.until((s) => s.acks.length >= ackedAtKill + 30, 180_000);
  const { acks, refusals, oddities, connectionErrors } = await load.stop();
  expect(oddities).toEqual([]);
  expect(refusals).toEqual([]);
  expect(connectionErrors).toBeGreaterThan(0);
  expect(new Set(acks.map((x) => x.orderNumber)).size).toBe(acks.length);

  const a2 = await startServer(t, { env: envA, port: a.port });
  for (const url of [a2.url, b.url]) {
    const stored = await listAllOrders(url);
    const byNumber = new Map(stored.map((o) => [o.orderNumber, o]));
    expect(acks.filter((x) => byNumber.get(x.orderNumber)?.id !== x.id)).toEqual([]);
    for (const x of acks) expect(byNumber.get(x.orderNumber)?.customerName).toBe(x.customerName);
    expect(new Set(stored.map((o) => o.orderNumber)).size).toBe(stored.length);
    expect(stored.length).toBeLessThanOrEqual(acks.length + 12);
  }

  // Both go on numbering after the highest number either has used.
  const highest = Math.max(...(await listAllOrders(b.url)).map((o) => sequenceOf(o.orderNumber)));
  const next = await Promise.all(
    [a2.url, b.url, a2.url, b.url].map(async (url, i) => {
      const res = await fetch(`${url}/api/orders`, {
        method: 'POST',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        body: JSON.stringify(bodyB({ customerName: `After the crash ${i}` })),
      });
      expect(res.status).toBe(201);
      return sequenceOf(((await res.json()) as { orderNumber: string }).orderNumber);
    }),
  );
  expect(new Set(next).size).toBe(4);
  for (const n of next) expect(n).toBeGreaterThan(highest);
  await Promise.all([a2.kill('SIGTERM'), b.kill('SIGTERM')]);
});
