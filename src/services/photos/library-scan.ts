/**
 * One pass of the photo library over its folders (the whole tree, or what the watcher marked
 * changed): new, changed and gone events are committed to the catalogue and published, and
 * new photos handed to their inspection. Also the wait, after the first pass, for files it
 * found still being written.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../../lib/logger.js';
import type { CatalogueLink } from './catalogue-link.js';
import type { CatalogueSync } from './catalogue-sync.js';
import type { Inspection } from './inspection.js';
import type { IntakeGate } from './intake-gate.js';
import { type EventState, newEventState } from './photo-index.js';
import type { Publication } from './publication.js';
import type { ScanQueue } from './scan-queue.js';
import type { Scanner, SessionSelection } from './scanner.js';
import type { ListingRules } from './types.js';
import type { DirtySet, Watcher } from './watcher.js';

/** The parts of one photo library (library.ts makes them), and what changes while it runs. */
export type LibraryParts = {
  photosDir: string;
  log: Logger;
  settleMs: number;
  watchEnabled: boolean;
  states: Map<string, EventState>;
  gate: IntakeGate;
  link: CatalogueLink;
  record: CatalogueSync;
  scanner: Scanner;
  inspection: Inspection;
  watcher: Watcher;
  queue: ScanQueue;
  published: Publication;
  /** Sessions with files that have not settled: read again when they may have. */
  retryTimers: Map<string, NodeJS.Timeout>;
  run: {
    closed: boolean;
    /** Files the first scan found still being written: not held for their inspection either (firstScanSettled). */
    startupFiles: ReadonlySet<string>;
    /** The admins' overrides of each event's listing rules (setListingOverrides). */
    listingOverrides: ReadonlyMap<string, Partial<ListingRules>>;
  };
};

/**
 * One pass. `dirty` null: full rescan of everything. Otherwise only the named events
 * (their folder structure, event.json and the named sessions), plus the root listing.
 */
export async function scanPass(p: LibraryParts, dirty: DirtySet | null): Promise<void> {
  const { run, states, scanner, record, link, log } = p;
  if (run.closed) return;
  const started = Date.now();
  let anyChange = false;
  const work = new Map<string, SessionSelection>();
  if (dirty === null || dirty.root) {
    const codes = new Set(await scanner.listEventFolders());
    for (const st of [...states.values()]) {
      if (!codes.has(st.code)) {
        await record.forgetEvent(st);
        anyChange = true;
      }
    }
    for (const code of codes) if (!states.has(code) || dirty === null) work.set(code, 'all');
  }
  for (const [code, sessions] of dirty?.events ?? []) if (!work.has(code)) work.set(code, sessions);

  // Photos that arrive while running wait for their inspection; those that were in the
  // folder at start-up don't (the first scan's, and those it found still being written).
  const startupFiles = run.startupFiles;
  const hold = p.gate.firstScan ? false : startupFiles.size > 0 ? (file: string) => !startupFiles.has(file) : true;
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
    if (run.closed) return; // a scan cut short by close() is never committed
    if (result.changed === 'gone') {
      if (!isNew) {
        await record.forgetEvent(st);
        anyChange = true;
      } else link.forget(st);
      continue;
    }
    p.inspection.inspectNew(st, result.jobs, hold);
    if (result.changed || isNew || !st.view) {
      states.set(code, st);
      await record.commitEvent(st);
      anyChange = true;
    }
  }
  if (record.rebuildStale()) anyChange = true;
  if (anyChange) p.published.publish();
  if (p.watchEnabled && !run.closed) p.watcher.sync(states.values());
  log.debug({ ms: Date.now() - started, full: dirty === null, changed: anyChange }, 'photo library scanned');
}

/**
 * Files the first scan found still being written are waited for, up to twice the settling
 * period and a second: an order placed as soon as /readyz answers 200 finds its photo.
 */
export async function firstScanSettled(p: LibraryParts): Promise<void> {
  const { gate, run } = p;
  const waiting = gate.pendingFiles();
  if (waiting.length === 0) return;
  // Listed as soon as they are read, as the first scan's are (inspected in the background).
  run.startupFiles = new Set(waiting);
  const until = Date.now() + 2 * p.settleMs + 1_000;
  while (!run.closed && Date.now() < until && waiting.some((f) => gate.isPending(f))) {
    await delay(50);
    await p.queue.idle();
  }
  run.startupFiles = new Set();
}
