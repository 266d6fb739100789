/**
 * A second core for big scans: a worker thread (header-thread.ts) that stats files and
 * reads their headers, a chunk of files per message, while the event loop reads others.
 *
 * Why: a cold index of 50,000 photos is CPU work (EXIF and frame-header parsing, about
 * half of it) plus four system calls per file, all on one thread; on this 2-core machine
 * it took 3.1-5.6 s. The library starts one thread for a scan with many files to read and
 * stops it when the scan ends, so a server that isn't scanning holds no extra isolate.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../lib/thread.js';

/** A file to look at; `knownSize`/`knownMtimeMs` -1 when the index has no record of it. */
export type HeaderTask = { file: string; knownSize: number; knownMtimeMs: number };

export type HeaderResult =
  | { kind: 'gone' } // not there (any more), or not a file
  | { kind: 'same' } // size and mtime as known: not read
  | { kind: 'read'; size: number; mtimeMs: number; width: number; height: number; takenAtMs: number | null }
  | { kind: 'failed'; size: number; mtimeMs: number; error: string };

export type HeaderChunk = { id: number; tasks: HeaderTask[] };
type Reply = { id: number; results: HeaderResult[] };

/** Threads worth starting here: one per core the event loop doesn't use, at most 3. */
export function headerThreadsFor(cores = availableParallelism()): number {
  return Math.max(0, Math.min(cores - 1, 3));
}

export class HeaderThread {
  private readonly pending = new Map<number, { resolve: (r: HeaderResult[]) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiter?.resolve(reply.results);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the header thread exited (code ${code})`)));
  }

  static start(): HeaderThread {
    return new HeaderThread(startThread(import.meta.url, 'header-thread'));
  }

  /** Results in the order of `tasks`. Rejects when the thread fails; the caller reads them itself. */
  read(tasks: HeaderTask[]): Promise<HeaderResult[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, tasks } satisfies HeaderChunk);
    });
  }

  async stop(): Promise<void> {
    this.fail(new Error('the header thread was stopped'));
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }
}
