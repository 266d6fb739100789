/**
 * One event's index: the folder tree of file records as the last scan found it, the photo
 * numbers (assigned once, persisted before anyone sees them, never reused), and the stored
 * copy under DATA_DIR (persist.ts). The scanner fills `tree`; `commit` numbers new photos,
 * saves when needed and asks views.ts for the published view.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { EventJsonT } from './event-config.js';
import { naturalKey, relativeKey } from './naming.js';
import { type FileRecord, loadEventIndex, type SessionRecords, saveEventIndex } from './persist.js';
import type { Photo } from './types.js';
import { buildView, compareFrames, type EventView, type HiddenCheck, orderedTree } from './views.js';

/**
 * A file's record, with what this process keeps beside it: the photo built from it, and
 * its inspection (library.ts): `held` while it must not be listed yet, `inspecting` while
 * the inspector has it.
 */
export type Entry = FileRecord & { photo?: Photo; held?: boolean; inspecting?: boolean };
export type SessionFiles = Map<string, Entry>;
/** day → session → file name → record, in display order of days and sessions. */
export type DayTree = Map<string, Map<string, SessionFiles>>;

export type EventState = {
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
  /** event.json as parsed; undefined when absent or invalid (`eventJsonState` tells which). */
  eventJson: EventJsonT | undefined;
  eventJsonState: 'absent' | 'valid' | 'invalid';
  view: EventView | undefined;
};

export const sessionKey = (day: string, session: string) => `${day}\u0000${session}`;

export async function newEventState(dataDir: string, code: string, log: FastifyBaseLogger): Promise<EventState> {
  const stored = await loadEventIndex(dataDir, code, (msg, err) => log.warn({ err }, msg));
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
    eventJsonState: 'absent',
    view: undefined,
  };
}

/**
 * Gives every listed photo without a number the next ones, in display order: within a
 * session by capture time, then natural file-name order. A file still waiting for its
 * inspection (intake.ts) gets none yet; a code frame never gets one (it is never listed).
 * True when any was assigned.
 */
function assignNumbers(st: EventState): boolean {
  let assigned = false;
  for (const { day, sessions } of orderedTree(st)) {
    for (const { session, files } of sessions) {
      const fresh: { rel: string; key: string; name: string; takenAtMs: number | null }[] = [];
      // Not rec.code: a code frame is never listed, so it is never numbered.
      for (const [name, rec] of files) {
        if (rec.code !== null && rec.code !== undefined) continue;
        if (rec.held) continue;
        const rel = relativeKey(day, session, name);
        if (!st.numbers.has(rel)) fresh.push({ rel, key: naturalKey(name), name, takenAtMs: rec.takenAtMs });
      }
      if (fresh.length === 0) continue;
      fresh.sort(compareFrames);
      for (const f of fresh) st.numbers.set(f.rel, st.nextNumber++);
      assigned = true;
    }
  }
  return assigned;
}

async function persist(dataDir: string, st: EventState, log: FastifyBaseLogger): Promise<void> {
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
export async function commit(
  dataDir: string,
  st: EventState,
  opts: { log: FastifyBaseLogger; gapMs: number; hidden?: HiddenCheck },
): Promise<void> {
  if (assignNumbers(st)) st.unsaved = true;
  if (st.unsaved) {
    st.unsaved = false;
    await persist(dataDir, st, opts.log);
  }
  st.view = buildView(st, opts);
}
