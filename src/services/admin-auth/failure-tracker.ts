/**
 * Counts wrong admin tokens per client address and locks an address out (docs/contract.md,
 * "Admin authentication"). At most `maxAddresses` are tracked, least recently active dropped
 * first: an attacker spraying addresses can only make it forget others' early failures, never
 * unlock itself sooner, since its own entry is the most recent.
 */
import { LRUCache } from 'lru-cache';
import { entryBound } from '../../lib/lru.js';

type Entry = { failures: number; windowStart: number; lockedUntil: number };

export type FailureTrackerOptions = {
  maxFailures: number;
  windowMs: number;
  maxAddresses?: number;
  now?: () => number;
};

export class FailureTracker {
  private readonly entries: LRUCache<string, Entry>;
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(opts: FailureTrackerOptions) {
    this.maxFailures = opts.maxFailures;
    this.windowMs = opts.windowMs;
    this.now = opts.now ?? Date.now;
    this.entries = new LRUCache(entryBound(opts.maxAddresses ?? 10_000));
  }

  /** Milliseconds the address stays locked out, 0 when it is not. */
  lockedFor(key: string): number {
    const e = this.entries.peek(key);
    if (!e) return 0;
    return Math.max(0, e.lockedUntil - this.now());
  }

  /** Records one wrong token; returns the lockout in ms that results (0: not locked). */
  recordFailure(key: string): number {
    const now = this.now();
    let e = this.entries.get(key);
    if (!e || now - e.windowStart >= this.windowMs) {
      e = { failures: 0, windowStart: now, lockedUntil: e?.lockedUntil ?? 0 };
    }
    e.failures += 1;
    if (e.failures > this.maxFailures) {
      e.lockedUntil = now + this.windowMs;
      // The lockout is its own window: counting starts afresh once it is over.
      e.failures = 0;
      e.windowStart = e.lockedUntil;
    }
    this.entries.set(key, e);
    return Math.max(0, e.lockedUntil - now);
  }

  get size(): number {
    return this.entries.size;
  }
}
