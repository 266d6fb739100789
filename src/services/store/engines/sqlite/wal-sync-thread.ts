/**
 * Performance machinery for `npm run bench -- store` (creates/s with the WAL synced here
 * against libuv's busy pool; creates/s ≥ 0.6× the raw engine's single-row commits).
 *
 * A thread of its own for the WAL's fdatasync (wal-sync.ts), so that a batch of orders never
 * waits in libuv's 4-thread pool behind file reads, renders and dns (bench/RESULTS.md).
 * The hand-over is a SharedArrayBuffer (wal-sync-slots.ts), not `ThreadCalls`' messages: a
 * MessagePort round trip per batch cost a quarter of the throughput. The thread starts at the
 * first sync not asked for `alone`. One sync at a time; calls made meanwhile share the next
 * (fdatasync covers everything written before it). If the thread is gone, syncs go through
 * the pool (`fdatasyncFile`); syncing again is harmless, so one under way is repeated there.
 */
import fs from 'node:fs';
import { getSystemErrorName } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../../../lib/thread.js';
import { fdatasyncFile, type WalSync } from './wal-sync.js';
import { DONE, ERRNO, FD, REQUEST, SLOTS } from './wal-sync-slots.js';

// ES2024's Atomics.waitAsync (in Node 20), typed here: the project's lib is ES2023.
type WaitAsync = (
  typed: Int32Array,
  index: number,
  value: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class WalSyncThread {
  private readonly slots = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private worker: Worker | undefined;
  private gone: Promise<void> = Promise.resolve();
  private alive = true;
  private requested = 0;
  private tail: Promise<unknown> = Promise.resolve();
  /** The sync asked for but not started yet: later calls for the same file join it. */
  private next: { fd: number; run: Promise<void> } | null = null;
  private issued = 0;
  private inPlace = 0;
  /** Syncs asked of the thread and not yet answered (waiting their turn or under way). */
  private pending = 0;

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(import.meta.url, 'fdatasync-thread', { workerData: this.slots.buffer });
    this.gone = new Promise<void>((resolve) => {
      const down = () => {
        this.alive = false;
        resolve();
      };
      worker.once('exit', down);
      worker.once('error', down);
    });
    // Only a sync under way keeps the process alive (sync() refs it meanwhile).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Whether syncs still go through the thread (false once it is gone: then the pool). */
  get running(): boolean {
    return this.alive;
  }

  /** fdatasync calls made so far (fewer than sync() calls when they shared one). */
  get syncs(): number {
    return this.issued;
  }

  /** Of those, the ones made on the calling thread (asked for `alone` while the thread was idle). */
  get syncsInPlace(): number {
    return this.inPlace;
  }

  /** Makes everything written to `fd` durable; rejects with the errno's code if the disk refused. */
  readonly sync: WalSync = (fd, alone = false) => {
    // Not started yet, so it will cover what the caller wrote before this call.
    if (this.next?.fd === fd) return this.next.run;
    if (alone && this.pending === 0) return this.syncHere(fd);
    const entry: { fd: number; run: Promise<void> } = { fd, run: Promise.resolve() };
    this.pending++;
    entry.run = this.tail
      .then(() => {
        if (this.next === entry) this.next = null; // from here on, later writes need a sync of their own
        return this.syncNow(fd);
      })
      .finally(() => {
        this.pending--;
      });
    this.next = entry;
    this.tail = entry.run.catch(() => {});
    return entry.run;
  };

  /** fdatasync on the calling thread (a lone commit: nothing to overlap it with). */
  private syncHere(fd: number): Promise<void> {
    this.issued++;
    this.inPlace++;
    try {
      fs.fdatasyncSync(fd);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err); // fs's own error: code, errno and syscall as the thread's
    }
  }

  private async syncNow(fd: number): Promise<void> {
    this.issued++;
    if (!this.alive) return fdatasyncFile(fd);
    const worker = this.thread();
    const n = ++this.requested;
    Atomics.store(this.slots, FD, fd);
    Atomics.store(this.slots, REQUEST, n);
    Atomics.notify(this.slots, REQUEST);
    // The wait alone would not keep the event loop running.
    worker.ref();
    try {
      const wait = waitAsync(this.slots, DONE, n - 1);
      if (wait.async) await Promise.race([wait.value, this.gone]);
    } finally {
      worker.unref();
    }
    if (Atomics.load(this.slots, DONE) !== n) return fdatasyncFile(fd); // the thread died first
    const errno = Atomics.load(this.slots, ERRNO);
    if (errno !== 0) throw syncError(errno);
  }

  /** Ends the thread once the syncs asked for are done. */
  async stop(): Promise<void> {
    await this.tail;
    if (!this.alive) return;
    if (!this.worker) {
      this.alive = false; // never started
      return;
    }
    Atomics.store(this.slots, REQUEST, -1);
    Atomics.notify(this.slots, REQUEST);
    this.worker.ref();
    await this.gone;
  }
}

/** The error fs.fdatasync would have given, as far as the errno tells. */
function syncError(errno: number): NodeJS.ErrnoException {
  let code: string;
  try {
    code = getSystemErrorName(errno);
  } catch {
    code = 'EIO';
  }
  const err: NodeJS.ErrnoException = new Error(`${code}: fdatasync of the WAL failed`);
  err.code = code;
  err.errno = errno;
  err.syscall = 'fdatasync';
  return err;
}
