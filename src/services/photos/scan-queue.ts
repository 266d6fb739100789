/**
 * The one line the photo library's work waits in: scans, commits and reads of the catalogue
 * run one at a time, in order, so that they never overlap; a failed one is logged and the
 * next one runs.
 */
import type { Logger } from '../../lib/logger.js';

export class ScanQueue {
  private chain: Promise<void> = Promise.resolve();
  private pendingFull: Promise<void> | null = null;

  constructor(private readonly log: Logger) {}

  /** Runs `fn` after everything queued before it; settles (never rejects) once it has run. */
  enqueue(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch((err: unknown) => {
      this.log.error({ err }, 'photo library scan failed');
    });
    return this.chain;
  }

  /** Queues a full rescan, unless one already waits to start: its callers share that one. */
  fullRescan(scan: () => Promise<void>): Promise<void> {
    if (this.pendingFull) return this.pendingFull;
    const p = this.enqueue(async () => {
      this.pendingFull = null;
      await scan();
    });
    this.pendingFull = p;
    return p;
  }

  /** Settles once everything queued so far has run. */
  idle(): Promise<void> {
    return this.chain;
  }
}
