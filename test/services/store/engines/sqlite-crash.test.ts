import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { openStore } from '../../../../src/services/store/store.js';
import { tempDir } from '../../../helpers/build.js';
import { newOrder } from '../../../support/store-fixtures.js';

const root = path.resolve(import.meta.dirname, '../../../..');

test('a process killed with SIGKILL right after acknowledging orders loses none of them', async (t) => {
  const file = path.join(await tempDir(t), 'orders.db');
  // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild, which
  // SIGKILL of the CLI would leave running.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/store-sqlite-writer.ts'), file],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const acknowledged = new Map<string, string>();
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve());
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [orderNumber, id] = line.split(' ');
      if (!orderNumber || !id) return;
      acknowledged.set(orderNumber, id);
      // kill it mid-stream, while it is in the middle of the next create
      if (acknowledged.size === 300) {
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  expect(await exited).toBe('SIGKILL');
  expect(acknowledged.size).toBeGreaterThanOrEqual(300);

  const db = new Database(file);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
  const store = await openStore({ engine: 'sqlite', file });
  t.onTestFinished(() => store.close());
  for (const [orderNumber, id] of acknowledged) {
    const order = await store.orders.get(orderNumber);
    expect(order?.id, orderNumber).toBe(id);
  }
  // numbers stayed consecutive, every order has its receipt job, and the sequence carries on
  const all = await store.orders.list();
  const seqs = all.map((o) => Number(o.orderNumber.slice(5))).sort((a, b) => a - b);
  expect(seqs).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
  expect(await store.outbox.pendingCount()).toBe(all.length);
  const next = await store.orders.create(newOrder(), { by: 'customer' });
  expect(Number(next.orderNumber.slice(5))).toBe(all.length + 1);
});
