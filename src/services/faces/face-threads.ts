/**
 * The face threads: face detection and description off the event loop (a picture takes about
 * a second of a core: bench/RESULTS.md), in `FACE_THREADS` worker threads, each with its own
 * WASM engine (about 150 MB once its models are loaded). A thread starts with the first picture
 * and stops after `idleMs` without one, so a server with nothing to index holds none; one that
 * failed is replaced by the next picture.
 *
 * Each thread is given one picture at a time, so a selfie (`now`) waits at most for the picture
 * a thread is on: selfies go before every picture of the background indexing.
 */
import { startThread, ThreadCalls } from '../../lib/thread.js';
import type { FoundFace } from './engine.js';
import type { FaceTask } from './face-thread.js';

type Waiting = { task: FaceTask; resolve: (faces: FoundFace[]) => void; reject: (err: Error) => void };
type Slot = { calls: ThreadCalls<FaceTask, FoundFace[]> | undefined; busy: boolean; idleTimer?: NodeJS.Timeout };

export class FaceThreads {
  private readonly slots: Slot[];
  private readonly now: Waiting[] = [];
  private readonly background: Waiting[] = [];
  private closed = false;

  constructor(
    threads: number,
    private readonly idleMs: number,
  ) {
    this.slots = Array.from({ length: threads }, () => ({ calls: undefined, busy: false }));
  }

  /** Threads running (loaded or loading their engine). */
  get running(): number {
    return this.slots.filter((s) => s.calls && !s.calls.failed).length;
  }

  /** The faces in the picture; `now` for a visitor waiting, `background` for indexing. */
  describe(task: FaceTask, lane: 'now' | 'background'): Promise<FoundFace[]> {
    if (this.closed) return Promise.reject(new Error('the face threads are closed'));
    return new Promise((resolve, reject) => {
      (lane === 'now' ? this.now : this.background).push({ task, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const reason = new Error('the face threads are closed');
    for (const waiting of [...this.now.splice(0), ...this.background.splice(0)]) waiting.reject(reason);
    await Promise.all(this.slots.map((slot) => this.stop(slot, reason)));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const next = this.now.shift() ?? this.background.shift();
      if (!next) return;
      this.run(slot, next);
    }
  }

  private run(slot: Slot, waiting: Waiting): void {
    clearTimeout(slot.idleTimer);
    if (!slot.calls || slot.calls.failed) {
      slot.calls = new ThreadCalls(startThread(import.meta.url, 'face-thread'), 'face');
    }
    const calls = slot.calls;
    slot.busy = true;
    calls
      .call(waiting.task)
      .then(waiting.resolve, waiting.reject)
      .finally(() => {
        slot.busy = false;
        if (this.closed) return;
        this.dispatch();
        if (!slot.busy && slot.calls === calls) {
          slot.idleTimer = setTimeout(() => void this.stop(slot, new Error('the face thread was idle')), this.idleMs);
          slot.idleTimer.unref();
        }
      });
  }

  private async stop(slot: Slot, reason: Error): Promise<void> {
    clearTimeout(slot.idleTimer);
    const calls = slot.calls;
    slot.calls = undefined;
    await calls?.stop(reason);
  }
}
