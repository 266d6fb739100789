/**
 * Keeps the disk cache of renders from filling the disk. A render's key is everything its
 * bytes depend on, so a replaced original or a changed setting leaves old renders behind
 * for good. A sweep removes orphans older than `graceMs` (another process sharing the
 * folder may have rendered a photo this one has not indexed yet), crashed temp files, and,
 * over `maxBytes`, the oldest previews before thumbnails (a gallery page needs dozens of
 * thumbnails at once). A file removed first by another process is not an error; nothing here
 * fails a request.
 */
import { rm, stat } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { cacheFiles } from './disk-cache.js';
import { type ImageKind, imageKinds } from './types.js';

/** A temp file this old belongs to no write still running (a write takes milliseconds). */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Files examined between two turns of the event loop. */
const BATCH = 500;

export type PruneOptions = {
  /** The disk cache's folder (its layout: disk-cache.ts). */
  dir: string;
  /**
   * Whether a render is still wanted: its key belongs to a photo in the library. Asked only
   * for render files found, so a caller can put off building its answer (hashing every
   * photo's keys) until there is a file to ask about: an empty cache costs nothing.
   */
  isLive: (kind: ImageKind, key: string) => boolean | Promise<boolean>;
  /** Orphans younger than this stay (renders by other processes for photos not indexed here yet). */
  graceMs: number;
  /** Total size the cache may keep; 0 for no limit. */
  maxBytes: number;
  now?: number;
};

export type PruneResult = {
  /** Render files looked at. */
  files: number;
  orphansRemoved: number;
  tempsRemoved: number;
  /** Live renders removed to get under `maxBytes`. */
  evicted: number;
  removedBytes: number;
  /** What the cache holds afterwards (render files). */
  keptBytes: number;
};

type Entry = { file: string; kind: ImageKind; size: number; mtimeMs: number };

export async function pruneDiskCache(opts: PruneOptions): Promise<PruneResult> {
  const now = opts.now ?? Date.now();
  const result: PruneResult = {
    files: 0,
    orphansRemoved: 0,
    tempsRemoved: 0,
    evicted: 0,
    removedBytes: 0,
    keptBytes: 0,
  };
  const live: Entry[] = [];
  let keptOrphanBytes = 0;
  let seen = 0;

  for await (const entry of cacheFiles(opts.dir, imageKinds)) {
    if (++seen % BATCH === 0) await yieldToEventLoop();
    const st = await statOf(entry.file);
    if (!st) continue; // removed meanwhile by another process
    if (entry.type === 'temp') {
      if (now - st.mtimeMs > STALE_TEMP_MS && (await remove(entry.file))) {
        result.tempsRemoved++;
        result.removedBytes += st.size;
      }
      continue;
    }
    result.files++;
    if (await opts.isLive(entry.kind, entry.key)) {
      live.push({ file: entry.file, kind: entry.kind, size: st.size, mtimeMs: st.mtimeMs });
    } else if (now - st.mtimeMs >= opts.graceMs && (await remove(entry.file))) {
      result.orphansRemoved++;
      result.removedBytes += st.size;
    } else {
      keptOrphanBytes += st.size;
    }
  }

  let total = keptOrphanBytes + live.reduce((sum, e) => sum + e.size, 0);
  if (opts.maxBytes > 0 && total > opts.maxBytes) {
    // Previews before thumbnails, each oldest-written first.
    const rank = (e: Entry) => (e.kind === 'preview' ? 0 : 1);
    live.sort((a, b) => rank(a) - rank(b) || a.mtimeMs - b.mtimeMs);
    for (const e of live) {
      if (total <= opts.maxBytes) break;
      if (await remove(e.file)) {
        result.evicted++;
        result.removedBytes += e.size;
        total -= e.size;
      }
    }
  }
  result.keptBytes = total;
  return result;
}

async function statOf(file: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const st = await stat(file);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** True when this call removed it (false when it was gone already or can't be removed). */
async function remove(file: string): Promise<boolean> {
  try {
    await rm(file);
    return true;
  } catch {
    return false;
  }
}
