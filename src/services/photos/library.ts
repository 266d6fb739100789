/**
 * The photo library index: PHOTOS_DIR/<event>/<day>/<session>/<image> held in memory, so
 * that page requests never touch the disk. This module composes the parts and serialises
 * their work; each part has one job:
 *
 * - scanner.ts / file-reader.ts read folders and files (headers only, of new or changed
 *   files; the rest comes from the photo catalogue's rows), through intake-gate.ts, which
 *   holds back files that are not settled or complete and reports broken ones;
 * - watcher.ts marks what changed (`fs.watch`), so a pass re-reads only those folders; a
 *   periodic full rescan and `rescan()` are the safety net for lost events (network mounts);
 * - photo-index.ts keeps each event's files and writes what scans find to the photo
 *   catalogue in the system of record, which gives the numbers; catalogue-link.ts follows
 *   what every process writes there (docs/contract.md, "The photo catalogue");
 * - legacy-index.ts takes the numbers of the earlier design's DATA_DIR/photo-index/ into the
 *   catalogue, once;
 * - views.ts builds the published, immutable view of each event (order, code groups);
 * - inspection.ts hands each new photo once to the inspector (set by the intake plugin),
 *   beside the scans: whether it shows a photo code, and its thumbnails. A photo that arrives while
 *   the server runs is listed only after that (a code frame must never be listed); photos
 *   found by the first scan after a start are listed at once and inspected in the
 *   background (docs/contract.md, "Finding one's photos, and intake").
 *
 * Each change publishes new views, increments `generation` and calls the `onChange`
 * listeners. Scans, commits and reads of the catalogue never overlap.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';
import type { Logger } from '../../lib/logger.js';
import type { PhotoCataloguePort } from '../store/ports/photo-catalogue.js';
import { CatalogueLink } from './catalogue-link.js';
import { type ReaderContext, SCAN_SLICE_MS, type SessionJob } from './file-reader.js';
import { HEADER_CHUNK_BYTES } from './header.js';
import { headerThreadsFor } from './header-reader.js';
import { Inspection, type Inspector } from './inspection.js';
import { IntakeGate } from './intake-gate.js';
import { importLegacyIndex } from './legacy-index.js';
import { compareNames } from './naming.js';
import { type CommitContext, commit, type EventState, newEventState } from './photo-index.js';
import { createScanner, type SessionSelection } from './scanner.js';
import type { LibraryEvent, ListingRules, Photo, PhotoLibrary } from './types.js';
import { buildView } from './views.js';
import { createWatcher, type DirtySet } from './watcher.js';

export type LibraryOptions = {
  photosDir: string;
  /** Where the earlier design kept its index (DATA_DIR/photo-index/, imported once). */
  dataDir: string;
  /** The photo catalogue in the system of record: numbers, and what every process knows of each file. */
  catalogue: Pick<PhotoCataloguePort, 'changesSince' | 'write' | 'importIndex'>;
  /** How often the catalogue is read for other processes' changes (default 1 s); 0 only on `refresh()`. */
  syncIntervalMs?: number;
  log: Logger;
  /** Full rescan period in ms; 0 turns it off. */
  rescanIntervalMs: number;
  /** Watch directories for changes (default true). */
  watch?: boolean;
  /** Quiet time after the last file-system event before the changed folders are re-read. */
  watchDebounceMs?: number;
  /** A file is indexed once its size and mtime have not changed for this long (default 0). */
  settleMs?: number;
  /** Longest pause between consecutive frames of one code group (default 10 minutes). */
  finderGapMs?: number;
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
  /**
   * Read the photographer's metadata (XMP, IPTC, EXIF Artist, XMP sidecars: metadata.ts) with
   * each header (default true; false only for the bench's baseline).
   */
  readMetadata?: boolean;
};

export interface ManagedPhotoLibrary extends PhotoLibrary {
  /** Scans everything once, then starts watching and the periodic rescan. */
  start(): Promise<void>;
  /** Stops watchers and timers and waits for a running scan. */
  close(): Promise<void>;
  /**
   * Sets the inspector of new photos (intake.ts): from then on, photos that arrive are
   * listed once inspected; those not inspected yet are inspected in the background.
   */
  setInspector(inspector: Inspector): void;
}

/**
 * A scan with fewer files than this stays on the event loop: a thread costs tens of
 * milliseconds to start (hundreds under tsx), which a few thousand files don't win back.
 */
const THREAD_MIN_FILES = 2000;
const DEFAULT_FINDER_GAP_MS = 10 * 60 * 1000;
const DEFAULT_SYNC_INTERVAL_MS = 1000;
/** Between attempts to read the catalogue at start-up, while the store can't answer. */
const START_RETRY_MS = 1000;

export function createPhotoLibrary(opts: LibraryOptions): ManagedPhotoLibrary {
  const { photosDir, dataDir, log } = opts;
  const watchEnabled = opts.watch ?? true;
  const gapMs = opts.finderGapMs ?? DEFAULT_FINDER_GAP_MS;
  const workers = opts.concurrency ?? 32;
  const gate = new IntakeGate(opts.settleMs ?? 0);

  const states = new Map<string, EventState>();
  /** Files the first scan found still being written: not held for their inspection either (firstScanSettled). */
  let startupFiles: ReadonlySet<string> = new Set();
  let events: readonly LibraryEvent[] = Object.freeze([]);
  let generation = 0;
  const listeners = new Set<() => void>();
  let closed = false;

  const watcher = createWatcher({
    photosDir,
    debounceMs: opts.watchDebounceMs ?? 200,
    log,
    onDirty: (dirty) => void enqueue(() => scan(dirty)),
  });

  const link = new CatalogueLink(states, (target) => watcher.markDirty(target));
  let writeFailing = false;
  /** The admins' overrides of each event's listing rules (setListingOverrides). */
  let listingOverrides: ReadonlyMap<string, Partial<ListingRules>> = new Map();
  const listingOf = (code: string) => listingOverrides.get(code);
  const commitContext: CommitContext = {
    log,
    gapMs,
    listingOf,
    catalogue: opts.catalogue,
    since: () => link.seq,
    merge: (changes, named) => link.merge(changes, { named }),
    written() {
      if (writeFailing) log.info('the photo catalogue takes writes again; new photos are numbered');
      writeFailing = false;
    },
    failed(err, st) {
      // Once per outage: the sync tries every second until it takes.
      if (!writeFailing) {
        log.error(
          { err, event: st.code },
          'cannot write to the photo catalogue; new photos wait unlisted until it can',
        );
      }
      writeFailing = true;
    },
  };
  /** Commits one event: its view is built anew, whatever the catalogue's answer made stale. */
  async function commitEvent(st: EventState): Promise<void> {
    await commit(st, commitContext);
    link.stale.delete(st);
  }
  /** Builds again the views of events whose rows changed; true when any was. */
  function rebuildStale(): boolean {
    let any = false;
    for (const st of link.stale) {
      if (st.view && states.get(st.code) === st) {
        st.view = buildView(st, { log, gapMs, listingOf });
        any = true;
      }
    }
    link.stale.clear();
    return any;
  }

  /** Sessions with files that have not settled: read again when they may have. */
  const retryTimers = new Map<string, NodeJS.Timeout>();
  const ctx: ReaderContext = {
    photosDir,
    log,
    gate,
    ioLimit: pLimit(opts.ioConcurrency ?? 16),
    buffers: Array.from({ length: workers }, () => Buffer.allocUnsafe(HEADER_CHUNK_BYTES)),
    workers,
    scanSliceMs: opts.scanSliceMs ?? SCAN_SLICE_MS,
    headerThreads: opts.headerThreads ?? headerThreadsFor(),
    threadMinFiles: opts.threadMinFiles ?? THREAD_MIN_FILES,
    readMetadata: opts.readMetadata ?? true,
    isClosed: () => closed,
    onPending(st, day, session, retryAt) {
      const key = `${st.code}\u0000${day}\u0000${session}`;
      if (retryTimers.has(key) || closed) return;
      const timer = setTimeout(
        () => {
          retryTimers.delete(key);
          watcher.markDirty({ code: st.code, day, session });
        },
        Math.max(10, retryAt - Date.now() + 10),
      );
      timer.unref();
      retryTimers.set(key, timer);
    },
  };
  const scanner = createScanner(ctx);

  // ------------------------------------------------------------------ inspection of new photos

  const inspection = new Inspection({
    photosDir,
    log,
    gate,
    isClosed: () => closed,
    commitInspected: (take) =>
      enqueue(async () => {
        const list = take();
        if (closed || list.length === 0) return;
        for (const st of list) if (states.get(st.code) === st) await commitEvent(st);
        rebuildStale();
        publish();
      }),
  });

  // ------------------------------------------------------------------ scanning

  function publish(): void {
    const list = [...states.values()].flatMap((s) => (s.view ? [s.view.event] : []));
    list.sort((a, b) => compareDatesDesc(a.date, b.date) || compareNames(a.code, b.code));
    events = Object.freeze(list);
    byCode = undefined;
    generation++;
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log.error({ err }, 'photo library change listener failed');
      }
    }
  }

  /**
   * One pass. `dirty` null: full rescan of everything. Otherwise only the named events
   * (their folder structure, event.json and the named sessions), plus the root listing.
   */
  async function scan(dirty: DirtySet | null): Promise<void> {
    if (closed) return;
    const started = Date.now();
    let anyChange = false;
    const work = new Map<string, SessionSelection>();
    if (dirty === null || dirty.root) {
      const codes = new Set(await scanner.listEventFolders());
      for (const st of [...states.values()]) {
        if (!codes.has(st.code)) {
          await forgetEvent(st);
          anyChange = true;
        }
      }
      for (const code of codes) if (!states.has(code) || dirty === null) work.set(code, 'all');
    }
    for (const [code, sessions] of dirty?.events ?? []) if (!work.has(code)) work.set(code, sessions);

    // Photos that arrive while running wait for their inspection; those that were in the
    // folder at start-up don't (the first scan's, and those it found still being written).
    const hold = gate.firstScan ? false : startupFiles.size > 0 ? (file: string) => !startupFiles.has(file) : true;
    for (const [code, sessions] of work) {
      let st = states.get(code);
      const isNew = !st;
      st ??= newEventState(code, link.rowsFor(code), link.seq);
      let result: Awaited<ReturnType<typeof scanner.scanEvent>>;
      try {
        result = await scanner.scanEvent(st, sessions);
      } catch (err) {
        log.error({ err, event: code }, 'cannot scan an event folder');
        continue;
      }
      if (closed) return; // a scan cut short by close() is never committed
      if (result.changed === 'gone') {
        if (!isNew) {
          await forgetEvent(st);
          anyChange = true;
        } else link.forget(st);
        continue;
      }
      inspection.inspectNew(st, result.jobs, hold);
      if (result.changed || isNew || !st.view) {
        states.set(code, st);
        await commitEvent(st);
        anyChange = true;
      }
    }
    if (rebuildStale()) anyChange = true;
    if (anyChange) publish();
    if (watchEnabled && !closed) watcher.sync(states.values());
    log.debug({ ms: Date.now() - started, full: dirty === null, changed: anyChange }, 'photo library scanned');
  }

  /** An event folder that is gone: the record is told its files are, and its rows wait in case it returns. */
  async function forgetEvent(st: EventState): Promise<void> {
    states.delete(st.code);
    gate.forgetUnder(path.join(photosDir, st.code) + path.sep);
    const gone: string[] = [];
    for (const [path, row] of st.rows) if (row.present) gone.push(path);
    link.forget(st);
    if (gone.length === 0) return;
    try {
      link.merge(await opts.catalogue.write(st.code, { gone }, link.seq));
    } catch (err) {
      log.warn({ err, event: st.code }, 'cannot tell the photo catalogue that an event folder is gone');
    }
  }

  // ------------------------------------------------------------------ following the catalogue

  let syncFailing = false;
  /**
   * Merges what any process wrote to the catalogue since the last read, writes what a failed
   * commit left, and publishes what changed.
   */
  async function sync(): Promise<void> {
    if (closed) return;
    try {
      link.merge(await opts.catalogue.changesSince(link.seq));
      if (syncFailing) log.info('the photo catalogue answers again');
      syncFailing = false;
    } catch (err) {
      if (!syncFailing) log.warn({ err }, 'cannot read the photo catalogue; other servers’ changes wait');
      syncFailing = true;
    }
    let any = false;
    for (const st of [...states.values()]) {
      if (!st.unsaved || !st.view || closed) continue;
      await commitEvent(st);
      any = true;
    }
    if (rebuildStale()) any = true;
    if (any) publish();
  }

  /** The upgrade (legacy-index.ts), then every row of the catalogue: what the first scan starts from. */
  async function load(): Promise<void> {
    for (let attempt = 0; !closed; attempt++) {
      try {
        await importLegacyIndex({ dataDir, catalogue: opts.catalogue, log });
        link.merge(await opts.catalogue.changesSince(0), { rescan: false });
        return;
      } catch (err) {
        if (attempt === 0) log.error({ err }, 'cannot read the photo catalogue; the gallery waits for it');
        await delay(START_RETRY_MS);
      }
    }
  }

  // ------------------------------------------------------------------ serialising scans

  let chain: Promise<void> = Promise.resolve();
  let pendingFull: Promise<void> | null = null;

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
      if (!closed) await scan(null);
    });
    pendingFull = p;
    return p;
  }

  /**
   * Files the first scan found still being written (a demo library drawn a moment before, a
   * copy going on when the server started) are waited for, up to twice the settling period
   * and a second: "ready" means what was in the folder is listed, so an order placed as soon
   * as /readyz answers 200 finds its photo. Files arriving later do not hold readiness back.
   */
  async function firstScanSettled(): Promise<void> {
    const waiting = gate.pendingFiles();
    if (waiting.length === 0) return;
    // Listed as soon as they are read, as the first scan's are (inspected in the background).
    startupFiles = new Set(waiting);
    const until = Date.now() + 2 * (opts.settleMs ?? 0) + 1_000;
    while (!closed && Date.now() < until && waiting.some((f) => gate.isPending(f))) {
      await delay(50);
      await chain;
    }
    startupFiles = new Set();
  }

  // ------------------------------------------------------------------ photo codes

  /** code → photos across events (built on first use after each change). */
  let byCode: Map<string, readonly Photo[]> | undefined;
  function codeIndex(): Map<string, readonly Photo[]> {
    if (byCode) return byCode;
    const map = new Map<string, Photo[]>();
    for (const event of events) {
      for (const [code, photos] of states.get(event.code)?.view?.codes ?? []) {
        const list = map.get(code);
        if (list) list.push(...photos);
        else map.set(code, [...photos]);
      }
    }
    byCode = map;
    return map;
  }

  // ------------------------------------------------------------------ the interface

  let interval: NodeJS.Timeout | undefined;
  let syncTimer: NodeJS.Timeout | undefined;
  let isReady = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const library: ManagedPhotoLibrary = {
    listEvents: () => events,
    getEvent: (code) => states.get(code)?.view?.event,
    photosOf: (code) => states.get(code)?.view?.photos,
    sessionPhotos: (code, day, session) => states.get(code)?.view?.sessions.get(`${day}\u0000${session}`),
    dayPhotos: (code, day) => states.get(code)?.view?.days.get(day),
    findPhoto(code, idOrNumber) {
      const view = states.get(code)?.view;
      if (!view) return undefined;
      return view.byNumber.get(idOrNumber) ?? view.byId.get(idOrNumber);
    },
    photosForCode: (code) => codeIndex().get(code),
    findHiddenPhoto: (code, idOrNumber) => states.get(code)?.view?.hidden.get(idOrNumber),
    refresh: () => enqueue(sync),
    intake: () => ({ pending: gate.pending, inspecting: inspection.inspecting, broken: gate.brokenList() }),
    originalPath: (photo) => path.join(photosDir, photo.eventCode, photo.day, photo.session, photo.fileName),
    get generation() {
      return generation;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rescan: () => fullRescan().then(() => inspection.idle()),
    get isReady() {
      return isReady;
    },
    ready: () => readyPromise,
    setListingOverrides(overrides) {
      const changed = new Set<string>();
      for (const code of new Set([...listingOverrides.keys(), ...overrides.keys()])) {
        const a = listingOverrides.get(code);
        const b = overrides.get(code);
        if (a?.showRejected !== b?.showRejected || a?.minRating !== b?.minRating) changed.add(code);
      }
      listingOverrides = overrides;
      if (changed.size === 0) return Promise.resolve();
      return enqueue(async () => {
        for (const code of changed) {
          const st = states.get(code);
          if (st?.view) link.stale.add(st);
        }
        if (rebuildStale()) publish();
      });
    },

    setInspector(fn) {
      inspection.setInspector(fn);
      // What is indexed already and not inspected: in the background, listed meanwhile.
      void enqueue(async () => {
        for (const st of states.values()) {
          const jobs: SessionJob[] = [];
          for (const [day, sessions] of st.tree) {
            for (const [session, files] of sessions) jobs.push({ day, session, prev: files, files, changed: false });
          }
          inspection.inspectNew(st, jobs, false);
        }
      });
    },

    async start() {
      const started = Date.now();
      await enqueue(load);
      await fullRescan();
      gate.firstScan = false;
      await firstScanSettled();
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
      const syncMs = opts.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
      let syncQueued = false;
      if (syncMs > 0 && !closed) {
        syncTimer = setInterval(() => {
          if (syncQueued) return; // one waits behind a long scan already
          syncQueued = true;
          void enqueue(() => {
            syncQueued = false;
            return sync();
          });
        }, syncMs);
        syncTimer.unref();
      }
    },

    async close() {
      closed = true;
      clearInterval(interval);
      clearInterval(syncTimer);
      for (const t of retryTimers.values()) clearTimeout(t);
      retryTimers.clear();
      watcher.close();
      listeners.clear();
      await chain;
      inspection.close();
    },
  };
  return library;
}

/** Newest first; events without a date last. */
function compareDatesDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
