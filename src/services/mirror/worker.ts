/**
 * The mirror worker: beside the record, never in the way of an order. Every `flushMs` it
 * looks for orders new or changed since it last wrote them and writes them in one append and
 * one batch update; every `readIntervalMs` (ORDER_CACHE_TTL_MS), and before writing orders
 * that are in the sheet already, it reads the sheet and applies hand edits (inbound.ts).
 * A failure is kept as the last error (in words) and the next pass waits longer (backoff
 * with full jitter, up to `maxBackoffMs`); nothing is lost meanwhile, the record holds it all.
 */
import type { Logger } from '../../lib/logger.js';
import type { MirrorPort } from '../store/ports/mirror.js';
import type { OrdersPort } from '../store/ports/orders.js';
import { describeSheetsError } from './error-words.js';
import { readAndApply } from './inbound.js';
import type { Leader } from './leader.js';
import { writePending } from './outbound.js';
import type { OrderTab } from './sheets/order-tab.js';

export type MirrorWorkerOptions = {
  tab: OrderTab;
  store: { mirror: MirrorPort; orders: OrdersPort };
  leader: Leader;
  log: Logger;
  spreadsheetId: string;
  serviceAccountEmail?: string;
  /** How often the sheet is read for hand edits (ORDER_CACHE_TTL_MS). */
  readIntervalMs: number;
  /** How often new and changed orders are looked for (MIRROR_FLUSH_MS). */
  flushMs: number;
  /** Orders written per pass at most. */
  batchLimit?: number;
  maxBackoffMs?: number;
};

export type PassResult = { read: boolean; appended: number; updated: number; imported: number };

export class MirrorWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private failures = 0;
  private lastReadAt = 0;
  /** Set when a write may have landed unrecorded: read the sheet before appending again. */
  private mustRead = true;
  /** The change marker when nothing was pending: unchanged, there is nothing to look for. */
  private quietMarker: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: MirrorWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops after the pass under way (its writes are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.opts.leader.release();
  }

  get leading(): boolean {
    return this.opts.leader.held;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
      });
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let delay = this.opts.flushMs;
    try {
      if (await this.opts.leader.acquire()) await this.pass();
      else this.mustRead = true; // whoever mirrors now may have written; read before writing when it is us
    } catch (err) {
      delay = await this.failed(err);
    }
    this.schedule(delay);
  }

  /**
   * One pass: read if due, write what is pending. Throws what the sheet or the record threw.
   * Passes run one at a time (a pass asked for while one runs starts after it).
   */
  pass(): Promise<PassResult> {
    const next = this.queue.then(() => this.passAlone());
    this.queue = next.catch(() => {});
    return next;
  }

  private async passAlone(): Promise<PassResult> {
    const { tab, store, log } = this.opts;
    const result: PassResult = { read: false, appended: 0, updated: 0, imported: 0 };
    const readDue = Date.now() - this.lastReadAt >= this.opts.readIntervalMs;
    const marker = await store.mirror.changeMarker();
    if (!readDue && !this.mustRead && marker === this.quietMarker) return result;
    let pending = await store.mirror.pending(this.opts.batchLimit ?? 500);
    let rowOf: Map<string, number> | null = null;
    if (readDue || this.mustRead || !tab.opened || pending.some((p) => p.written)) {
      if (!tab.opened) await tab.open();
      const inbound = await readAndApply(tab, store, log);
      const state = await store.mirror.state();
      if (!state.importedAt) await store.mirror.setState({ importedAt: new Date().toISOString() });
      this.lastReadAt = Date.now();
      this.mustRead = false;
      rowOf = inbound.rowOf;
      result.read = true;
      result.imported = inbound.imported;
      pending = await store.mirror.pending(this.opts.batchLimit ?? 500);
    }
    if (pending.length > 0) {
      try {
        const out = await writePending(tab, store.mirror, pending, rowOf);
        result.appended = out.appended;
        result.updated = out.updated;
      } catch (err) {
        this.mustRead = true;
        throw err;
      }
    }
    this.quietMarker = pending.length === 0 ? marker : null;
    if (result.read || pending.length > 0) await this.succeeded();
    return result;
  }

  private async succeeded(): Promise<void> {
    if (this.failures > 0) this.opts.log.info({ after: this.failures }, 'mirror: the spreadsheet answers again');
    this.failures = 0;
    await this.opts.store.mirror.setState({ lastSyncAt: new Date().toISOString(), lastError: null });
  }

  /** Records the failure in words and returns how long to wait before the next pass. */
  private async failed(err: unknown): Promise<number> {
    this.failures += 1;
    const words = describeSheetsError(err, {
      spreadsheetId: this.opts.spreadsheetId,
      ...(this.opts.serviceAccountEmail ? { email: this.opts.serviceAccountEmail } : {}),
    });
    this.opts.log.warn({ failures: this.failures, err: (err as Error)?.message }, `mirror: ${words}`);
    try {
      await this.opts.store.mirror.setState({ lastError: words, lastErrorAt: new Date().toISOString() });
    } catch {
      // the record is unreachable too; its own readiness check says so
    }
    const ceiling = Math.min(this.opts.maxBackoffMs ?? 5_000, this.opts.flushMs * 2 ** this.failures);
    return Math.max(this.opts.flushMs, Math.round(Math.random() * ceiling));
  }
}
