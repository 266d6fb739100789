/**
 * The checkpoint thread's code (checkpointer.ts starts it): its own connection copies
 * committed WAL frames into the database file every `intervalMs` with
 * `wal_checkpoint(PASSIVE)`, which never waits for writers or readers. `synchronous = FULL`
 * here makes the checkpoint fsync the WAL before copying and the database file after.
 * It imports nothing of the server but lib/thread.ts, so it starts in milliseconds.
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
