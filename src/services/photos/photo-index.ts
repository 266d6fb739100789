/**
 * One event's index in this process: the folder tree of files as its scans found them, each
 * linked to its row in the photo catalogue (the system of record: the store's photo
 * catalogue port), which holds what every process shares: the number, the inspection, the
 * hiding, the photographer's metadata. The scanner fills `tree`; `commit` writes what this
 * process found out to the record (new and changed files, files gone, inspections) and asks
 * it for the numbers of newly listed photos, then builds the published view (views.ts).
 */
import type {
  CatalogueChanges,
  CatalogueRow,
  CatalogueWrite,
  FileSighting,
  PhotoCataloguePort,
  PhotoFacts,
} from '../store/ports/photo-catalogue.js';
import type { EventJsonT } from './event-config.js';
import { type ReadMetadata, sameMetadata } from './metadata.js';
import { naturalKey, photoId, relativeKey } from './naming.js';
import type { Photo } from './types.js';
import { buildView, compareFrames, type EventView, orderedTree, type ViewOptions } from './views.js';

/**
 * A file of the tree: the version a scan found (`facts`: for a file unchanged since the record
 * saw it, the row's own object, so a restart keeps one per photo) and the photo code its
 * inspection found (`code`: null for none, undefined while not inspected). Beside them, this
 * process's state: `held` while it must not be listed yet, `inspecting` while inspected, and
 * `sighted` while the record has not been told of this version.
 */
export type Entry = {
  facts: PhotoFacts;
  code?: string | null;
  /** The photographer's metadata read from this version and its sidecar (metadata.ts); undefined: the row's stands. */
  meta?: ReadMetadata;
  row?: CatalogueRow;
  photo?: Photo;
  held?: boolean;
  inspecting?: boolean;
  sighted?: boolean;
};
export type SessionFiles = Map<string, Entry>;
/** day → session → file name → entry, in display order of days and sessions. */
export type DayTree = Map<string, Map<string, SessionFiles>>;

export type EventState = {
  code: string;
  tree: DayTree;
  /** The record's rows of the event by path (files gone included), as last read. */
  rows: Map<string, CatalogueRow>;
  /** Paths that left this process's tree since the last commit: the record is told they are gone. */
  gone: Set<string>;
  /** Something may be left to write (a commit failed, or a scan or inspection found something). */
  unsaved: boolean;
  /**
   * Until this process has committed its first scan of the event: rows the record had when
   * the scan began (`seq` up to this) that say present but were not found are marked gone.
   */
  firstScanBefore: number | undefined;
  configSig: string;
  /** event.json as parsed; undefined when absent or invalid (`eventJsonState` tells which). */
  eventJson: EventJsonT | undefined;
  eventJsonState: 'absent' | 'valid' | 'invalid';
  view: EventView | undefined;
};

export const sessionKey = (day: string, session: string) => `${day}\u0000${session}`;

export function newEventState(code: string, rows: Map<string, CatalogueRow>, seq: number): EventState {
  return {
    code,
    tree: new Map(),
    rows,
    gone: new Set(),
    unsaved: true,
    firstScanBefore: seq,
    configSig: '',
    eventJson: undefined,
    eventJsonState: 'absent',
    view: undefined,
  };
}

export const sameVersion = (a: PhotoFacts, b: { size: number; mtimeMs: number }) =>
  a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * The entry a row describes (its facts and inspection), for a file the scan finds unchanged.
 * `facts` is the row's own (non-null), passed beside it and kept as it is: a restart does
 * this for every file.
 */
export function entryFromRow(row: CatalogueRow, facts: PhotoFacts): Entry {
  const entry: Entry = { facts, row };
  if (row.inspected) entry.code = row.photoCode;
  return entry;
}

/** The entry of `path` (`day/session/file`) in the tree, if this process has it. */
export function entryAt(st: EventState, path: string): Entry | undefined {
  const [day = '', session = '', file = ''] = path.split('/');
  return st.tree.get(day)?.get(session)?.get(file);
}

/**
 * Rows the record had before the first scan began (`seq` up to `before`) that say present but
 * whose file the scan did not find: gone. Counted first (a restart finds every file), so the
 * paths are looked up one by one only when some such row has no entry.
 */
function markUnfound(st: EventState, before: number): void {
  const vouched = (row: CatalogueRow) => row.present && row.seq <= before;
  let rows = 0;
  for (const row of st.rows.values()) if (vouched(row)) rows++;
  let found = 0;
  for (const sessions of st.tree.values()) {
    for (const files of sessions.values()) for (const rec of files.values()) if (rec.row && vouched(rec.row)) found++;
  }
  if (found === rows) return;
  for (const [path, row] of st.rows) if (vouched(row) && !entryAt(st, path)) st.gone.add(path);
}

/**
 * What goes to the record from this commit, with the entries whose sighting it carries and
 * the entry of every path it names (what the answer's rows are merged into).
 */
function collectWrites(st: EventState): { write: CatalogueWrite; sighted: Entry[]; named: Map<string, Entry> } {
  const seen: FileSighting[] = [];
  const inspected: NonNullable<CatalogueWrite['inspected']>[number][] = [];
  const number: string[] = [];
  const sighted: Entry[] = [];
  const named = new Map<string, Entry>();
  if (st.firstScanBefore !== undefined) markUnfound(st, st.firstScanBefore);
  for (const { day, sessions } of orderedTree(st)) {
    for (const { session, files } of sessions) {
      const fresh: { path: string; key: string; name: string; takenAtMs: number | null }[] = [];
      // The first of the session's photos held for their inspection, in display order: photos
      // after it wait for their numbers, so numbers follow the shooting order whichever
      // inspection finishes first.
      let inspecting: { key: string; name: string; takenAtMs: number | null } | undefined;
      for (const [name, rec] of files) {
        if (rec.held && rec.inspecting) {
          const frame = { key: naturalKey(name), name, takenAtMs: rec.facts.takenAtMs };
          if (!inspecting || compareFrames(frame, inspecting) < 0) inspecting = frame;
        }
        const row = rec.row;
        const facts = rec.facts;
        const same = row?.facts ? sameVersion(row.facts, facts) : false;
        let path: string | undefined;
        if (rec.sighted) {
          if (row?.present && same && (!rec.meta || sameMetadata(rec.meta, row))) rec.sighted = false;
          else {
            path = relativeKey(day, session, name);
            named.set(path, rec);
            const sighting: FileSighting = { path, id: photoId(st.code, path), facts };
            if (rec.meta) sighting.read = rec.meta;
            seen.push(sighting);
            sighted.push(rec);
          }
        }
        if (rec.code !== undefined && (rec.sighted || (same && (!row?.inspected || row.photoCode !== rec.code)))) {
          if (path === undefined) {
            path = relativeKey(day, session, name);
            named.set(path, rec);
          }
          inspected.push({ path, size: facts.size, mtimeMs: facts.mtimeMs, photoCode: rec.code });
        }
        // Listed now: a file not waiting for its inspection, and not a code frame (never listed).
        if (rec.held || typeof rec.code === 'string' || (row?.number ?? null) !== null) continue;
        if (same && row?.photoCode) continue; // another process found a code in it
        if (path === undefined) {
          path = relativeKey(day, session, name);
          named.set(path, rec);
        }
        fresh.push({ path, key: naturalKey(name), name, takenAtMs: facts.takenAtMs });
      }
      // New numbers in display order: within a session by capture time, then file name.
      fresh.sort(compareFrames);
      for (const f of fresh) {
        if (inspecting && compareFrames(f, inspecting) > 0) break;
        number.push(f.path);
      }
    }
  }
  const write: CatalogueWrite = {};
  if (seen.length) write.seen = seen;
  if (st.gone.size) write.gone = [...st.gone];
  if (inspected.length) write.inspected = inspected;
  if (number.length) write.number = number;
  return { write, sighted, named };
}

export type CommitContext = ViewOptions & {
  catalogue: Pick<PhotoCataloguePort, 'write'>;
  /**
   * The change feed's position, and where what a write returns is merged (library.ts);
   * `named` holds the entries of the paths the write named.
   */
  since(): number;
  merge(changes: CatalogueChanges, named: { code: string; entries: ReadonlyMap<string, Entry> }): void;
  /** A write went through. */
  written(): void;
  /** A write the record refused or could not take (tried again later). */
  failed(err: unknown, st: EventState): void;
};

/**
 * The record first (numbers are given there before anyone sees them), then the new view. A
 * record that can't be written leaves the state `unsaved` (tried again by the next commit or
 * the library's sync); the view is built with what is known, so new files wait unlisted.
 */
export async function commit(st: EventState, ctx: CommitContext): Promise<void> {
  st.unsaved = false;
  const { write, sighted, named } = collectWrites(st);
  if (Object.keys(write).length > 0) {
    try {
      const gone = write.gone ?? [];
      ctx.merge(await ctx.catalogue.write(st.code, write, ctx.since()), { code: st.code, entries: named });
      for (const path of gone) st.gone.delete(path);
      for (const rec of sighted) rec.sighted = false;
      st.firstScanBefore = undefined;
      ctx.written();
    } catch (err) {
      st.unsaved = true;
      ctx.failed(err, st);
    }
  } else {
    st.firstScanBefore = undefined;
  }
  st.view = buildView(st, ctx);
}
