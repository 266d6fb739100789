/**
 * The photo library index: PHOTOS_DIR/<event>/<day>/<session>/<image> held in memory, so
 * that page requests never touch the disk.
 *
 * - Scans read directories, `stat` every image and read the header (first 64 KiB) only of
 *   files that are new or whose size/mtime changed; the rest comes from the index persisted
 *   under DATA_DIR (see persist.ts). A scan of thousands of files also hands chunks of them
 *   to a header thread on a spare core (header-reader.ts).
 * - While running, `fs.watch` on the (few) directories marks what changed; a debounced
 *   pass re-reads only those directories. A periodic full rescan and `rescan()` are the
 *   safety net for file systems whose events get lost (network mounts).
 * - Each change publishes new immutable per-event views, increments `generation` and calls
 *   the `onChange` listeners. Scans never overlap.
 */

import fs, { type Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { Limiter } from './concurrency.js';
import { type EventJsonT, parseEventJson, resolveEventDefaults } from './event-config.js';
import { HEADER_CHUNK_BYTES, readImageHeader } from './header.js';
import { type HeaderResult, HeaderThread, headerThreadsFor } from './header-reader.js';
import { compareNames, isHidden, isImageFileName, naturalKey, photoId, photoVersion, relativeKey } from './naming.js';
import {
  type FileRecord,
  loadEventIndex,
  type PersistedEvent,
  type SessionRecords,
  saveEventIndex,
} from './persist.js';
import type { DayFolder, LibraryEvent, Photo, PhotoLibrary } from './types.js';

export type LibraryOptions = {
  photosDir: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Full rescan period in ms; 0 turns it off. */
  rescanIntervalMs: number;
  /** Watch directories for changes (default true). */
  watch?: boolean;
  /** Quiet time after the last file-system event before the changed folders are re-read. */
  watchDebounceMs?: number;
  /** Files stat'ed and header-read in parallel (each worker holds a 64 KiB buffer). */
  concurrency?: number;
  /** Parallel directory listings. */
  ioConcurrency?: number;
  /**
   * How long a scan reads files synchronously before it yields to the event loop (default
   * SCAN_SLICE_MS); 0 reads every file through the thread pool, as on slow storage.
   */
  scanSliceMs?: number;
  /**
   * Worker threads that read headers beside the event loop during a scan with at least
   * `threadMinFiles` files (header-reader.ts). Default: one per spare core, at most 3.
   */
  headerThreads?: number;
  /** Default THREAD_MIN_FILES. */
  threadMinFiles?: number;
};

export interface ManagedPhotoLibrary extends PhotoLibrary {
  /** Scans everything once, then starts watching and the periodic rescan. */
  start(): Promise<void>;
  /** Stops watchers and timers and waits for a running scan. */
  close(): Promise<void>;
}

type Entry = FileRecord & { photo?: Photo };
type SessionFiles = Map<string, Entry>;
type DayTree = Map<string, Map<string, SessionFiles>>;

type EventView = {
  event: LibraryEvent;
  photos: readonly Photo[];
  byId: Map<string, Photo>;
  byNumber: Map<string, Photo>;
  sessions: Map<string, readonly Photo[]>;
  days: Map<string, readonly Photo[]>;
};

type EventState = {
  code: string;
  tree: DayTree;
  numbers: Map<string, number>;
  nextNumber: number;
  /** What the persisted index knew at start-up; used until the first scan of each session. */
  persisted: Map<string, FileRecord> | undefined;
  /** Records taken from `persisted` during the first scan (to tell whether any vanished). */
  persistedHits: number;
  /** The stored index differs from memory and must be written. */
  unsaved: boolean;
  configSig: string;
  eventJson: EventJsonT | undefined;
  view: EventView | undefined;
};

/** Which sessions of an event to re-read: every one, or the named ones plus new ones. */
type SessionSelection = 'all' | Set<string>;

const sessionKey = (day: string, session: string) => `${day}\u0000${session}`;
const statAsync = promisify(fs.stat);

/** How long a scan reads files synchronously before it lets the event loop run. */
const SCAN_SLICE_MS = 2;
/**
 * Slow storage: a slice averaging more than this per file sends the rest of the scan through
 * the thread pool, many files at a time. A page-cached file takes 0.03–0.1 ms here; a garbage
 * collection pause within a slice of a hundred files doesn't reach the average.
 */
const SLOW_AVERAGE_MS = 0.5;
/** Slow slices in a row that make a scan go through the thread pool. */
const SLOW_SLICES = 3;
const WARM_UP_FILES = 200;
/**
 * A scan with fewer files than this stays on the event loop: a thread costs tens of
 * milliseconds to start (hundreds under tsx), which a few thousand files don't win back.
 */
const THREAD_MIN_FILES = 2000;
/** Files per message to a header thread: big enough that a hand-off costs little per file. */
const THREAD_CHUNK_FILES = 256;

const EMPTY_DAYS: readonly DayFolder[] = Object.freeze([]);

export function createPhotoLibrary(opts: LibraryOptions): ManagedPhotoLibrary {
  const { photosDir, dataDir, log } = opts;
  const watchEnabled = opts.watch ?? true;
  const debounceMs = opts.watchDebounceMs ?? 200;
  const ioLimiter = new Limiter(opts.ioConcurrency ?? 16);
  const workers = opts.concurrency ?? 32;
  const scanSliceMs = opts.scanSliceMs ?? SCAN_SLICE_MS;
  const headerThreads = opts.headerThreads ?? headerThreadsFor();
  const threadMinFiles = opts.threadMinFiles ?? THREAD_MIN_FILES;
  const buffers = Array.from({ length: workers }, () => Buffer.allocUnsafe(HEADER_CHUNK_BYTES));

  const states = new Map<string, EventState>();
  let events: readonly LibraryEvent[] = Object.freeze([]);
  let generation = 0;
  const listeners = new Set<() => void>();

  /** Files that failed to parse, by absolute path → "size:mtime", so each version is logged once. */
  const failed = new Map<string, string>();
  let rootMissingLogged = false;

  // ------------------------------------------------------------------ scanning

  async function listDirs(dir: string): Promise<string[] | undefined> {
    let dirents: Dirent[];
    try {
      dirents = await ioLimiter.run(() => readdir(dir, { withFileTypes: true }));
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
      return (await ioLimiter.run(() => statAsync(p))).isDirectory();
    } catch {
      return false;
    }
  }

  type SessionJob = {
    day: string;
    session: string;
    prev: SessionFiles | undefined;
    files: SessionFiles;
    changed: boolean;
  };
  /** A file to look at, with what the index knew of it (looked up once, when listed). */
  type ScanTask = { job: SessionJob; name: string; known: Entry | undefined };

  /**
   * Re-reads the given session folders: one readdir each, then every image is stat'ed and,
   * when new or changed, its header read: by the event loop in short synchronous slices (or
   * through the thread pool on slow storage) and, in a big scan, by a header thread taking
   * chunks from the other end. Unchanged files keep their record (from memory or the stored
   * index).
   */
  async function scanSessions(st: EventState, jobs: SessionJob[]): Promise<void> {
    const tasks: ScanTask[] = [];
    /** Files the index has no record of: only their headers must be read. */
    let unknown = 0;
    await Promise.all(
      jobs.map(async (job) => {
        const dir = path.join(photosDir, st.code, job.day, job.session);
        let dirents: Dirent[];
        try {
          dirents = await ioLimiter.run(() => readdir(dir, { withFileTypes: true }));
        } catch (err) {
          log.warn({ err, dir }, 'cannot read a session folder');
          if (job.prev) for (const [name, rec] of job.prev) job.files.set(name, rec);
          return;
        }
        for (const d of dirents) {
          if (!(d.isFile() || d.isSymbolicLink()) || !isImageFileName(d.name)) continue;
          const known = job.prev?.get(d.name) ?? st.persisted?.get(relativeKey(job.day, job.session, d.name));
          if (!known) unknown++;
          tasks.push({ job, name: d.name, known });
        }
      }),
    );
    const fileOf = ({ job, name }: ScanTask) => path.join(photosDir, st.code, job.day, job.session, name);
    /** Unchanged since the index saw it: the record stays, no header read. */
    const keep = ({ job, name }: ScanTask, known: Entry) => {
      job.files.set(name, known);
      if (!job.prev?.has(name)) {
        job.changed = true;
        st.persistedHits++;
      }
    };
    const stored = (task: ScanTask, record: FileRecord) => {
      task.job.files.set(task.name, record);
      failed.delete(fileOf(task));
    };
    const unreadable = (task: ScanTask, size: number, mtimeMs: number, reason: string) => {
      const file = fileOf(task);
      const sig = `${size}:${mtimeMs}`;
      if (failed.get(file) !== sig) {
        failed.set(file, sig);
        log.warn({ file, err: reason }, 'skipping an image that cannot be read');
      }
    };
    const changedFile = ({ job }: ScanTask) => {
      job.changed = true;
      st.unsaved = true;
    };

    const scanFile = async (task: ScanTask, buffer: Buffer, blocking: boolean) => {
      const file = fileOf(task);
      let s: fs.Stats;
      try {
        s = blocking ? fs.statSync(file) : await statAsync(file);
      } catch {
        return; // removed between readdir and stat
      }
      if (!s.isFile()) return;
      const { known } = task;
      if (known && known.size === s.size && known.mtimeMs === s.mtimeMs) return keep(task, known);
      changedFile(task);
      try {
        const header = await readImageHeader(file, buffer, s.size, blocking);
        stored(task, { size: s.size, mtimeMs: s.mtimeMs, ...header });
      } catch (err) {
        unreadable(task, s.size, s.mtimeMs, (err as Error).message);
      }
    };

    // The event loop takes files from the front of `tasks`, the header thread (when there is
    // one) chunks from the back; they meet somewhere in between.
    let next = 0;
    let end = tasks.length;

    // Files with no record need their header read; a rescan of known files only stats them,
    // which a thread doesn't speed up enough to be worth starting.
    const threadCount = unknown >= threadMinFiles ? headerThreads : 0;
    const threads: HeaderThread[] = [];
    for (let i = 0; i < threadCount; i++) {
      try {
        threads.push(HeaderThread.start());
      } catch (err) {
        log.warn({ err }, 'cannot start a header thread; the scan runs on the event loop alone');
        break;
      }
    }
    /** Hands chunks to a thread until none is left; two feeders per thread keep it busy while results travel. */
    const feed = async (thread: HeaderThread) => {
      let fallback: Buffer | undefined;
      while (next < end && !closed) {
        const from = Math.max(next, end - THREAD_CHUNK_FILES);
        const chunk = tasks.slice(from, end);
        end = from;
        let results: HeaderResult[];
        try {
          results = await thread.read(
            chunk.map((task) => ({
              file: fileOf(task),
              knownSize: task.known?.size ?? -1,
              knownMtimeMs: task.known?.mtimeMs ?? -1,
            })),
          );
        } catch (err) {
          // The thread died (or the scan is closing): this chunk is read here, the rest of
          // the scan by the event loop.
          if (!closed) log.warn({ err }, 'the header thread failed; the scan goes on without it');
          fallback ??= Buffer.allocUnsafe(HEADER_CHUNK_BYTES);
          for (const task of chunk) if (!closed) await scanFile(task, fallback, false);
          return;
        }
        for (const [i, task] of chunk.entries()) {
          const r = results[i];
          if (!r) {
            // Not answered (can't happen with header-thread.ts): read here rather than lose it.
            fallback ??= Buffer.allocUnsafe(HEADER_CHUNK_BYTES);
            await scanFile(task, fallback, false);
            continue;
          }
          if (r.kind === 'gone') continue;
          if (r.kind === 'same') {
            keep(task, task.known as Entry);
            continue;
          }
          changedFile(task);
          if (r.kind === 'read') {
            stored(task, {
              size: r.size,
              mtimeMs: r.mtimeMs,
              width: r.width,
              height: r.height,
              takenAtMs: r.takenAtMs,
            });
          } else {
            unreadable(task, r.size, r.mtimeMs, r.error);
          }
        }
      }
    };
    const helpers = threads
      .flatMap((t) => [feed(t), feed(t)])
      .map((p) =>
        p.catch((err: unknown) => log.error({ err }, 'a header thread feeder failed; the scan goes on without it')),
      );

    try {
      // Files are first read with the synchronous calls, a slice of SCAN_SLICE_MS at a time
      // between yields to the event loop. Through the thread pool, every stat/open/read/close
      // costs a hand-off several times dearer than the call itself (measured here: 20,000
      // open+close, 333 ms through the pool against 52 ms synchronous), and a file takes four.
      // On slow storage (a cold disk, a network share) that would stall the loop and read one
      // file at a time: from there on, the rest goes through the pool, many at a time.
      let sliceStart = performance.now();
      let inSlice = 0;
      let longest = 0;
      let slowSlices = 0;
      const own = buffers[0] as Buffer;
      while (next < end && scanSliceMs > 0) {
        if (closed) return; // shutting down: leave the rest
        const fileStart = performance.now();
        await scanFile(tasks[next++] as ScanTask, own, true);
        inSlice++;
        const now = performance.now();
        longest = Math.max(longest, now - fileStart);
        if (now - sliceStart >= scanSliceMs) {
          // Judged after the first files (parsers warming up are slow too), without the
          // slice's slowest file (a garbage collection lands in one file and would make a
          // slice of fast files look slow), on SLOW_SLICES slow slices in a row.
          const typical = inSlice > 1 ? (now - sliceStart - longest) / (inSlice - 1) : now - sliceStart;
          const slow = next > WARM_UP_FILES && typical > SLOW_AVERAGE_MS;
          slowSlices = slow ? slowSlices + 1 : 0;
          if (slowSlices >= SLOW_SLICES) break;
          await yieldToLoop();
          sliceStart = performance.now();
          inSlice = 0;
          longest = 0;
        }
      }
      if (next < end && scanSliceMs > 0) {
        log.debug(
          { event: st.code, read: next, left: end - next },
          'slow storage: reading the rest of the scan through the thread pool',
        );
      }
      await Promise.all(
        Array.from({ length: Math.max(0, Math.min(workers, end - next)) }, async (_, w) => {
          while (next < end && !closed) await scanFile(tasks[next++] as ScanTask, buffers[w] as Buffer, false);
        }),
      );
      await Promise.all(helpers);
    } finally {
      // Stopped first: a closing scan doesn't wait for chunks in flight (their reads are
      // refused, and the feeders skip them once closed).
      if (closed) await Promise.all(threads.map((t) => t.stop()));
      await Promise.all(helpers);
      if (!closed) await Promise.all(threads.map((t) => t.stop()));
    }
    if (closed) return;
    for (const job of jobs) {
      if (!job.prev) continue;
      for (const name of job.prev.keys()) {
        if (!job.files.has(name)) {
          job.changed = true;
          st.unsaved = true;
          failed.delete(path.join(photosDir, st.code, job.day, job.session, name));
        }
      }
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
    } else {
      st.eventJson = undefined;
      log.warn({ file, problems: parsed.problems }, 'invalid event.json: the event uses the default settings');
    }
    return true;
  }

  /** Re-reads an event's folders. Returns whether anything changed, or 'gone'. */
  async function scanEvent(st: EventState, sessions: SessionSelection): Promise<boolean | 'gone'> {
    const days = await listDirs(path.join(photosDir, st.code));
    if (days === undefined) return 'gone';
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
      if (prevDay) for (const s of prevDay.keys()) if (!sessionMap.has(s)) changed = st.unsaved = true;
    }
    for (const d of st.tree.keys()) if (!tree.has(d)) changed = st.unsaved = true;
    await scanSessions(st, jobs);
    if (jobs.some((j) => j.changed)) changed = true;
    // Files that were in the stored index but are gone now.
    if (st.persisted && st.persistedHits !== st.persisted.size) st.unsaved = true;
    st.tree = tree;
    st.persisted = undefined;
    return changed;
  }

  async function newEventState(code: string): Promise<EventState> {
    const stored: PersistedEvent | undefined = await loadEventIndex(dataDir, code, (msg, err) =>
      log.warn({ err }, msg),
    );
    return {
      code,
      tree: new Map(),
      numbers: stored?.numbers ?? new Map(),
      nextNumber: stored?.nextNumber ?? 1,
      persisted: stored?.files,
      persistedHits: 0,
      unsaved: !stored,
      configSig: '',
      eventJson: undefined,
      view: undefined,
    };
  }

  /** Gives every photo without a number the next ones, in display order. True when any was assigned. */
  function assignNumbers(st: EventState): boolean {
    let assigned = false;
    // The tree is in display order of days and sessions already; within a session, new
    // files are numbered by capture time, then natural file-name order.
    for (const [day, sessions] of st.tree) {
      for (const [session, files] of sessions) {
        const fresh: { rel: string; key: string; name: string; takenAtMs: number | null }[] = [];
        for (const [name, rec] of files) {
          const rel = relativeKey(day, session, name);
          if (!st.numbers.has(rel)) fresh.push({ rel, key: naturalKey(name), name, takenAtMs: rec.takenAtMs });
        }
        if (fresh.length === 0) continue;
        fresh.sort(
          (a, b) =>
            compareTimes(a.takenAtMs, b.takenAtMs) || compareStrings(a.key, b.key) || compareStrings(a.name, b.name),
        );
        for (const f of fresh) st.numbers.set(f.rel, st.nextNumber++);
        assigned = true;
      }
    }
    return assigned;
  }

  function buildView(st: EventState): EventView {
    const photos: Photo[] = [];
    const byId = new Map<string, Photo>();
    const byNumber = new Map<string, Photo>();
    const sessions = new Map<string, readonly Photo[]>();
    const dayPhotos = new Map<string, readonly Photo[]>();
    const dayFolders: DayFolder[] = [];
    let firstTaken = Number.POSITIVE_INFINITY;

    for (const [day, sessionMap] of st.tree) {
      const dayStart = photos.length;
      const folder: DayFolder = { name: day, photoCount: 0, sessions: [] };
      for (const [session, files] of sessionMap) {
        const sortable: { photo: Photo; takenAtMs: number | null; n: number }[] = [];
        for (const [fileName, rec] of files) {
          const rel = relativeKey(day, session, fileName);
          const n = st.numbers.get(rel) as number;
          const number = String(n);
          const version = photoVersion(rec.size, rec.mtimeMs);
          let photo = rec.photo;
          if (!photo || photo.number !== number || photo.version !== version) {
            photo = {
              id: photoId(st.code, rel),
              number,
              eventCode: st.code,
              day,
              session,
              fileName,
              width: rec.width,
              height: rec.height,
              takenAt: rec.takenAtMs === null ? null : new Date(rec.takenAtMs).toISOString(),
              version,
            };
            rec.photo = photo;
          }
          if (rec.takenAtMs !== null && rec.takenAtMs < firstTaken) firstTaken = rec.takenAtMs;
          sortable.push({ photo, takenAtMs: rec.takenAtMs, n });
        }
        sortable.sort((a, b) => compareTimes(a.takenAtMs, b.takenAtMs) || a.n - b.n);
        const list = sortable.map((x) => x.photo);
        Object.freeze(list);
        sessions.set(sessionKey(day, session), list);
        for (const p of list) photos.push(p);
        folder.sessions.push({ name: session, photoCount: list.length });
        folder.photoCount += list.length;
      }
      dayPhotos.set(day, Object.freeze(photos.slice(dayStart)));
      dayFolders.push(folder);
    }
    for (const p of photos) {
      if (byId.has(p.id)) {
        // 66-bit ids: practically never; a longer hash keeps both photos reachable.
        log.error({ event: st.code, id: p.id }, 'photo id collision; using a longer id');
        (p as { id: string }).id = photoId(st.code, relativeKey(p.day, p.session, p.fileName), 22);
      }
      byId.set(p.id, p);
      byNumber.set(p.number, p);
    }
    const derivedDate = Number.isFinite(firstTaken) ? new Date(firstTaken).toISOString().slice(0, 10) : null;
    const event: LibraryEvent = Object.freeze({
      ...resolveEventDefaults(st.code, st.eventJson, derivedDate),
      photoCount: photos.length,
      days: dayFolders.length ? Object.freeze(dayFolders) : EMPTY_DAYS,
    }) as LibraryEvent;
    return { event, photos: Object.freeze(photos), byId, byNumber, sessions, days: dayPhotos };
  }

  async function persist(st: EventState): Promise<void> {
    const sessions: SessionRecords[] = [];
    for (const [day, sessionMap] of st.tree) {
      for (const [session, files] of sessionMap) sessions.push({ day, session, files });
    }
    try {
      await saveEventIndex(dataDir, { code: st.code, nextNumber: st.nextNumber, numbers: st.numbers, sessions });
    } catch (err) {
      log.error({ err, event: st.code }, 'cannot save the photo index; numbers of new photos may change on restart');
    }
  }

  /** Numbers first (persisted before anyone sees them), then the new view. */
  async function commit(st: EventState): Promise<void> {
    if (assignNumbers(st)) st.unsaved = true;
    if (st.unsaved) {
      st.unsaved = false;
      await persist(st);
    }
    st.view = buildView(st);
  }

  function publish(): void {
    const list = [...states.values()].flatMap((s) => (s.view ? [s.view.event] : []));
    list.sort((a, b) => compareDatesDesc(a.date, b.date) || compareNames(a.code, b.code));
    events = Object.freeze(list);
    generation++;
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log.error({ err }, 'photo library change listener failed');
      }
    }
  }

  async function listEventFolders(): Promise<string[]> {
    const codes = await listDirs(photosDir);
    if (codes === undefined) {
      if (!rootMissingLogged) log.warn({ photosDir }, 'PHOTOS_DIR does not exist; the gallery is empty');
      rootMissingLogged = true;
      return [];
    }
    rootMissingLogged = false;
    return codes;
  }

  /**
   * One pass. `dirtyEvents` null: full rescan of everything. Otherwise only the named
   * events (their folder structure, event.json and the named sessions), plus the root
   * listing when `rootDirty`.
   */
  async function scan(dirtyEvents: Map<string, Set<string>> | null, rootDirty: boolean): Promise<void> {
    const started = Date.now();
    let anyChange = false;
    const work = new Map<string, SessionSelection>();
    if (dirtyEvents === null || rootDirty) {
      const codes = new Set(await listEventFolders());
      for (const code of states.keys()) {
        if (!codes.has(code)) {
          states.delete(code);
          anyChange = true;
        }
      }
      for (const code of codes) {
        if (!states.has(code)) work.set(code, 'all');
        else if (dirtyEvents === null) work.set(code, 'all');
      }
    }
    for (const [code, sessions] of dirtyEvents ?? []) if (!work.has(code)) work.set(code, sessions);

    for (const [code, sessions] of work) {
      let st = states.get(code);
      const isNew = !st;
      st ??= await newEventState(code);
      let result: boolean | 'gone';
      try {
        result = await scanEvent(st, sessions);
      } catch (err) {
        log.error({ err, event: code }, 'cannot scan an event folder');
        continue;
      }
      if (closed) return; // a scan cut short by close() is never committed
      if (result === 'gone') {
        if (!isNew) {
          states.delete(code);
          anyChange = true;
        }
        continue;
      }
      if (result || isNew || !st.view) {
        await commit(st);
        states.set(code, st);
        anyChange = true;
      }
    }
    if (anyChange) publish();
    if (watchEnabled && !closed) syncWatchers();
    log.debug({ ms: Date.now() - started, full: dirtyEvents === null, changed: anyChange }, 'photo library scanned');
  }

  // ------------------------------------------------------------------ serialising scans

  let chain: Promise<void> = Promise.resolve();
  let pendingFull: Promise<void> | null = null;
  let closed = false;

  function enqueue(fn: () => Promise<void>): Promise<void> {
    const run = chain.then(fn, fn);
    chain = run.catch((err: unknown) => {
      log.error({ err }, 'photo library scan failed');
    });
    return chain;
  }

  function fullRescan(): Promise<void> {
    if (pendingFull) return pendingFull;
    const p = enqueue(async () => {
      pendingFull = null;
      if (!closed) await scan(null, true);
    });
    pendingFull = p;
    return p;
  }

  // ------------------------------------------------------------------ watching

  type WatchTarget = { code?: string; day?: string; session?: string };
  const watchers = new Map<string, fs.FSWatcher>();
  let dirtyRoot = false;
  const dirty = new Map<string, Set<string>>();
  let debounceTimer: NodeJS.Timeout | undefined;
  let firstDirtyAt = 0;
  let watchFailureLogged = false;

  function markDirty(target: WatchTarget): void {
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
    // Debounced, but a steady stream of events (a long copy) still gets a pass every 5 debounce periods.
    const wait = Math.max(0, Math.min(debounceMs, firstDirtyAt + debounceMs * 5 - now));
    debounceTimer = setTimeout(flushDirty, wait);
    debounceTimer.unref();
  }

  function flushDirty(): void {
    debounceTimer = undefined;
    if (closed) return;
    void enqueue(async () => {
      if (closed) return;
      const root = dirtyRoot;
      const events = new Map(dirty);
      dirtyRoot = false;
      dirty.clear();
      if (root || events.size > 0) await scan(events, root);
    });
  }

  function wantedDirs(): Map<string, WatchTarget> {
    const out = new Map<string, WatchTarget>([[photosDir, {}]]);
    for (const st of states.values()) {
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

  let watchersStarted = false;

  function syncWatchers(): void {
    const wanted = wantedDirs();
    // A folder that appeared while running may have received files between the scan that
    // found it and its watcher starting: look at it once more. (At start-up the periodic
    // rescan covers files added during the first scan.)
    const followUp = watchersStarted;
    watchersStarted = true;
    for (const [dir, w] of watchers) {
      if (!wanted.has(dir)) {
        w.close();
        watchers.delete(dir);
      }
    }
    for (const [dir, target] of wanted) {
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
          log.warn({ err, dir }, 'cannot watch the photo folders; changes appear with the periodic rescan');
        }
      }
    }
  }

  // ------------------------------------------------------------------ the interface

  let interval: NodeJS.Timeout | undefined;
  let isReady = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const library: ManagedPhotoLibrary = {
    listEvents: () => events,
    getEvent: (code) => states.get(code)?.view?.event,
    photosOf: (code) => states.get(code)?.view?.photos,
    sessionPhotos: (code, day, session) => states.get(code)?.view?.sessions.get(sessionKey(day, session)),
    dayPhotos: (code, day) => states.get(code)?.view?.days.get(day),
    findPhoto(code, idOrNumber) {
      const view = states.get(code)?.view;
      if (!view) return undefined;
      return view.byNumber.get(idOrNumber) ?? view.byId.get(idOrNumber);
    },
    originalPath: (photo) => path.join(photosDir, photo.eventCode, photo.day, photo.session, photo.fileName),
    get generation() {
      return generation;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rescan: () => fullRescan(),
    get isReady() {
      return isReady;
    },
    ready: () => readyPromise,

    async start() {
      const started = Date.now();
      await fullRescan();
      isReady = true;
      markReady();
      const photoCount = events.reduce((n, e) => n + e.photoCount, 0);
      log.info(
        { events: events.length, photos: photoCount, ms: Date.now() - started, photosDir },
        'photo library indexed',
      );
      if (opts.rescanIntervalMs > 0 && !closed) {
        interval = setInterval(() => void fullRescan(), opts.rescanIntervalMs);
        interval.unref();
      }
    },

    async close() {
      closed = true;
      clearInterval(interval);
      clearTimeout(debounceTimer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      listeners.clear();
      await chain;
    },
  };
  return library;
}

/** Capture times ascending; photos without one after those with one. */
function compareTimes(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest first; events without a date last. */
function compareDatesDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
