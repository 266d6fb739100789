/**
 * Durable without holding the event loop: how a durable commit reaches the disk
 * (engine.ts). Performance machinery; the target it holds is the `store` bench's creates/s
 * and bench:load's order submission p99 (docs/store.md, "SQLite durability").
 *
 * With `synchronous=FULL`, SQLite fsyncs the WAL inside COMMIT, on the calling thread, and
 * better-sqlite3 runs on the event loop: every commit held the whole server (gallery pages
 * too) for the length of an fsync. That is 0.6 ms at the median here (strace), but 8 ms at
 * the p99 and up to 18 ms, and each one froze every connection at once: at 50 connections
 * the order route's p99 was 150-780 ms against a median of 12-20 ms (23-106 ms with this).
 *
 * So the store's connection runs at `synchronous=NORMAL` (SQLite writes the WAL frames but
 * doesn't sync them), and a durable transaction, once committed, calls fdatasync(2) on the
 * WAL file in a thread of its own (wal-sync-thread.ts; libuv's thread pool if that thread is
 * gone) and resolves only when that returns. fdatasync flushes everything written to the
 * file before it, whichever descriptor wrote it, so the transaction's frames and the commit
 * frame that ends it are on disk before anyone hears of it: the same promise as FULL. What
 * NORMAL alone risks (a power cut losing the last commits) is exactly the window before the
 * acknowledgement. Transactions committed meanwhile share the next fdatasync. SQLite's
 * checkpoints sync the WAL before they copy it in either mode, and the WAL file is never
 * deleted while the store's connection is open, so the descriptor stays the file's.
 *
 * `relaxed` transactions (sql/db.ts) skip the fdatasync: the next durable one, or the next
 * checkpoint, takes them to the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Makes everything written so far to the file behind `fd` durable. If it fails, the store
 * stops (engine.ts): after a failed fsync Linux may report a later one as successful
 * although the failed pages never reached the disk, so no later sync can be trusted either.
 */
export type WalSync = (fd: number) => Promise<void>;

/** fdatasync in libuv's thread pool: the fallback of wal-sync-thread.ts. */
export const fdatasyncFile: WalSync = promisify(fs.fdatasync);

/**
 * A descriptor on the database's WAL file, or undefined when there is none to open. The WAL
 * sits beside the database's real path (SQLite follows a symbolic link to the file), and its
 * folder is synced once, so that a WAL created at this start is itself on disk: SQLite does
 * that on a new WAL's first FULL sync, which the store's NORMAL commits skip.
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
