/**
 * The folder side of a scan: event folders, their event.json, day and session folders.
 * Which session folders are re-read is the caller's choice (all, or the ones the watcher
 * marked); their files are read by file-reader.ts. A scan builds a new tree and leaves the
 * published view alone: library.ts commits it.
 */
import fs, { type Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseEventJson } from './event-config.js';
import { type ReaderContext, readSessionFiles, type SessionJob } from './file-reader.js';
import { compareNames, isHidden, relativeKey } from './naming.js';
import { type DayTree, type EventState, type SessionFiles, sessionKey } from './photo-index.js';

const statAsync = promisify(fs.stat);

/** Which sessions of an event to re-read: every one, or the named ones (sessionKey) plus new ones. */
export type SessionSelection = 'all' | Set<string>;

export type Scanner = {
  /** The event folders under PHOTOS_DIR (none when it does not exist). */
  listEventFolders(): Promise<string[]>;
  /**
   * Re-reads an event's folders. Returns whether anything changed (or 'gone'), and the
   * session jobs read, whose files may hold new records.
   */
  scanEvent(st: EventState, sessions: SessionSelection): Promise<{ changed: boolean | 'gone'; jobs: SessionJob[] }>;
};

export function createScanner(ctx: ReaderContext): Scanner {
  const { photosDir, log } = ctx;
  let rootMissingLogged = false;

  async function listDirs(dir: string): Promise<string[] | undefined> {
    let dirents: Dirent[];
    try {
      dirents = await ctx.ioLimit(() => readdir(dir, { withFileTypes: true }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw err;
    }
    const names: string[] = [];
    for (const d of dirents) {
      if (isHidden(d.name)) continue;
      if (d.isDirectory() || (d.isSymbolicLink() && (await isDirectory(path.join(dir, d.name))))) names.push(d.name);
    }
    return names.sort(compareNames);
  }

  async function isDirectory(p: string): Promise<boolean> {
    try {
      return (await ctx.ioLimit(() => statAsync(p))).isDirectory();
    } catch {
      return false;
    }
  }

  /** Reads event.json when its size/mtime changed. Returns true when the configuration changed. */
  async function refreshEventJson(st: EventState): Promise<boolean> {
    const file = path.join(photosDir, st.code, 'event.json');
    let sig: string;
    try {
      const s = await statAsync(file);
      sig = `${s.size}:${s.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && st.configSig !== 'absent') {
        log.warn({ err, file }, 'cannot read event.json');
      }
      sig = 'absent';
    }
    if (sig === st.configSig) return false; // unchanged: neither read nor logged again
    st.configSig = sig;
    let text: string | undefined;
    if (sig !== 'absent') {
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        log.warn({ err, file }, 'cannot read event.json: the event uses the default settings');
      }
    }
    const parsed = parseEventJson(text);
    if (parsed.ok) {
      st.eventJson = parsed.value;
      st.eventJsonState = text === undefined ? 'absent' : 'valid';
    } else {
      st.eventJson = undefined;
      st.eventJsonState = 'invalid';
      log.warn(
        { file, problems: parsed.problems },
        'invalid event.json: the event uses the default settings, ordering off until an admin opens it',
      );
    }
    return true;
  }

  /** A session folder that is gone: its files are gone (the record is told), its pending files forgotten. */
  function goneFiles(st: EventState, day: string, session: string, files: SessionFiles): void {
    for (const name of files.keys()) st.gone.add(relativeKey(day, session, name));
    ctx.gate.forgetUnder(path.join(photosDir, st.code, day, session) + path.sep);
  }

  return {
    async listEventFolders() {
      const codes = await listDirs(photosDir);
      if (codes === undefined) {
        if (!rootMissingLogged) log.warn({ photosDir }, 'PHOTOS_DIR does not exist; the gallery is empty');
        rootMissingLogged = true;
        return [];
      }
      rootMissingLogged = false;
      return codes;
    },

    async scanEvent(st, sessions) {
      const days = await listDirs(path.join(photosDir, st.code));
      if (days === undefined) return { changed: 'gone', jobs: [] };
      let changed = await refreshEventJson(st);
      const tree: DayTree = new Map();
      const jobs: SessionJob[] = [];
      for (const day of days) {
        const names = (await listDirs(path.join(photosDir, st.code, day))) ?? [];
        const prevDay = st.tree.get(day);
        const sessionMap = new Map<string, SessionFiles>();
        tree.set(day, sessionMap);
        for (const session of names) {
          const prev = prevDay?.get(session);
          if (prev && sessions !== 'all' && !sessions.has(sessionKey(day, session))) {
            sessionMap.set(session, prev);
            continue;
          }
          const job: SessionJob = { day, session, prev, files: new Map(), changed: !prev };
          sessionMap.set(session, job.files);
          jobs.push(job);
        }
        if (prevDay) {
          for (const [s, files] of prevDay) {
            if (sessionMap.has(s)) continue;
            changed = st.unsaved = true;
            goneFiles(st, day, s, files);
          }
        }
      }
      for (const [d, sessionMap] of st.tree) {
        if (tree.has(d)) continue;
        changed = st.unsaved = true;
        for (const [s, files] of sessionMap) goneFiles(st, d, s, files);
      }
      await readSessionFiles(ctx, st, jobs);
      if (jobs.some((j) => j.changed)) changed = true;
      st.tree = tree;
      return { changed, jobs };
    },
  };
}
