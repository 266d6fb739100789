/**
 * The checkpoint thread's code (checkpointer.ts starts it): its own connection to the order
 * database, which copies committed WAL frames back into the database file every
 * `intervalMs` (`PRAGMA wal_checkpoint(PASSIVE)`), off the event loop that serves requests.
 *
 * PASSIVE never waits for the writer or readers: it copies what it can and returns, and
 * writers go on appending to the WAL meanwhile. Once every frame is copied, the next write
 * starts the WAL over from its beginning, so the file stays as small as one interval's
 * writes. `synchronous = FULL` is per connection, and here it makes the checkpoint fsync
 * the WAL before copying and the database file after.
 *
 * Started with `startThread` and answering with `answerCalls` (lib/thread.ts): `open` first
 * (its own connection), then `checkpoint` on the checkpointer's timer or when asked, `stop`
 * last. It imports nothing of the server but those two helpers, so it starts in milliseconds.
 */

import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { answerCalls } from '../../../../lib/thread.js';

export type CheckpointThreadData = {
  file: string;
  busyTimeoutMs: number;
};

/** To the thread: open its connection, checkpoint now, or close the connection. */
export type CheckpointCommand = { type: 'open' } | { type: 'checkpoint' } | { type: 'stop' };

/**
 * From the thread: ready (opened), closed (stopped); after each checkpoint what
 * `wal_checkpoint` reported, or a failure. An `open` that fails rejects its call.
 */
export type CheckpointReport =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'checkpointed'; busy: number; log: number; checkpointed: number }
  | { type: 'failed'; error: string; fatal: boolean };

let checkpoint: Database.Statement | undefined;
let db: Database.Database | undefined;
answerCalls<CheckpointCommand, CheckpointReport>((cmd) => {
  if (cmd.type === 'open') {
    const { file, busyTimeoutMs } = workerData as CheckpointThreadData;
    db = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
    db.pragma('synchronous = FULL');
    checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    return { type: 'ready' };
  }
  if (cmd.type === 'stop') {
    db?.close();
    return { type: 'closed' };
  }
  if (!checkpoint) return { type: 'failed', error: 'the connection is not open', fatal: true };
  try {
    const r = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    return { type: 'checkpointed', busy: r.busy, log: r.log, checkpointed: r.checkpointed };
  } catch (err) {
    // SQLITE_BUSY (another process checkpointing) and the like: the next interval tries again.
    return { type: 'failed', error: String((err as Error | undefined)?.message), fatal: false };
  }
});
