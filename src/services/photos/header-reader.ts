/**
 * A second core for big scans: a worker thread (header-thread.ts) that stats files and reads
 * their headers, a chunk per message, while the event loop reads others (a cold index is CPU
 * work: bench/gallery). Started for a scan with many files to read and stopped when it ends,
 * so a server that isn't scanning holds no extra isolate.
 */
import { availableParallelism } from 'node:os';
import { startThread, ThreadCalls } from '../../lib/thread.js';
import type { SidecarRef } from './file-version.js';
import type { ReadMetadata } from './metadata.js';

/**
 * A file to look at; `knownSize`/`knownMtimeMs` -1 when the index has no record of it.
 * `withMetadata`: the photographer's metadata is read too (file-version.ts), and an unchanged
 * file is read again when its sidecar's version is not `knownSidecar` (null: never read).
 */
export type HeaderTask = {
  file: string;
  knownSize: number;
  knownMtimeMs: number;
  withMetadata?: boolean;
  sidecar?: SidecarRef;
  knownSidecar?: string | null;
};

export type HeaderResult =
  | { kind: 'gone' } // not there (any more), or not a file
  | { kind: 'same' } // size and mtime as known: not read
  | {
      kind: 'read';
      size: number;
      mtimeMs: number;
      width: number;
      height: number;
      takenAtMs: number | null;
      meta?: ReadMetadata;
    }
  | { kind: 'failed'; size: number; mtimeMs: number; error: string };

/** Threads worth starting here: one per core the event loop doesn't use, at most 3. */
export function headerThreadsFor(cores = availableParallelism()): number {
  return Math.max(0, Math.min(cores - 1, 3));
}

export class HeaderThread {
  private constructor(private readonly calls: ThreadCalls<HeaderTask[], HeaderResult[]>) {}

  static start(): HeaderThread {
    return new HeaderThread(new ThreadCalls(startThread(import.meta.url, 'header-thread'), 'header'));
  }

  /** Results in the order of `tasks`. Rejects when the thread fails; the caller reads them itself. */
  read(tasks: HeaderTask[]): Promise<HeaderResult[]> {
    return this.calls.call(tasks);
  }

  stop(): Promise<void> {
    return this.calls.stop(new Error('the header thread was stopped'));
  }
}
