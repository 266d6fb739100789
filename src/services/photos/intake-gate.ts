/**
 * Safe intake (docs/contract.md, "Finding one's photos, and intake"): a file is indexed once
 * settled (size and mtime unchanged for `settleMs`) and complete (header.ts); until then it is
 * pending. The first scan after a start takes files `settleMs` old at once: nothing is copying
 * them. A settled file that can't be read is broken: logged once, shown on the intake panel.
 */
import type { BrokenFile } from './types.js';

/** A file's size and mtime as first seen, and when. */
type Sighting = { sig: string; since: number };

export class IntakeGate {
  private readonly sightings = new Map<string, Sighting>();
  private readonly brokenFiles = new Map<string, BrokenFile & { sig: string }>();
  /** The first scan after start-up: old enough files are taken at once. */
  firstScan = true;

  constructor(
    private readonly settleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether `file` (size, mtime) may be read now. When not, it is pending, and `retryAt` tells
   * when it may have settled.
   */
  settled(file: string, size: number, mtimeMs: number): { ok: true } | { ok: false; retryAt: number } {
    if (this.settleMs <= 0) return { ok: true };
    const now = this.now();
    const sig = `${size}:${mtimeMs}`;
    let seen = this.sightings.get(file);
    if (!seen || seen.sig !== sig) {
      seen = { sig, since: now };
      this.sightings.set(file, seen);
    }
    // Written within the window: still being written, or just done.
    if (now - mtimeMs < this.settleMs) return { ok: false, retryAt: Math.max(mtimeMs, seen.since) + this.settleMs };
    if (this.firstScan || now - seen.since >= this.settleMs) {
      this.sightings.delete(file);
      return { ok: true };
    }
    return { ok: false, retryAt: seen.since + this.settleMs };
  }

  /** A settled file that cannot be read. True the first time this version is reported (log it then). */
  broken(file: string, entry: BrokenFile): boolean {
    const sig = `${entry.size}:${entry.mtimeMs}`;
    const known = this.brokenFiles.get(file);
    if (known?.sig === sig) return false;
    this.brokenFiles.set(file, { ...entry, sig });
    return true;
  }

  /** Read fine, replaced or removed: no longer pending nor broken. */
  clear(file: string): void {
    this.sightings.delete(file);
    this.brokenFiles.delete(file);
  }

  /** Forgets pending and broken files of folders that are gone (`prefix` ends with a separator). */
  forgetUnder(prefix: string): void {
    for (const f of this.sightings.keys()) if (f.startsWith(prefix)) this.sightings.delete(f);
    for (const f of this.brokenFiles.keys()) if (f.startsWith(prefix)) this.brokenFiles.delete(f);
  }

  get pending(): number {
    return this.sightings.size;
  }

  /** The files pending now (start-up waits for those of the first scan). */
  pendingFiles(): string[] {
    return [...this.sightings.keys()];
  }

  isPending(file: string): boolean {
    return this.sightings.has(file);
  }

  brokenList(): BrokenFile[] {
    return [...this.brokenFiles.values()].map(({ sig: _sig, ...entry }) => entry);
  }
}
