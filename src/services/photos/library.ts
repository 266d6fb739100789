/**
 * The photo library index: PHOTOS_DIR/<event>/<day>/<session>/<image> held in memory, so that
 * page requests never touch the disk (docs/gallery-internals.md). This module makes the parts,
 * each opening with its job: scanner.ts, file-reader.ts, intake-gate.ts and watcher.ts read;
 * photo-index.ts, catalogue-link.ts, catalogue-sync.ts and legacy-index.ts keep step with the
 * photo catalogue; views.ts and publication.ts publish; inspection.ts inspects new photos;
 * library-scan.ts makes one pass; scan-queue.ts runs the work one piece at a time, so scans,
 * commits and catalogue reads never overlap.
 */
import path from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from '../../lib/logger.js';
import type { PhotoCataloguePort } from '../store/ports/photo-catalogue.js';
import { CatalogueLink } from './catalogue-link.js';
import { CatalogueSync } from './catalogue-sync.js';
import { SCAN_SLICE_MS, type SessionJob } from './file-reader.js';
import { HEADER_CHUNK_BYTES } from './header.js';
import { headerThreadsFor } from './header-reader.js';
import { Inspection, type Inspector } from './inspection.js';
import { IntakeGate } from './intake-gate.js';
import { firstScanSettled, type LibraryParts, scanPass } from './library-scan.js';
import type { EventState } from './photo-index.js';
import { Publication } from './publication.js';
import { ScanQueue } from './scan-queue.js';
import { createScanner } from './scanner.js';
import type { LibraryEvent, ListingRules, Photo, PhotoLibrary } from './types.js';
import { createWatcher } from './watcher.js';

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
  /** The intake's clock (default Date.now): a test moves it rather than racing the real one. */
  now?: () => number;
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

export function createPhotoLibrary(opts: LibraryOptions): ManagedPhotoLibrary {
  const { photosDir, log } = opts;
  const workers = opts.concurrency ?? 32;
  const gate = new IntakeGate(opts.settleMs ?? 0, opts.now);
  const states = new Map<string, EventState>();
  const run: LibraryParts['run'] = { closed: false, startupFiles: new Set(), listingOverrides: new Map() };
  const isClosed = () => run.closed;
  const queue = new ScanQueue(log);
  const watcher = createWatcher({
    photosDir,
    debounceMs: opts.watchDebounceMs ?? 200,
    log,
    onDirty: (dirty) => void queue.enqueue(() => scanPass(parts, dirty)),
  });
  const link = new CatalogueLink(states, (target) => watcher.markDirty(target));
  const record = new CatalogueSync({
    photosDir,
    dataDir: opts.dataDir,
    catalogue: opts.catalogue,
    log,
    gapMs: opts.finderGapMs ?? DEFAULT_FINDER_GAP_MS,
    states,
    link,
    gate,
    listingOf: (code) => run.listingOverrides.get(code),
    isClosed,
  });
  const published = new Publication(states, log);
  const retryTimers = new Map<string, NodeJS.Timeout>();
  const scanner = createScanner({
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
    isClosed,
    onPending(st, day, session, retryAt) {
      const key = `${st.code}\u0000${day}\u0000${session}`;
      if (retryTimers.has(key) || run.closed) return;
      const timer = setTimeout(
        () => {
          retryTimers.delete(key);
          watcher.markDirty({ code: st.code, day, session });
        },
        Math.max(10, retryAt - (opts.now ?? Date.now)() + 10),
      );
      timer.unref();
      retryTimers.set(key, timer);
    },
  });
  const inspection = new Inspection({
    photosDir,
    log,
    gate,
    isClosed,
    commitInspected: (take) =>
      queue.enqueue(async () => {
        const list = take();
        if (run.closed || list.length === 0) return;
        for (const st of list) if (states.get(st.code) === st) await record.commitEvent(st);
        record.rebuildStale();
        published.publish();
      }),
  });
  const parts: LibraryParts = {
    photosDir,
    log,
    settleMs: opts.settleMs ?? 0,
    watchEnabled: opts.watch ?? true,
    states,
    gate,
    link,
    record,
    scanner,
    inspection,
    watcher,
    queue,
    published,
    retryTimers,
    run,
  };
  return libraryInterface(parts, opts);
}

/** The library's interface over its parts: reads of the published views, and its lifecycle. */
function libraryInterface(p: LibraryParts, opts: LibraryOptions): ManagedPhotoLibrary {
  const { states, queue, record, published, inspection, gate, link, run, log, photosDir } = p;
  const fullRescan = () => queue.fullRescan(() => scanPass(p, null));
  const sync = async () => {
    if (await record.sync()) published.publish();
  };
  let interval: NodeJS.Timeout | undefined;
  let syncTimer: NodeJS.Timeout | undefined;
  let isReady = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  return {
    listEvents: (): readonly LibraryEvent[] => published.events,
    getEvent: (code) => states.get(code)?.view?.event,
    photosOf: (code) => states.get(code)?.view?.photos,
    sessionPhotos: (code, day, session) => states.get(code)?.view?.sessions.get(`${day}\u0000${session}`),
    dayPhotos: (code, day) => states.get(code)?.view?.days.get(day),
    findPhoto(code, idOrNumber): Photo | undefined {
      const view = states.get(code)?.view;
      if (!view) return undefined;
      return view.byNumber.get(idOrNumber) ?? view.byId.get(idOrNumber);
    },
    photosForCode: (code) => published.photosForCode(code),
    findHiddenPhoto: (code, idOrNumber) => states.get(code)?.view?.hidden.get(idOrNumber),
    refresh: () => queue.enqueue(sync),
    intake: () => ({ pending: gate.pending, inspecting: inspection.inspecting, broken: gate.brokenList() }),
    originalPath: (photo) => path.join(photosDir, photo.eventCode, photo.day, photo.session, photo.fileName),
    get generation() {
      return published.generation;
    },
    onChange: (listener) => published.onChange(listener),
    rescan: () => fullRescan().then(() => inspection.idle()),
    get isReady() {
      return isReady;
    },
    ready: () => readyPromise,
    setListingOverrides(overrides: ReadonlyMap<string, Partial<ListingRules>>) {
      const before = run.listingOverrides;
      const changed = new Set<string>();
      for (const code of new Set([...before.keys(), ...overrides.keys()])) {
        const a = before.get(code);
        const b = overrides.get(code);
        if (a?.showRejected !== b?.showRejected || a?.minRating !== b?.minRating) changed.add(code);
      }
      run.listingOverrides = overrides;
      if (changed.size === 0) return Promise.resolve();
      return queue.enqueue(async () => {
        for (const code of changed) {
          const st = states.get(code);
          if (st?.view) link.stale.add(st);
        }
        if (record.rebuildStale()) published.publish();
      });
    },

    setInspector(fn) {
      inspection.setInspector(fn);
      // What is indexed already and not inspected: in the background, listed meanwhile.
      void queue.enqueue(async () => {
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
      await queue.enqueue(() => record.load());
      await fullRescan();
      gate.firstScan = false;
      await firstScanSettled(p);
      isReady = true;
      markReady();
      const events = published.events;
      const photoCount = events.reduce((n, e) => n + e.photoCount, 0);
      log.info(
        { events: events.length, photos: photoCount, ms: Date.now() - started, photosDir },
        'photo library indexed',
      );
      if (opts.rescanIntervalMs > 0 && !run.closed) {
        interval = setInterval(() => void fullRescan(), opts.rescanIntervalMs);
        interval.unref();
      }
      const syncMs = opts.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
      let syncQueued = false;
      if (syncMs > 0 && !run.closed) {
        syncTimer = setInterval(() => {
          if (syncQueued) return; // one waits behind a long scan already
          syncQueued = true;
          void queue.enqueue(() => {
            syncQueued = false;
            return sync();
          });
        }, syncMs);
        syncTimer.unref();
      }
    },

    async close() {
      run.closed = true;
      clearInterval(interval);
      clearInterval(syncTimer);
      for (const t of p.retryTimers.values()) clearTimeout(t);
      p.retryTimers.clear();
      p.watcher.close();
      published.close();
      await queue.idle();
      inspection.close();
    },
  };
}
