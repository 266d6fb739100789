/**
 * Durable without holding the event loop: how a batch of group-committed creates reaches the
 * disk (sqlite/index.ts).
 *
 * With `synchronous=FULL`, SQLite fsyncs the WAL inside COMMIT, on the calling thread, and
 * better-sqlite3 runs on the event loop: every batch held the whole server (gallery pages
 * too) for the length of an fsync. That is 0.6 ms at the median here (strace), but 8 ms at
 * the p99 and up to 18 ms, and each one froze every connection at once: at 50 connections
 * the order route's p99 was 150-780 ms against a median of 12-20 ms (23-106 ms with this).
 *
 * A batch of several creates therefore commits with `synchronous=NORMAL` (SQLite writes the
 * WAL frames but doesn't sync them) and then calls fdatasync(2) on the WAL file in a thread
 * of its own (wal-sync-thread.ts; libuv's thread pool if that thread is gone); its orders
 * resolve only when that returns. fdatasync flushes everything
 * written to the file before it, whichever descriptor wrote it, so the batch's frames and
 * the commit frame that ends it are on disk before anyone hears "created": the same promise
 * as FULL. What NORMAL alone risks (a power cut losing the last commits) is exactly the
 * window before the acknowledgement. SQLite's checkpoints sync the WAL before they copy it
 * in either mode, and the WAL file is never deleted while the store's connection is open,
 * so the descriptor stays the file's.
 *
 * Idempotency keys' completions and releases, one of each kind per order that sends a key,
 * are synced the same way (sqlite/index.ts, `writeDurable`); their reservations, like the
 * outbox's bookkeeping (claims, sent, failed: one write per mail), commit at NORMAL without a
 * sync of its own (`write(fn, 'unsynced')`): the next sync of the WAL takes them along, and
 * losing them to a power cut before it only frees a key no order was made under, or sends a
 * mail again. Left to FULL: a lone create (nothing to overlap with; a hop to another thread
 * would only add latency) and every other write (status changes, settings, mail enqueued with
 * them), which are rare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';

/**
 * Makes everything written so far to the file behind `fd` durable. If it fails, the store
 * stops (sqlite/index.ts): after a failed fsync Linux may report a later one as successful
 * although the failed pages never reached the disk, so no later sync can be trusted either.
 */
export type WalSync = (fd: number) => Promise<void>;

/** fdatasync in libuv's thread pool: the fallback of wal-sync-thread.ts. */
export const fdatasyncFile: WalSync = promisify(fs.fdatasync);

/**
 * A descriptor on the database's WAL file, or undefined when there is none to open. The WAL
 * sits beside the database's real path (SQLite follows a symbolic link to the file), and its
 * folder is synced once, so that a WAL created at this start is itself on disk: SQLite does
 * that on a new WAL's first FULL sync, which the NORMAL commits of batches skip.
 */
export function openWal(databaseFile: string): number | undefined {
  let fd: number | undefined;
  try {
    const wal = `${fs.realpathSync(databaseFile)}-wal`;
    fd = fs.openSync(wal, 'r+');
    const dir = fs.openSync(path.dirname(wal), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
    return fd;
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    return undefined;
  }
}

/**
 * Runs `fn` (a transaction) with the connection at `synchronous = NORMAL`, then puts it back
 * to FULL. Through `db.pragma()` each time, not a prepared statement: SQLite applies
 * `PRAGMA synchronous` when the statement is prepared, so running a prepared one does
 * nothing (a prepared NORMAL/FULL pair left every batch at FULL).
 */
export function withoutSync<T>(db: Database.Database, fn: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    restoreFull(db);
  }
}

/** Thrown when the connection can't be put back to FULL: from then on nothing it writes is known to be synced. */
export class SyncLevelError extends Error {}

function restoreFull(db: Database.Database): void {
  try {
    db.pragma('synchronous = FULL');
  } catch (err) {
    throw new SyncLevelError('the connection could not be set back to synchronous=FULL', { cause: err });
  }
}
