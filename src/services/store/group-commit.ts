/**
 * Performance machinery for `npm run bench -- store` (creates/s ≥ 0.6× the raw engine's
 * single-row commits) and `npm run bench -- orders` (≥ 0.5× a bare validating route).
 *
 * Group commit for order creates (docs/store.md, "SQLite durability"): one transaction and one
 * fsync per order would cap throughput at one fsync per order, so creates that arrive in the
 * same turn of the event loop, or while the previous batch commits, are written together.
 * A lone create waits one `setImmediate` at most; `write` reports an outcome per item, so one
 * bad item fails alone.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

type Waiting<T, R> = { item: T; resolve: (r: R) => void; reject: (e: unknown) => void };

export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private busy = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly write: (items: T[]) => Promise<Outcome<R>[]> | Outcome<R>[],
    private readonly maxBatch = 200,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Resolves once everything submitted so far is written (close waits for it). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      let outcomes: Outcome<R>[];
      try {
        outcomes = await this.write(batch.map((w) => w.item));
      } catch (error) {
        outcomes = batch.map(() => ({ ok: false, error }));
      }
      batch.forEach((w, i) => {
        const o = outcomes[i] ?? { ok: false, error: new Error('no outcome for a batched write') };
        if (o.ok) w.resolve(o.value);
        else w.reject(o.error);
      });
    }
    this.busy = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
