/**
 * Memory of CAPTCHA tokens already accepted, so each is accepted once (docs/contract.md, "CAPTCHA").
 * An entry is kept until the token could no longer be accepted anyway (its expiry), so
 * memory follows the accepted-token rate, and it is capped at `capacity` entries.
 *
 * When the cap is reached, expired entries are swept (at most once a second), and if it is
 * still full the oldest entry is dropped (lru-cache, O(1); a plain Map dropping its first
 * key steps over every slot deleted before it, quadratic under a flood). That re-opens one
 * old token to a single replay, which buys its holder no more than solving one more
 * challenge would: an acceptable price for bounded memory under a flood (which the rate
 * limits stop long before).
 */
import { LRUCache } from 'lru-cache';

export class UsedTokens {
  private readonly entries: LRUCache<string, number>;
  private nextSweep = 0;

  constructor(
    private readonly capacity = 50_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: capacity });
  }

  /** Marks `key` used until `expiresAtMs`; false when it already was (a replay). */
  add(key: string, expiresAtMs: number): boolean {
    const now = this.now();
    // peek: a lookup doesn't make an entry younger; the oldest accepted goes first
    const seen = this.entries.peek(key);
    if (seen !== undefined && seen > now) return false;
    if (seen === undefined && this.entries.size >= this.capacity) this.makeRoom(now);
    this.entries.set(key, expiresAtMs);
    return true;
  }

  /** Forgets `key` (a verification that could not be completed, so the token was not used). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private makeRoom(now: number): void {
    if (now >= this.nextSweep) {
      this.nextSweep = now + 1000;
      const expired: string[] = [];
      for (const [key, expiresAt] of this.entries.entries()) if (expiresAt <= now) expired.push(key);
      for (const key of expired) this.entries.delete(key);
    }
    // still full: the set that follows drops the oldest entry
  }
}
