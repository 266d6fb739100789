/**
 * The library's link with the photo catalogue: it keeps the last `seq` read and merges every
 * row changed since (its own writes' answers and, every LIBRARY_SYNC_INTERVAL_MS, the other
 * processes'). A row that says what this process's scans don't (a file not seen, gone,
 * another version) makes it look at that session folder again: that is how a file copied in
 * through another server on a network share is listed here (docs/gallery-internals.md).
 */
import type { CatalogueChanges, CatalogueRow } from '../store/ports/photo-catalogue.js';
import { type Entry, type EventState, entryAt, sameVersion } from './photo-index.js';
import type { WatchTarget } from './watcher.js';

/** The session folder of a catalogue path (`day/session/file`). */
function folderOf(code: string, path: string): { code: string; day: string; session: string } {
  const [day = '', session = ''] = path.split('/');
  return { code, day, session };
}

export class CatalogueLink {
  /** The last `seq` read: every change up to it is merged. */
  seq = 0;
  /** Events whose published view no longer says what their rows do. */
  readonly stale = new Set<EventState>();
  /** Rows of events this process has no state for (yet, or any more). */
  private readonly waiting = new Map<string, Map<string, CatalogueRow>>();

  constructor(
    private readonly states: ReadonlyMap<string, EventState>,
    /** Asks for a folder to be scanned again (the watcher's `markDirty`). */
    private readonly rescan: (target: WatchTarget) => void,
  ) {}

  /** The rows known for an event about to get a state. */
  rowsFor(code: string): Map<string, CatalogueRow> {
    const rows = this.waiting.get(code) ?? new Map<string, CatalogueRow>();
    this.waiting.delete(code);
    return rows;
  }

  /** An event whose folder is gone: its rows wait in case it comes back. */
  forget(st: EventState): void {
    this.waiting.set(st.code, st.rows);
    this.stale.delete(st);
  }

  /**
   * `rescan` false: the first read, before any folder is scanned (the first scan looks at
   * everything). `named`: the entries of an event's paths, known to the caller (a commit).
   */
  merge(
    changes: CatalogueChanges,
    opts: { rescan?: boolean; named?: { code: string; entries: ReadonlyMap<string, Entry> } } = {},
  ): void {
    if (changes.seq > this.seq) this.seq = changes.seq;
    const targets = new Map<string, WatchTarget>();
    for (const row of changes.rows) {
      const target = this.mergeRow(row, row.eventCode === opts.named?.code ? opts.named.entries : undefined);
      if (target) targets.set(`${target.code}\u0000${target.day}\u0000${target.session}`, target);
    }
    if (opts.rescan !== false) for (const target of targets.values()) this.rescan(target);
  }

  /** Merges one row; returns the folder to look at again, if any. */
  private mergeRow(row: CatalogueRow, named: ReadonlyMap<string, Entry> | undefined): WatchTarget | undefined {
    const st = this.states.get(row.eventCode);
    if (!st) {
      let rows = this.waiting.get(row.eventCode);
      if (!rows) {
        rows = new Map();
        this.waiting.set(row.eventCode, rows);
      }
      rows.set(row.path, row);
      return row.present ? {} : undefined; // an event folder this process hasn't listed
    }
    const entry = named?.get(row.path) ?? entryAt(st, row.path);
    const before = entry?.row ?? st.rows.get(row.path);
    // The same metadata read again stays the same object (photos built from it are kept).
    if (before?.metadata && row.metadata && JSON.stringify(before.metadata) === JSON.stringify(row.metadata)) {
      row.metadata = before.metadata;
    }
    st.rows.set(row.path, row);
    if (!entry) {
      if (!row.present) return undefined;
      const target = folderOf(st.code, row.path);
      return st.tree.has(target.day) ? target : { code: st.code };
    }
    entry.row = row;
    let target: WatchTarget | undefined;
    if (!row.present || !row.facts || !sameVersion(row.facts, entry.facts)) {
      // Gone, or another version, for another process: this one looks again.
      target = folderOf(st.code, row.path);
    } else if (entry.code === undefined && row.inspected) {
      // Inspected by another process: listed (or kept back as a code frame) without waiting for ours.
      entry.code = row.photoCode;
      entry.held = false;
      this.stale.add(st);
      return undefined;
    }
    if (
      before?.number !== row.number ||
      before.hidden !== row.hidden ||
      before.rating !== row.rating ||
      before.metadata !== row.metadata
    ) {
      this.stale.add(st);
    }
    return target;
  }
}
