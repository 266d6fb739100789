/**
 * Idempotency-Keys across crashes (docs/contract.md, "Hardening"): 20 clients send orders, each
 * with an Idempotency-Key of its own, retrying a key whose request got no answer; the server is
 * killed with SIGKILL twice mid-load and restarted. Afterwards every key is sent once
 * more. No key may ever yield two orders, and every key whose order was committed answers that
 * order, also when the crash came between the commit and the answer. On SQLite and on
 * PostgreSQL.
 *
 * A pending key whose request died without committing its order is taken over once stale:
 * IDEMPOTENCY_STALE_MS is short here so that the retries need not wait long for it.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, tempDir } from '../helpers/build.js';
import { listAllOrders, orderLoad } from '../support/fault-orders.js';
import { type ServerProcess, serverEnv, startServer } from '../support/fault-server.js';
import { bodyB, writeLibrary } from '../support/orders-fixtures.js';
import { usePostgresServer } from '../support/postgres-server.js';

const pg = usePostgresServer();
const STALE_MS = 2000;

/**
 * Sends `key` again until it is answered (waiting out IDEMPOTENCY_IN_PROGRESS, which a stale
 * reservation leaves after IDEMPOTENCY_STALE_MS); the order id it names. A key in progress for
 * ever fails on the test's timeout.
 */
async function retryKey(url: string, key: string, customerName: string): Promise<string> {
  for (;;) {
    const res = await fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(bodyB({ customerName })),
    });
    const body = (await res.json()) as { id?: string; code?: string; customerName?: string };
    if (res.status === 201 && body.id) {
      expect(body.customerName).toBe(customerName);
      return body.id;
    }
    expect(body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    await new Promise((r) => setTimeout(r, 250));
  }
}

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`${engine}: SIGKILL twice under keyed order load: no Idempotency-Key ever yields two orders`, {
    timeout: 400_000,
  }, async (t) => {
    const dataDir = await tempDir(t);
    await writeLibrary(path.join(dataDir, 'photos'));
    const store: Record<string, string> =
      engine === 'sqlite'
        ? { ORDER_STORE: 'sqlite' }
        : { ORDER_STORE: 'postgres', DATABASE_URL: await pg().freshDatabase(t) };
    const env = serverEnv(dataDir, { ...store, IDEMPOTENCY_STALE_MS: String(STALE_MS) });
    let server: ServerProcess = await startServer(t, { env });
    const load = orderLoad({ urls: [server.url], clients: 20, idempotent: true, timeoutMs: 10_000 });
    // 40 answers between kills (two per client): the new server answers the keys retried
    // after the last kill and takes fresh ones before the next kill, as with any larger number.
    // Two kills: the first falls on a server that started clean, the second on one that took
    // over the first crash's keys (stale reservations, orders committed but never answered)
    // while taking fresh ones; a third is the second case again, for another server start
    // (about 5 s of CPU) per engine.
    for (let kill = 1; kill <= 2; kill++) {
      const acked = load.state.acks.length;
      await load.until((s) => s.acks.length >= acked + 40, 180_000);
      expect((await server.kill('SIGKILL')).signal).toBe('SIGKILL');
      server = await startServer(t, { env, port: server.port });
    }
    const acked = load.state.acks.length;
    await load.until((s) => s.acks.length >= acked + 20, 180_000);
    const { acks, refusals, oddities, keys } = await load.stop();
    expect(oddities).toEqual([]);
    // While the server was away, a retried key may have found its first request's
    // reservation still pending; nothing else is refused.
    expect(refusals.filter((r) => r.code !== 'IDEMPOTENCY_IN_PROGRESS')).toEqual([]);

    // Every key once more: each names one order, the one any earlier answer named.
    const answered = new Map<string, string>();
    for (const a of acks) {
      const before = answered.get(a.key ?? '');
      if (before) expect(a.id).toBe(before);
      answered.set(a.key ?? '', a.id);
    }
    // Ten at a time (each key is checked on its own; the order they are asked in is free).
    const queue = [...keys];
    const url = server.url;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [key, customerName] = next;
          const id = await retryKey(url, key, customerName);
          const before = answered.get(key);
          if (before) expect(id, key).toBe(before);
        }
      }),
    );

    // The store: one order per key (each key's orders carry its own customer name).
    const stored = await listAllOrders(server.url);
    const perName = new Map<string, number>();
    for (const o of stored) perName.set(o.customerName, (perName.get(o.customerName) ?? 0) + 1);
    expect([...perName].filter(([, n]) => n > 1)).toEqual([]);
    expect(stored).toHaveLength(keys.size);
    await server.kill('SIGTERM');
  });
}
