/**
 * One write to the photo catalogue (PhotoCataloguePort.write), inside the caller's locked
 * transaction: rows new to the record are built here and inserted with their numbers (the
 * common case, thousands of files at once, costs one insert per row and nothing read back);
 * rows that existed are changed by statements and read back.
 */
import type {
  CatalogueChanges,
  CatalogueRow,
  CatalogueWrite,
  FileSighting,
  PhotoFacts,
} from '../ports/photo-catalogue.js';
import type { Tx } from './db.js';
import {
  CHUNK,
  catalogueValues,
  changesSince,
  chunks,
  PHOTO_CATALOGUE,
  rowsOf,
  SELECT,
} from './photo-catalogue-rows.js';
import { placeholders } from './values.js';

/**
 * A sighting of a known path: present again, and the version's facts; a new version loses
 * the inspection of the old one. Rows that already say so keep their `seq`.
 */
const SIGHTING_CONFLICT = `ON CONFLICT (event_code, path) DO UPDATE SET
    inspected = CASE WHEN ${sameVersion()} THEN photo_catalogue.inspected ELSE FALSE END,
    photo_code = CASE WHEN ${sameVersion()} THEN photo_catalogue.photo_code ELSE NULL END,
    size = excluded.size, mtime_ms = excluded.mtime_ms, width = excluded.width, height = excluded.height,
    taken_at_ms = excluded.taken_at_ms, present = TRUE, seq = excluded.seq,
    rating = CASE WHEN excluded.metadata IS NULL THEN photo_catalogue.rating ELSE excluded.rating END,
    metadata = COALESCE(excluded.metadata, photo_catalogue.metadata)
  WHERE NOT (${sameVersion()}) OR photo_catalogue.present = FALSE
    OR (excluded.metadata IS NOT NULL AND (photo_catalogue.metadata IS DISTINCT FROM excluded.metadata
      OR photo_catalogue.rating IS DISTINCT FROM excluded.rating))`;

function sameVersion(): string {
  return 'photo_catalogue.size IS NOT DISTINCT FROM excluded.size AND photo_catalogue.mtime_ms IS NOT DISTINCT FROM excluded.mtime_ms';
}

const sameFacts = (a: { size: number; mtimeMs: number }, b: PhotoFacts) => a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * Writes `changes` stamped `seq`; returns what other processes wrote since `since` and the
 * rows this write made or changed. `hideTakenDown` hides new rows whose photo a takedown hides.
 */
export async function writeCatalogue(
  tx: Tx,
  seq: number,
  eventCode: string,
  changes: CatalogueWrite,
  since: number,
  hideTakenDown: (tx: Tx, seq: number) => Promise<number>,
): Promise<CatalogueChanges> {
  // What other processes committed since the caller last read: all stamped below `seq`.
  const others = await changesSince(tx, since);
  const seen = changes.seen ?? [];
  const existing = await existingPaths(
    tx,
    eventCode,
    seen.map((f) => f.path),
  );
  const inspections = new Map((changes.inspected ?? []).map((i) => [i.path, i]));
  /** Rows this write creates. */
  const fresh = new Map<string, CatalogueRow>();
  /** Rows that existed and that this write may change: read back at the end. */
  const touched = new Set<string>();
  const again: FileSighting[] = [];
  for (const f of seen) {
    if (fresh.has(f.path)) continue; // listed twice
    if (existing.has(f.path)) {
      again.push(f);
      touched.add(f.path);
      continue;
    }
    const inspection = inspections.get(f.path);
    const inspected = inspection !== undefined && sameFacts(inspection, f.facts);
    if (inspected) inspections.delete(f.path);
    fresh.set(f.path, {
      eventCode,
      path: f.path,
      id: f.id,
      number: null,
      facts: f.facts,
      inspected,
      photoCode: inspection && inspected ? inspection.photoCode : null,
      present: true,
      hidden: false,
      rating: f.read ? f.read.rating : null,
      metadata: f.read ? f.read.metadata : null,
      seq,
    });
  }
  if (again.length > 0) await sighted(tx, eventCode, again, seq);
  for (const chunk of chunks(changes.gone ?? [])) {
    for (const path of chunk) touched.add(path);
    await tx.run(
      `UPDATE photo_catalogue SET present = FALSE, seq = ?
       WHERE event_code = ? AND present = TRUE AND path IN (${placeholders(chunk.length)})`,
      [seq, eventCode, ...chunk],
    );
  }
  for (const i of inspections.values()) {
    touched.add(i.path);
    await tx.run(
      `UPDATE photo_catalogue SET inspected = TRUE, photo_code = ?, seq = ?
       WHERE event_code = ? AND path = ? AND size = ? AND mtime_ms = ?
         AND (inspected = FALSE OR photo_code IS DISTINCT FROM ?)`,
      [i.photoCode, seq, eventCode, i.path, i.size, i.mtimeMs, i.photoCode],
    );
  }
  // Numbers last: what this write says of existing rows (a code found, a new version) counts.
  const numbered = await number(tx, eventCode, changes.number ?? [], fresh);
  await insertFresh(tx, [...fresh.values()]);
  for (const [path] of numbered) touched.add(path);
  await giveNumbers(tx, eventCode, numbered, seq);
  if (fresh.size > 0 && (await hideTakenDown(tx, seq)) > 0) {
    const hidden = await tx.all<{ path: string }>('SELECT path FROM photo_catalogue WHERE seq = ? AND hidden = TRUE', [
      seq,
    ]);
    for (const r of hidden) {
      const row = fresh.get(r.path);
      if (row) row.hidden = true;
    }
  }
  const changed = await readBack(tx, eventCode, [...touched], seq);
  // A write that changed nothing left `seq` unused: the next one stamps its rows with it.
  const wrote = fresh.size > 0 || changed.length > 0;
  return { rows: [...others.rows, ...fresh.values(), ...changed], seq: wrote ? seq : others.seq };
}

/**
 * Which of `paths` have a row. Many paths (a first scan) are matched against the event's
 * whole list when that is not much longer (one statement, nothing at all for a new event);
 * a few against the primary key, a chunk at a time.
 */
async function existingPaths(tx: Tx, eventCode: string, paths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (paths.length >= CHUNK) {
    const count = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM photo_catalogue WHERE event_code = ?', [
      eventCode,
    ]);
    if ((count?.n ?? 0) <= 4 * paths.length) {
      const wanted = new Set(paths);
      for (const r of await tx.all<{ path: string }>('SELECT path FROM photo_catalogue WHERE event_code = ?', [
        eventCode,
      ])) {
        if (wanted.has(r.path)) found.add(r.path);
      }
      return found;
    }
  }
  for (const chunk of chunks(paths)) {
    const rows = await tx.all<{ path: string }>(
      `SELECT path FROM photo_catalogue WHERE event_code = ? AND path IN (${placeholders(chunk.length)})`,
      [eventCode, ...chunk],
    );
    for (const r of rows) found.add(r.path);
  }
  return found;
}

/**
 * A chunk at a time: the values of a first scan's 50,000 rows never all exist at once (they
 * would outlive the young generation and stay in the heap as garbage: bench/gallery, RSS
 * after the cold index ≤ 250 MB). The engines insert in chunks of this size anyway.
 */
async function insertFresh(tx: Tx, rows: readonly CatalogueRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += CHUNK) {
    const values = rows.slice(at, at + CHUNK).map(catalogueValues);
    await tx.insert('photo_catalogue', PHOTO_CATALOGUE.names, values);
  }
}

/** Known files seen again: present, with these facts (a new version loses its inspection). */
async function sighted(tx: Tx, eventCode: string, seen: readonly FileSighting[], seq: number): Promise<void> {
  const rows = seen.map(({ path, id, facts, read }) =>
    catalogueValues({
      eventCode,
      path,
      id,
      number: null,
      facts,
      inspected: false,
      photoCode: null,
      present: true,
      hidden: false,
      rating: read ? read.rating : null,
      metadata: read ? read.metadata : null,
      seq,
    }),
  );
  await tx.insert('photo_catalogue', PHOTO_CATALOGUE.names, rows, SIGHTING_CONFLICT);
}

/**
 * The next numbers of the event for the listed paths without one (code frames excepted), in
 * the order given: set on the fresh rows; returned for the rows that existed.
 */
async function number(
  tx: Tx,
  eventCode: string,
  paths: readonly string[],
  fresh: Map<string, CatalogueRow>,
): Promise<[string, number][]> {
  if (paths.length === 0) return [];
  const waiting = new Set<string>();
  for (const chunk of chunks(paths.filter((p) => !fresh.has(p)))) {
    const rows = await tx.all<{ path: string }>(
      `SELECT path FROM photo_catalogue
       WHERE event_code = ? AND number IS NULL AND photo_code IS NULL AND path IN (${placeholders(chunk.length)})`,
      [eventCode, ...chunk],
    );
    for (const r of rows) waiting.add(r.path);
  }
  const top = await tx.get<{ n: number | null }>('SELECT MAX(number) AS n FROM photo_catalogue WHERE event_code = ?', [
    eventCode,
  ]);
  let next = (top?.n ?? 0) + 1;
  const given: [string, number][] = [];
  for (const path of paths) {
    const row = fresh.get(path);
    if (row) {
      if (row.number === null && row.photoCode === null) row.number = next++;
    } else if (waiting.delete(path)) {
      given.push([path, next++]);
    }
  }
  return given;
}

/** Writes the numbers given to rows that existed. */
async function giveNumbers(tx: Tx, eventCode: string, given: readonly [string, number][], seq: number): Promise<void> {
  for (const chunk of chunks(given)) {
    const values = chunk.map(() => '(?, CAST(? AS INTEGER))').join(', ');
    await tx.run(
      `WITH given (path, number) AS (VALUES ${values})
       UPDATE photo_catalogue SET number = (SELECT MAX(number) FROM given WHERE given.path = photo_catalogue.path), seq = ?
       WHERE event_code = ? AND path IN (SELECT path FROM given)`,
      [...chunk.flat(), seq, eventCode],
    );
  }
}

/** The rows among `paths` that this write changed (stamped `seq`), each once. */
async function readBack(tx: Tx, eventCode: string, paths: readonly string[], seq: number): Promise<CatalogueRow[]> {
  const rows = new Map<string, CatalogueRow>();
  for (const chunk of chunks(paths)) {
    const found = await rowsOf(
      tx,
      `${SELECT} WHERE event_code = ? AND seq = ? AND path IN (${placeholders(chunk.length)})`,
      [eventCode, seq, ...chunk],
    );
    for (const r of found) rows.set(r.path, r);
  }
  return [...rows.values()];
}
