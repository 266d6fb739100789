import { execFile } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, type TestContext, test } from 'vitest';
import { WalSyncThread } from '../../../../src/services/store/engines/sqlite/wal-sync-thread.js';
import { openStore } from '../../../../src/services/store/store.js';
import { tempDir } from '../../../helpers/build.js';
import { newOrder } from '../../../support/store-fixtures.js';

/** A file with something written to it, open for the test. */
/**
 * A descriptor no process has open (far above any fd limit). Not a closed one: the tests run
 * beside other threads of this process, which can be given the same number again at once
 * (a pipe, on which fdatasync fails with EINVAL instead).
 */
const NOT_OPEN = 0x7fff_fff0;

async function dirtyFile(t: TestContext): Promise<number> {
  const fd = openSync(path.join(await tempDir(t), 'wal'), 'w+');
  writeSync(fd, 'frames');
  t.onTestFinished(() => closeSync(fd));
  return fd;
}

function thread(t: TestContext): WalSyncThread {
  const s = new WalSyncThread();
  t.onTestFinished(() => s.stop());
  return s;
}

describe('the WAL sync thread', () => {
  test('syncs resolve one after another, in the order asked, however many are asked at once', async (t) => {
    const fd = await dirtyFile(t);
    const s = thread(t);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.sync(fd).then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(s.running).toBe(true);
  });

  test('calls made before a sync starts share it, and calls made while it runs share the next', async (t) => {
    const fd = await dirtyFile(t);
    const s = thread(t);
    // Twenty asked for in one go, before the first started: one fdatasync answers them all.
    await Promise.all(Array.from({ length: 20 }, () => s.sync(fd)));
    expect(s.syncs).toBe(1);
    // Ten asked for once a sync has started (their writes may be later than it): one more.
    const first = s.sync(fd);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ...Array.from({ length: 10 }, () => s.sync(fd))]);
    expect(s.syncs).toBe(3);
    // Another file is never answered by this file's sync.
    const other = await dirtyFile(t);
    await Promise.all([s.sync(fd), s.sync(other), s.sync(fd)]);
    expect(s.syncs).toBe(6);
  });

  test('a sync asked for alone while the thread is idle is made in place; otherwise the thread makes it', async (t) => {
    const fd = await dirtyFile(t);
    const s = thread(t);
    await s.sync(fd, true);
    expect([s.syncs, s.syncsInPlace]).toEqual([1, 1]);
    // Not alone: the thread, even when idle.
    await s.sync(fd);
    expect([s.syncs, s.syncsInPlace]).toEqual([2, 1]);
    // Alone, but another file's sync is asked for and not done: it waits its turn in the
    // thread, never overtakes. (Asked at once after it, not after a tick: on a fast disk the
    // earlier sync may be done within one, and then the thread is idle again. Another file,
    // because a second call for the same file before its sync starts shares that sync.)
    const other = await dirtyFile(t);
    const under = s.sync(other);
    await Promise.all([under, s.sync(fd, true)]);
    expect([s.syncs, s.syncsInPlace]).toEqual([4, 1]);
    // An alone sync the disk refuses rejects as the thread's would.
    await expect(s.sync(NOT_OPEN, true)).rejects.toMatchObject({ code: 'EBADF', syscall: 'fdatasync' });
    expect(s.running).toBe(true);
  });

  test("a sync the disk refuses rejects with fdatasync's error; the next one works", async (t) => {
    const fd = await dirtyFile(t);
    const s = thread(t);
    await expect(s.sync(NOT_OPEN)).rejects.toMatchObject({ code: 'EBADF', syscall: 'fdatasync' });
    await expect(s.sync(fd)).resolves.toBeUndefined();
    expect(s.running).toBe(true);
  });

  test('once the thread is gone, syncs go through the thread pool and still report errors', async (t) => {
    const fd = await dirtyFile(t);
    const s = new WalSyncThread();
    await s.stop();
    expect(s.running).toBe(false);
    await expect(s.sync(fd)).resolves.toBeUndefined();
    await expect(s.sync(NOT_OPEN)).rejects.toMatchObject({ code: 'EBADF' });
  });

  // A process that never ends fails on the test's own timeout: a child's start under tsx on a
  // loaded machine can take many seconds, which is no failure.
  test('an idle thread lets the process exit; a sync under way keeps it running until it is done', {
    timeout: 120_000,
  }, async (t) => {
    const module = fileURLToPath(
      new URL('../../../../src/services/store/engines/sqlite/wal-sync-thread.ts', import.meta.url),
    );
    // No stop(), no other handle: the process must end on its own, after the sync.
    const code = `
      import { openSync, unlinkSync, writeSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import path from 'node:path';
      const { WalSyncThread } = await import(${JSON.stringify(module)});
      new WalSyncThread(); // never used
      const file = path.join(tmpdir(), 'wal-sync-thread-' + process.pid);
      const fd = openSync(file, 'w');
      unlinkSync(file);
      writeSync(fd, 'x');
      new WalSyncThread().sync(fd).then(() => console.log('synced'));
    `;
    // A file, not --eval: an evaluated module ends the process when it is done, threads or not.
    const script = path.join(await tempDir(t), 'child.mjs');
    writeFileSync(script, code);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script]);
    expect(stdout.trim()).toBe('synced');
  });

  test('the SQLite store syncs a batch of creates in its thread and a lone create in place, and stops the thread when closed', async (t) => {
    const store = await openStore({ engine: 'sqlite', file: path.join(await tempDir(t), 'orders.db') });
    const s = store.db.syncThread;
    expect(s?.running).toBe(true);
    await store.orders.create(newOrder(), { by: 'customer' });
    expect([s?.syncs, s?.syncsInPlace]).toEqual([1, 1]);
    const made = await Promise.all(
      Array.from({ length: 30 }, () => store.orders.create(newOrder(), { by: 'customer' })),
    );
    expect(new Set(made.map((o) => o.orderNumber)).size).toBe(30);
    // One group commit of thirty: one sync, in the thread.
    expect([s?.syncs, s?.syncsInPlace]).toEqual([2, 1]);
    await store.close();
    expect(s?.running).toBe(false);
  });
});
