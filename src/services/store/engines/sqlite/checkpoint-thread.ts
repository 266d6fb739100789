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
 * Plain JavaScript, evaluated in the thread (`eval: true`): it needs nothing but the driver,
 * and without a TypeScript loader the thread starts in milliseconds (tests start one per
 * store; through tsx each took about 300 ms of CPU).
 */

export type CheckpointThreadData = {
  /** `require.resolve('better-sqlite3')`: the thread loads the same driver as the store. */
  driver: string;
  file: string;
  intervalMs: number;
  busyTimeoutMs: number;
};

/** To the thread: checkpoint now (its report carries `id`), or close the connection and exit. */
export type CheckpointCommand = { type: 'checkpoint'; id: number } | { type: 'stop' };

/**
 * From the thread: ready; after each checkpoint what `wal_checkpoint` reported; or a failure.
 * `id` is the command's for a checkpoint asked for, absent for the timer's.
 */
export type CheckpointReport =
  | { type: 'ready' }
  | { type: 'checkpointed'; busy: number; log: number; checkpointed: number; id?: number }
  | { type: 'failed'; error: string; fatal: boolean; id?: number };

export const CHECKPOINT_THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const send = (report) => parentPort.postMessage(report);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
  db.pragma('synchronous = FULL');
} catch (err) {
  send({ type: 'failed', error: String(err && err.message), fatal: true });
  process.exit(1);
}
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
function run(id) {
  try {
    const r = checkpoint.get();
    send({ type: 'checkpointed', busy: r.busy, log: r.log, checkpointed: r.checkpointed, id });
  } catch (err) {
    // SQLITE_BUSY (another process checkpointing) and the like: the next interval tries again.
    send({ type: 'failed', error: String(err && err.message), fatal: false, id });
  }
}
const timer = setInterval(() => run(undefined), workerData.intervalMs);
parentPort.on('message', (cmd) => {
  if (cmd.type === 'checkpoint') return run(cmd.id);
  clearInterval(timer);
  db.close();
  parentPort.close();
});
send({ type: 'ready' });
`;
