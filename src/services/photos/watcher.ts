/**
 * Watches the library's (few) folders with `fs.watch` and tells which changed: the root
 * (events added or removed), an event (its day folders or event.json), or a session. Events
 * are debounced into one pass, but a steady stream of them (a long copy) still gets a pass
 * every five debounce periods. `markDirty` is also how other parts ask for a session to be
 * read again later (a file that has not settled yet).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../lib/logger.js';
import { type DayTree, sessionKey } from './photo-index.js';

export type WatchTarget = { code?: string; day?: string; session?: string };

/** What changed since the last pass: the root listing, and per event the sessions (empty set: folders only). */
export type DirtySet = { root: boolean; events: Map<string, Set<string>> };

export type Watcher = {
  markDirty(target: WatchTarget): void;
  /** Watches exactly the folders of these events (and the root); new folders get a follow-up look. */
  sync(events: Iterable<{ code: string; tree: DayTree }>): void;
  close(): void;
};

export function createWatcher(opts: {
  photosDir: string;
  debounceMs: number;
  /** Called with what changed, at most once per debounce. */
  onDirty(dirty: DirtySet): void;
  log: Logger;
}): Watcher {
  const { photosDir, debounceMs } = opts;
  const watchers = new Map<string, fs.FSWatcher>();
  let dirtyRoot = false;
  const dirty = new Map<string, Set<string>>();
  let debounceTimer: NodeJS.Timeout | undefined;
  let firstDirtyAt = 0;
  let watchFailureLogged = false;
  let started = false;
  let closed = false;

  function markDirty(target: WatchTarget): void {
    if (closed) return;
    if (target.code === undefined) dirtyRoot = true;
    else {
      let set = dirty.get(target.code);
      if (!set) {
        set = new Set();
        dirty.set(target.code, set);
      }
      if (target.day !== undefined && target.session !== undefined) set.add(sessionKey(target.day, target.session));
    }
    const now = Date.now();
    if (!debounceTimer) firstDirtyAt = now;
    clearTimeout(debounceTimer);
    const wait = Math.max(0, Math.min(debounceMs, firstDirtyAt + debounceMs * 5 - now));
    debounceTimer = setTimeout(flush, wait);
    debounceTimer.unref();
  }

  function flush(): void {
    debounceTimer = undefined;
    if (closed) return;
    const set: DirtySet = { root: dirtyRoot, events: new Map(dirty) };
    dirtyRoot = false;
    dirty.clear();
    if (set.root || set.events.size > 0) opts.onDirty(set);
  }

  function wanted(events: Iterable<{ code: string; tree: DayTree }>): Map<string, WatchTarget> {
    const out = new Map<string, WatchTarget>([[photosDir, {}]]);
    for (const st of events) {
      out.set(path.join(photosDir, st.code), { code: st.code });
      for (const [day, sessions] of st.tree) {
        out.set(path.join(photosDir, st.code, day), { code: st.code, day });
        for (const session of sessions.keys()) {
          out.set(path.join(photosDir, st.code, day, session), { code: st.code, day, session });
        }
      }
    }
    return out;
  }

  return {
    markDirty,
    sync(events) {
      if (closed) return;
      const want = wanted(events);
      // A folder that appeared while running may have received files between the scan that
      // found it and its watcher starting: look at it once more. (At start-up the periodic
      // rescan covers files added during the first scan.)
      const followUp = started;
      started = true;
      for (const [dir, w] of watchers) {
        if (!want.has(dir)) {
          w.close();
          watchers.delete(dir);
        }
      }
      for (const [dir, target] of want) {
        if (watchers.has(dir)) continue;
        try {
          const w = fs.watch(dir, { persistent: false }, () => markDirty(target));
          w.on('error', () => {
            w.close();
            watchers.delete(dir);
            markDirty(target.code === undefined ? {} : { code: target.code }); // the folder itself changed
          });
          watchers.set(dir, w);
          if (followUp) markDirty(target);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          if (!watchFailureLogged) {
            watchFailureLogged = true;
            opts.log.warn({ err, dir }, 'cannot watch the photo folders; changes appear with the periodic rescan');
          }
        }
      }
    },
    close() {
      closed = true;
      clearTimeout(debounceTimer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
