/**
 * How a durable commit reaches the disk without holding the event loop (engine.ts).
 * Performance machinery for `npm run bench -- store` (creates/s: one caller ≥ 0.6× the raw
 * engine's single-row commits; 10 callers) and bench:load's order p99 (docs/store.md,
 * "SQLite durability").
 *
 * The connection runs at `synchronous=NORMAL`; a durable transaction, once committed, calls
 * fdatasync(2) on the WAL in a thread of its own (wal-sync-thread.ts; libuv's pool if it is
 * gone) and resolves when that returns. fdatasync flushes everything written to the file by
 * any descriptor, so the commit is on disk before anyone hears of it, as with FULL; commits
 * made meanwhile share it. The WAL is never deleted while the connection is open, so the
 * descriptor stays the file's. A commit that is alone is synced on the event loop: for it the
 * hand-over costs more than the freeze it avoids. `relaxed` transactions skip the sync.
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
