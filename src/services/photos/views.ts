/**
 * The published, immutable view of one event: what the gallery lists and in which order, and
 * which photos each photo code introduced (docs/contract.md, "Finding one's photos, and
 * intake"). Folders go by the capture time of their first photo, because photographers name
 * them "Cosplay", "Studio": the shooting order is the one they expect. Code frames and photos
 * taken down are never listed, but keep their number and place in the shooting order, so code
 * groups and numbers don't shift; only `hidden` still knows the latter, for the admin's queue.
 */
import type { Logger } from '../../lib/logger.js';
import { resolveEventDefaults } from './event-config.js';
import { compareNames, naturalKey, photoId, photoVersion, relativeKey } from './naming.js';
import type { EventState } from './photo-index.js';
import type { DayFolder, LibraryEvent, ListingRules, Photo, SessionFolder } from './types.js';

export type EventView = {
  event: LibraryEvent;
  photos: readonly Photo[];
  byId: Map<string, Photo>;
  byNumber: Map<string, Photo>;
  /** sessionKey(day, session) → that session's photos in gallery order. */
  sessions: Map<string, readonly Photo[]>;
  days: Map<string, readonly Photo[]>;
  /** Photo code → the photos its frames introduced in this event, in gallery order. */
  codes: Map<string, Photo[]>;
  /** Photos taken down, by id and by number: never listed (the admin's takedown queue only). */
  hidden: Map<string, Photo>;
};

const EMPTY_DAYS: readonly DayFolder[] = Object.freeze([]);
const sessionKey = (day: string, session: string) => `${day}\u0000${session}`;

/** Capture times ascending; photos without one after those with one. */
function compareTimes(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** Folders: the first capture time ascending, folders without one after, then by name. */
function compareFolders(a: { name: string; first: number | null }, b: { name: string; first: number | null }) {
  return compareTimes(a.first, b.first) || compareNames(a.name, b.name);
}

type SessionFiles = EventState['tree'] extends Map<string, Map<string, infer F>> ? F : never;
export type OrderedDay = { day: string; sessions: { session: string; files: SessionFiles }[] };

/**
 * Days and their sessions in display order: by the first capture time among their listable
 * files (held ones left out), those without any after, then by name. Numbering
 * (photo-index.ts) and the view both walk this.
 */
export function orderedTree(st: EventState): OrderedDay[] {
  type S = { session: string; files: SessionFiles; name: string; first: number | null };
  const days: { day: string; name: string; first: number | null; sessions: S[] }[] = [];
  for (const [day, sessionMap] of st.tree) {
    const out = { day, name: day, first: null as number | null, sessions: [] as S[] };
    for (const [session, files] of sessionMap) {
      let first: number | null = null;
      for (const rec of files.values()) {
        const takenAtMs = rec.facts.takenAtMs;
        if (rec.held || takenAtMs === null) continue;
        if (first === null || takenAtMs < first) first = takenAtMs;
      }
      out.sessions.push({ session, files, name: session, first });
      if (first !== null && (out.first === null || first < out.first)) out.first = first;
    }
    out.sessions.sort(compareFolders);
    days.push(out);
  }
  days.sort(compareFolders);
  return days;
}

type Frame = { name: string; key: string; takenAtMs: number | null; code: string | null; photo: Photo | undefined };

export type ViewOptions = {
  log: Logger;
  gapMs: number;
  /** The admins' overrides of the event's listing rules (library.ts). */
  listingOf?: (code: string) => Partial<ListingRules> | undefined;
};

/**
 * Whether the photographer's rating lets a photo be listed (docs/contract.md, "The
 * photographer's metadata"): a reject only when the event shows rejects; any other only when
 * rated at least `minRating` (unrated counts as 0).
 */
function listable(rating: number | null, rules: ListingRules): boolean {
  if (rating === -1) return rules.showRejected;
  return (rating ?? 0) >= rules.minRating;
}

/** event.json's listing rules with the admins' overrides on top. */
function listingRules(st: EventState, opts: ViewOptions): ListingRules {
  const override = opts.listingOf?.(st.code);
  return {
    showRejected: override?.showRejected ?? st.eventJson?.showRejected ?? false,
    minRating: override?.minRating ?? st.eventJson?.minRating ?? 0,
  };
}

export function buildView(st: EventState, opts: ViewOptions): EventView {
  const rules = listingRules(st, opts);
  const photos: Photo[] = [];
  const byId = new Map<string, Photo>();
  const byNumber = new Map<string, Photo>();
  const sessions = new Map<string, readonly Photo[]>();
  const dayPhotos = new Map<string, readonly Photo[]>();
  const codes = new Map<string, Photo[]>();
  const hidden = new Map<string, Photo>();
  let firstTaken = Number.POSITIVE_INFINITY;

  const dayFolders: DayFolder[] = [];
  for (const { day, sessions: sessionList } of orderedTree(st)) {
    const dayStart = photos.length;
    const folders: SessionFolder[] = [];
    for (const { session, files } of sessionList) {
      const frames: Frame[] = [];
      for (const [fileName, rec] of files) {
        if (rec.held) continue; // still being inspected (library.ts): not listed yet
        const code = typeof rec.code === 'string' ? rec.code : null;
        const facts = rec.facts;
        const takenAtMs = facts.takenAtMs;
        let photo: Photo | undefined;
        const row = rec.row;
        if (code === null) {
          // Numbers come from the record (photo-index.ts): a file it has not numbered yet is not listed.
          if (!row || row.number === null) continue;
          const number = String(row.number);
          const version = photoVersion(facts.size, facts.mtimeMs);
          photo = rec.photo;
          if (
            !photo ||
            photo.number !== number ||
            photo.version !== version ||
            photo.rating !== row.rating ||
            photo.metadata !== row.metadata
          ) {
            photo = {
              id: row.id,
              number,
              eventCode: st.code,
              day,
              session,
              fileName,
              width: facts.width,
              height: facts.height,
              takenAt: takenAtMs === null ? null : new Date(takenAtMs).toISOString(),
              version,
              rating: row.rating,
              metadata: row.metadata,
            };
            rec.photo = photo;
          }
          if (row.hidden) {
            hidden.set(photo.id, photo);
            hidden.set(photo.number, photo);
            photo = undefined; // a frame still (its time counts for the code groups), never a listed photo
          } else if (!listable(row.rating, rules)) {
            photo = undefined; // rejected or rated too low: kept private the same way, its number kept
          }
        }
        if (takenAtMs !== null && takenAtMs < firstTaken) firstTaken = takenAtMs;
        frames.push({ name: fileName, key: naturalKey(fileName), takenAtMs, code, photo });
      }
      frames.sort(compareFrames);
      groupByCode(frames, opts.gapMs, codes);
      const list: Photo[] = [];
      for (const f of frames) if (f.photo) list.push(f.photo);
      Object.freeze(list);
      sessions.set(sessionKey(day, session), list);
      for (const p of list) photos.push(p);
      folders.push({ name: session, photoCount: list.length });
    }
    dayPhotos.set(day, Object.freeze(photos.slice(dayStart)));
    dayFolders.push({ name: day, photoCount: photos.length - dayStart, sessions: folders });
  }
  for (const p of photos) {
    if (byId.has(p.id)) {
      // 66-bit ids: practically never; a longer hash keeps both photos reachable.
      opts.log.error({ event: st.code, id: p.id }, 'photo id collision; using a longer id');
      (p as { id: string }).id = photoId(st.code, relativeKey(p.day, p.session, p.fileName), 22);
    }
    byId.set(p.id, p);
    byNumber.set(p.number, p);
  }
  const derivedDate = Number.isFinite(firstTaken) ? new Date(firstTaken).toISOString().slice(0, 10) : null;
  const event: LibraryEvent = Object.freeze({
    ...resolveEventDefaults(st.code, st.eventJson, derivedDate, st.eventJsonState),
    photoCount: photos.length,
    days: dayFolders.length ? Object.freeze(dayFolders) : EMPTY_DAYS,
  }) as LibraryEvent;
  return { event, photos: Object.freeze(photos), byId, byNumber, sessions, days: dayPhotos, codes, hidden };
}

/**
 * The code groups of one session's frames (in gallery order, code frames included): each
 * code frame opens a group that takes the following photos until the next code frame, a
 * gap over `gapMs` between consecutive frames, or the first frame without a capture time
 * after timed ones (its place in the shooting order is unknown).
 */
/** Capture time, then natural file-name order, then the exact name (no two frames tie). */
export function compareFrames(
  a: { takenAtMs: number | null; key: string; name: string },
  b: { takenAtMs: number | null; key: string; name: string },
): number {
  return (
    compareTimes(a.takenAtMs, b.takenAtMs) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
    compareNames(a.name, b.name)
  );
}

function groupByCode(frames: readonly Frame[], gapMs: number, into: Map<string, Photo[]>): void {
  let current: Photo[] | undefined;
  let last: number | null = null;
  for (const f of frames) {
    if (f.code !== null) {
      current = into.get(f.code);
      if (!current) {
        current = [];
        into.set(f.code, current);
      }
      last = f.takenAtMs;
      continue;
    }
    if (current) {
      const t = f.takenAtMs;
      if ((last !== null && t === null) || (last !== null && t !== null && t - last > gapMs)) current = undefined;
    }
    if (current && f.photo) current.push(f.photo);
    last = f.takenAtMs;
  }
}
