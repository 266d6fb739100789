/**
 * The WAL-sync thread's code (wal-sync-thread.ts starts it with `startThread`): waits in
 * `Atomics.wait` for a sync asked for in the shared slots (wal-sync-slots.ts), runs
 * fdatasync on the descriptor, writes back the errno (0 when it succeeded) and the sync's
 * number, and waits again; a request of -1 ends it.
 *
 * The one thread that is not talked to with `answerCalls`: it never returns to an event
 * loop, so that a commit batch's sync starts without a message's round trip
 * (wal-sync-thread.ts says what that saves). It imports nothing but Node's, so it starts in
 * milliseconds.
 */
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import { DONE, ERRNO, FD, REQUEST } from './wal-sync-slots.js';

const slots = new Int32Array(workerData as SharedArrayBuffer);
let seen = 0;
for (;;) {
  Atomics.wait(slots, REQUEST, seen);
  seen = Atomics.load(slots, REQUEST);
  if (seen < 0) break;
  let errno = 0;
  try {
    fs.fdatasyncSync(Atomics.load(slots, FD));
  } catch (err) {
    const e = (err as NodeJS.ErrnoException).errno;
    errno = typeof e === 'number' && e !== 0 ? e : -5; // EIO
  }
  Atomics.store(slots, ERRNO, errno);
  Atomics.store(slots, DONE, seen);
  Atomics.notify(slots, DONE);
}
