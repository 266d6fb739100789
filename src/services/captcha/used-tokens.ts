/**
 * Memory of CAPTCHA tokens already accepted, so each is accepted once (SPEC §7).
 * An entry is kept until the token could no longer be accepted anyway (its expiry), so
 * memory follows the accepted-token rate, and it is capped at `capacity` entries.
 *
 * When the cap is reached, expired entries are swept (at most once a second), and if it is
 * still full the oldest entry is dropped. That re-opens one old token to a single replay,
 * which buys its holder no more than solving one more challenge would: an acceptable price
 * for bounded memory under a flood (which the rate limits stop long before).
 */
export class UsedTokens {
  private readonly entries = new Map<string, number>();
  private nextSweep = 0;

  constructor(
    private readonly capacity = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Marks `key` used until `expiresAtMs`; false when it already was (a replay). */
  add(key: string, expiresAtMs: number): boolean {
    const now = this.now();
    const seen = this.entries.get(key);
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
      for (const [key, expiresAt] of this.entries) if (expiresAt <= now) this.entries.delete(key);
    }
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
