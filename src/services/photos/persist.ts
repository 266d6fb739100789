/**
 * The index kept under DATA_DIR/photo-index/, one file per event, so that
 *  - photo numbers survive restarts and are never handed to another photo (every number
 *    ever assigned is kept, also for files that were removed), and
 *  - a restart re-reads only files whose size or modification time changed.
 * Files are replaced atomically (write, fsync, rename): a crash leaves the old or the new
 * version, never half of one.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { relativeKey } from './naming.js';

/**
 * size, mtimeMs, width, height, takenAtMs: what a header read produced for that file version;
 * `code`: what its inspection found (intake.ts): the photo code it shows, null for none,
 * undefined while not inspected.
 */
export type FileRecord = {
  size: number;
  mtimeMs: number;
  width: number;
  height: number;
  takenAtMs: number | null;
  code?: string | null;
};

export type PersistedEvent = {
  code: string;
  nextNumber: number;
  /** relative path → number, including files that are gone (numbers are never reused). */
  numbers: Map<string, number>;
  /** relative path → header facts of the version last seen. */
  files: Map<string, FileRecord>;
};

/**
 * On disk, arrays rather than objects keyed by path: 50,000 photos serialise and parse in
 * a fraction of the time.
 *   sessions: [{ day, session, files: [[name, size, mtimeMs, width, height, takenAtMs|null, number, code?]] }]
 *             code: the photo code the frame shows, "" for none, absent when not inspected yet
 *   retired:  [[relative path, number]]   numbers of files that are gone, kept so they are never reused
 */
const FORMAT = 2;

const FileTuple = z.tuple(
  [
    z.string(),
    z.number().nonnegative(),
    z.number(),
    z.number().int().positive(),
    z.number().int().positive(),
    z.number().nullable(),
    z.number().int().nonnegative(),
  ],
  z.string(),
);

const PersistedFile = z.object({
  format: z.literal(FORMAT),
  code: z.string(),
  nextNumber: z.number().int().positive(),
  sessions: z.array(z.object({ day: z.string(), session: z.string(), files: z.array(FileTuple) })),
  retired: z.array(z.tuple([z.string(), z.number().int().positive()])),
});

export function indexDir(dataDir: string): string {
  return path.join(dataDir, 'photo-index');
}

/** A file name that is safe whatever the event folder is called, and still readable. */
function indexFileFor(dataDir: string, code: string): string {
  const slug = code.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40);
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 12);
  return path.join(indexDir(dataDir), `${slug}-${hash}.json`);
}

/** The stored index of one event, or undefined when there is none (or it cannot be read). */
export async function loadEventIndex(
  dataDir: string,
  code: string,
  warn: (msg: string, err?: unknown) => void,
): Promise<PersistedEvent | undefined> {
  const file = indexFileFor(dataDir, code);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`cannot read ${file}`, err);
    return undefined;
  }
  try {
    const parsed = PersistedFile.parse(JSON.parse(text));
    if (parsed.code !== code) throw new Error(`belongs to event ${JSON.stringify(parsed.code)}`);
    const files = new Map<string, FileRecord>();
    const numbers = new Map<string, number>(parsed.retired);
    for (const { day, session, files: list } of parsed.sessions) {
      for (const [name, size, mtimeMs, width, height, takenAtMs, number, code] of list) {
        const rel = relativeKey(day, session, name);
        const record: FileRecord = { size, mtimeMs, width, height, takenAtMs };
        if (code !== undefined) record.code = code === '' ? null : code;
        files.set(rel, record);
        if (number > 0) numbers.set(rel, number);
      }
    }
    let highest = 0;
    for (const n of numbers.values()) if (n > highest) highest = n;
    return { code, nextNumber: Math.max(parsed.nextNumber, highest + 1), numbers, files };
  } catch (err) {
    // Keep the unreadable file for the operator; numbers restart, which is logged loudly.
    warn(`ignoring unreadable photo index ${file}; photo numbers of this event will be reassigned`, err);
    await rename(file, `${file}.unreadable-${Date.now()}`).catch(() => undefined);
    return undefined;
  }
}

export type SessionRecords = { day: string; session: string; files: Iterable<[string, FileRecord]> };

/** Writes one event's index: the current files by session, and the numbers of files that are gone. */
export async function saveEventIndex(
  dataDir: string,
  state: { code: string; nextNumber: number; numbers: Map<string, number>; sessions: Iterable<SessionRecords> },
): Promise<void> {
  const file = indexFileFor(dataDir, state.code);
  await mkdir(path.dirname(file), { recursive: true });
  const present = new Set<string>();
  const sessions: z.input<typeof PersistedFile>['sessions'] = [];
  for (const { day, session, files } of state.sessions) {
    const list: z.input<typeof FileTuple>[] = [];
    for (const [name, r] of files) {
      const rel = relativeKey(day, session, name);
      // A code frame has no number (it is never listed): 0 is stored, and read back as none.
      const number = state.numbers.get(rel) ?? (typeof r.code === 'string' ? 0 : undefined);
      if (number === undefined) continue;
      if (number > 0) present.add(rel);
      const tuple: z.input<typeof FileTuple> = [name, r.size, r.mtimeMs, r.width, r.height, r.takenAtMs, number];
      if (r.code !== undefined) tuple.push(r.code ?? '');
      list.push(tuple);
    }
    sessions.push({ day, session, files: list });
  }
  const retired: [string, number][] = [];
  for (const [rel, n] of state.numbers) if (!present.has(rel)) retired.push([rel, n]);
  const body = JSON.stringify({ format: FORMAT, code: state.code, nextNumber: state.nextNumber, sessions, retired });
  const tmp = `${file}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(body);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
