/**
 * Durable without holding the event loop when it matters: how a durable commit reaches the
 * disk (engine.ts). Performance machinery; the targets it holds are the `store` bench's
 * creates/s (one caller: ≥ 0.6× the raw engine's single-row commits; 10 callers) and
 * bench:load's order submission p99 (docs/store.md, "SQLite durability").
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
 * A commit that is alone (one caller's, no sync under way, no transaction queued behind it)
 * is synced on the event loop instead, as FULL would: for a lone commit the hand-over to the
 * thread and back (about 100 µs, and a turn of a busy event loop to hear of it) costs more
 * than the freeze it avoids. Measured: one caller 0.45–0.49× the raw engine through the
 * thread, 0.57–0.59× synced in place; in bench:load (orders one at a time between gallery
 * pages) order p99 84–99 ms through the thread, 71–76 ms in place, the gallery's p99 the same
 * (53–60 ms). As soon as commits overlap (a group commit's batch, a transaction queued behind,
 * a sync under way) they go to the thread, so a rush of orders never freezes the event loop
 * once per fsync.
 *
 * `relaxed` transactions (sql/db.ts) skip the fdatasync: the next durable one, or the next
 * checkpoint, takes them to the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Makes everything written so far to the file behind `fd` durable; `alone` says nothing else
 * is committing meanwhile (the sync may then hold the calling thread). If it fails, the store
 * stops (engine.ts): after a failed fsync Linux may report a later one as successful
 * although the failed pages never reached the disk, so no later sync can be trusted either.
 */
export type WalSync = (fd: number, alone?: boolean) => Promise<void>;

/** fdatasync in libuv's thread pool: the fallback of wal-sync-thread.ts. */
const fdatasync = promisify(fs.fdatasync);
// One argument only: given `alone` too, fs.fdatasync would take it for its callback.
export const fdatasyncFile: WalSync = (fd) => fdatasync(fd);

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
