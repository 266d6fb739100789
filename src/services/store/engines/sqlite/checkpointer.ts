/**
 * Performance machinery for `npm run bench -- store` (creates/s ≥ 0.6× the raw engine's
 * single-row commits; one caller without the checkpoint thread is printed beside).
 *
 * Runs SQLite's WAL checkpoints in a thread of their own (checkpoint-thread.ts), so their copy
 * and fsync never hold the event loop. While it runs, the store's connection never
 * checkpoints; if it fails, that connection goes back to SQLite's default, so the WAL can't
 * grow without bound. Under steady writes a checkpoint never copies every frame, and the WAL
 * only starts over once one has: so a long WAL makes the store hold one batch of creates for a
 * `quietCheckpoint()` (`wantsQuiet`). The thread starts at the first write: an app that only
 * reads never pays for it. Several processes' threads just take turns.
 * docs/store.md, "SQLite durability".
 */
import type { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Logger } from '../../../../lib/logger.js';
import { startThread, ThreadCalls } from '../../../../lib/thread.js';
import type { CheckpointCommand, CheckpointReport, CheckpointThreadData } from './checkpoint-thread.js';

/** SQLite's default threshold (pages), for the store's connection when the thread is gone. */
const AUTO_CHECKPOINT_PAGES = 1000;
/** How long a stopping thread may take to close its connection before it is terminated. */
const STOP_GRACE_MS = 2000;
/** A timer checkpoint that finds this many WAL frames or more asks for a quiet one (SQLite's own threshold). */
const QUIET_CHECKPOINT_FRAMES = AUTO_CHECKPOINT_PAGES;
/** The longest a quiet checkpoint holds the store's creates, whatever the thread is doing. */
export const QUIET_MAX_WAIT_MS = 1000;

export type CheckpointerOptions = {
  /** The store's own connection: it stops checkpointing once the thread is ready. */
  db: Database.Database;
  file: string;
  intervalMs: number;
  busyTimeoutMs: number;
  log: Logger;
};

export class Checkpointer {
  /** The thread while it does the checkpoints (null until it starts, and once stopped or gone). */
  private worker: Worker | null = null;
  private calls: ThreadCalls<CheckpointCommand, CheckpointReport> | undefined;
  private stopped = false;
  /** The store connection's `total_changes()`: the thread starts once it moves. */
  private readonly changes: Database.Statement;
  private readonly changesAtOpen: unknown;
  /** Asks for the timer's checkpoints, one at a time (a tick while one is under way is skipped). */
  private readonly timer: NodeJS.Timeout;
  private timerCheckpoint = false;
  private lastFailure = '';
  /** The last timer checkpoint found a WAL of QUIET_CHECKPOINT_FRAMES or more. */
  private behind = false;

  constructor(private readonly opts: CheckpointerOptions) {
    this.changes = opts.db.prepare('SELECT total_changes()').pluck();
    this.changesAtOpen = this.changes.get();
    this.timer = setInterval(() => this.onTimer(), opts.intervalMs);
    this.timer.unref();
  }

  /** The thread's calls, starting it (and its connection) the first time. */
  private thread(): ThreadCalls<CheckpointCommand, CheckpointReport> {
    if (this.calls) return this.calls;
    const workerData: CheckpointThreadData = { file: this.opts.file, busyTimeoutMs: this.opts.busyTimeoutMs };
    const w = startThread(import.meta.url, 'checkpoint-thread', { workerData });
    // Never keeps the process alive on its own.
    w.unref();
    w.on('error', (err) => this.gone(`crashed: ${err.message}`));
    w.on('exit', (code) => this.gone(`exited with code ${code}`));
    this.worker = w;
    const calls = new ThreadCalls<CheckpointCommand, CheckpointReport>(w, 'checkpoint');
    this.calls = calls;
    calls.call({ type: 'open' }).then(
      (r) => this.report(r),
      (err: Error) => {
        this.report({ type: 'failed', error: err.message, fatal: true });
        void calls.stop(err);
      },
    );
    return calls;
  }

  /** True until the thread is stopped or gone (it starts when first needed). */
  get running(): boolean {
    return !this.stopped;
  }

  /** A checkpoint now, in the thread; resolves with what that checkpoint reported (tests, tools). */
  checkpointNow(): Promise<CheckpointReport> {
    if (this.stopped) {
      return Promise.resolve({ type: 'failed', error: 'the checkpoint thread is not running', fatal: true });
    }
    return this.checkpoint().then((r) => {
      // A thread gone meanwhile is warned of once, as stopped.
      if (this.worker) this.noteFailure(r);
      return r;
    });
  }

  /** A checkpoint in the thread; a thread gone meanwhile answers as a fatal failure. */
  private checkpoint(): Promise<CheckpointReport> {
    return this.thread()
      .call({ type: 'checkpoint' })
      .catch((err: Error): CheckpointReport => ({ type: 'failed', error: err.message, fatal: true }));
  }

  /** The timer's checkpoint: when its report finds the WAL long, the next writes wait for a quiet one. */
  private onTimer(): void {
    if (this.stopped || this.timerCheckpoint) return;
    if (!this.calls && this.changes.get() === this.changesAtOpen) return;
    this.timerCheckpoint = true;
    void this.checkpoint().then((r) => {
      this.timerCheckpoint = false;
      if (!this.worker) return;
      this.noteFailure(r);
      // Not `checkpointed < log`: both count the frames the checkpoint saw when it began, so
      // they agree even when commits went on meanwhile. A WAL that started over since the
      // last timer checkpoint holds only the frames written since; one that did not, more.
      if (r.type === 'checkpointed') this.behind = r.log >= QUIET_CHECKPOINT_FRAMES;
    });
  }

  /** True when the store should hold its next writes for a `quietCheckpoint()`: the last timer checkpoint found a long WAL. */
  get wantsQuiet(): boolean {
    return this.behind;
  }

  /**
   * A checkpoint while the caller holds its writes back, so that it copies every frame and the
   * next write starts the WAL over. At most QUIET_MAX_WAIT_MS, once per timer checkpoint.
   */
  async quietCheckpoint(): Promise<void> {
    this.behind = false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, QUIET_MAX_WAIT_MS);
    });
    try {
      await Promise.race([this.checkpointNow(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops the thread (it closes its connection first) and hands checkpoints back to the store's connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.behind = false;
    clearInterval(this.timer);
    if (!this.calls || !this.worker) return; // never started, or gone
    this.worker = null;
    // It closes its connection first; one stuck longer than STOP_GRACE_MS is ended all the same.
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      this.calls.call({ type: 'stop' }).catch(() => {}),
      new Promise<void>((resolve) => {
        grace = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
    await this.calls.stop(new Error('the checkpoint thread stopped'));
    this.autoCheckpoint(AUTO_CHECKPOINT_PAGES);
  }

  /** The open's answer: ready turns the store's own checkpoints off. */
  private report(r: CheckpointReport): void {
    if (r.type === 'ready') {
      if (this.worker) this.autoCheckpoint(0);
      return;
    }
    this.noteFailure(r);
  }

  /** Warns of a failed checkpoint, once per distinct message: a lock held by another process fails every interval. */
  private noteFailure(r: CheckpointReport): void {
    if (r.type === 'failed' && r.error !== this.lastFailure) {
      this.lastFailure = r.error;
      this.opts.log.warn({ error: r.error }, 'SQLite checkpoint failed; the next interval tries again');
    }
    if (r.type === 'checkpointed') this.lastFailure = '';
  }

  private gone(why: string): void {
    if (!this.worker) return; // stopped on purpose
    this.worker = null;
    this.stopped = true;
    this.behind = false;
    clearInterval(this.timer);
    this.autoCheckpoint(AUTO_CHECKPOINT_PAGES);
    this.opts.log.warn({ why }, 'SQLite checkpoint thread stopped; the store checkpoints on commit instead');
  }

  private autoCheckpoint(pages: number): void {
    if (this.opts.db.open) this.opts.db.pragma(`wal_autocheckpoint = ${pages}`);
  }
}
