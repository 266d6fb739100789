/**
 * The photo catalogue on either engine (ports/photo-catalogue.ts): table `photo_catalogue`.
 *
 * Every write takes one lock (`photo-catalogue`: PostgreSQL's advisory lock, SQLite's write
 * transaction) and stamps the rows it changes with max(seq) + 1: writers one at a time make
 * `seq` order commit order, so a reader that saw `seq` s has seen every write before it, and
 * numbers read as max(number) + 1 under the same lock are never given twice.
 *
 * Lists (paths gone, numbers given) go in chunks padded to a few fixed lengths, so that each
 * engine prepares a handful of statement texts whatever the lengths.
 */
import {
  type CatalogueChanges,
  type CatalogueRow,
  type CatalogueWrite,
  catalogueRowOf,
  type FileSighting,
  type ImportedFile,
  type ImportOutcome,
  type PhotoCataloguePort,
  type PhotoFacts,
  type PhotoMetadata,
  StoredCatalogueRow,
} from '../ports/photo-catalogue.js';
import type { Db, Param, Queryable, Tx } from './db.js';
import { HIDING_TAKEDOWN } from './takedown-hiding.js';
import { bool, json, placeholders } from './values.js';

const LOCK = 'photo-catalogue';

const COLUMNS = [
  'event_code',
  'path',
  'id',
  'number',
  'size',
  'mtime_ms',
  'width',
  'height',
  'taken_at_ms',
  'inspected',
  'photo_code',
  'present',
  'hidden',
  'rating',
  'metadata',
  'seq',
] as const;
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM photo_catalogue`;
/** What an imported file writes (rating and metadata start empty: read at the next scan). */
const INSERT_COLUMNS = COLUMNS.filter((c) => c !== 'rating' && c !== 'metadata');
/** What a sighting writes: with the rating and metadata read from the version (null: not read). */
const SIGHTING_COLUMNS = [...INSERT_COLUMNS.filter((c) => c !== 'seq'), 'rating', 'metadata', 'seq'] as const;

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

/** Whether a takedown keeps the row's photo from the public (sql/takedowns.ts says which do). */
const HIDDEN_BY_TAKEDOWN = `EXISTS (SELECT 1 FROM takedowns
  WHERE event_slug = photo_catalogue.event_code AND photo_id = photo_catalogue.id AND (${HIDING_TAKEDOWN}))`;

const CHUNK = 256;
/** Chunks of at most CHUNK, each padded (its last item repeated) to 1, 16 or CHUNK items. */
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += CHUNK) {
    const chunk = items.slice(at, at + CHUNK);
    const size = chunk.length === 1 ? 1 : chunk.length <= 16 ? 16 : CHUNK;
    const last = chunk[chunk.length - 1] as T;
    while (chunk.length < size) chunk.push(last);
    out.push(chunk);
  }
  return out;
}

const sameFacts = (a: { size: number; mtimeMs: number }, b: PhotoFacts) => a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * A row read back as its values in COLUMNS order (`eachRow`: no object per row from the
 * engine), parsed flat (StoredCatalogueRow: the port's cheaper schema for the same fields),
 * its facts then nested.
 */
function toRow(v: unknown[]): CatalogueRow {
  const metadata = v[14];
  return catalogueRowOf(
    StoredCatalogueRow.parse({
      eventCode: v[0],
      path: v[1],
      id: v[2],
      number: v[3],
      size: v[4],
      mtimeMs: v[5],
      width: v[6],
      height: v[7],
      takenAtMs: v[8],
      inspected: bool(v[9]),
      photoCode: v[10],
      present: bool(v[11]),
      hidden: bool(v[12]),
      rating: v[13],
      metadata: metadata === null || metadata === undefined ? null : json(metadata),
      seq: v[15],
    }),
  );
}

/** The rows `sql` selects (SELECT's columns), parsed. */
async function rowsOf(q: Queryable, sql: string, params: readonly Param[]): Promise<CatalogueRow[]> {
  const rows: CatalogueRow[] = [];
  await q.eachRow(sql, params, (values) => {
    const row = toRow(values);
    // One string for an event's code rather than a copy per row (a restart keeps every row).
    const before = rows[rows.length - 1];
    if (before && before.eventCode === row.eventCode) row.eventCode = before.eventCode;
    rows.push(row);
  });
  return rows;
}

async function changesSince(q: Queryable, seq: number): Promise<CatalogueChanges> {
  const rows = await rowsOf(q, `${SELECT} WHERE seq > ? ORDER BY seq`, [seq]);
  return { rows, seq: rows.length > 0 ? (rows[rows.length - 1] as CatalogueRow).seq : seq };
}

export class SqlPhotoCatalogue implements PhotoCataloguePort {
  constructor(private readonly db: Db) {}

  /** Takes the catalogue's lock; returns the `seq` this transaction stamps its changes with. */
  private static async begin(tx: Tx): Promise<number> {
    await tx.lock(LOCK);
    const top = await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM photo_catalogue');
    return (top?.seq ?? 0) + 1;
  }

  /**
   * Sets `hidden` of the photo's row from its takedown requests, in the caller's transaction
   * (sql/takedowns.ts, after a request or a decision): what every process's library then
   * reads from the change feed.
   */
  static async takedownChanged(tx: Tx, eventCode: string, photoId: string): Promise<void> {
    const seq = await SqlPhotoCatalogue.begin(tx);
    await tx.run(
      `UPDATE photo_catalogue SET hidden = ${HIDDEN_BY_TAKEDOWN}, seq = ?
       WHERE event_code = ? AND id = ? AND hidden IS DISTINCT FROM ${HIDDEN_BY_TAKEDOWN}`,
      [seq, eventCode, photoId],
    );
  }

  /** New rows stamped `seq` whose photo a takedown hides already (taken before the row existed); how many. */
  private static hideTakenDown(tx: Tx, seq: number): Promise<number> {
    return tx.run(
      `UPDATE photo_catalogue SET hidden = TRUE WHERE seq = ? AND hidden = FALSE AND ${HIDDEN_BY_TAKEDOWN}`,
      [seq],
    );
  }

  changesSince(seq: number): Promise<CatalogueChanges> {
    return changesSince(this.db, seq);
  }

  /**
   * Rows new to the record are built here and inserted with their numbers (the common case,
   * thousands of files at once, costs one insert per row and nothing read back); rows that
   * existed are changed by statements and read back.
   */
  write(eventCode: string, changes: CatalogueWrite, since: number): Promise<CatalogueChanges> {
    return this.db.transaction(async (tx) => {
      const seq = await SqlPhotoCatalogue.begin(tx);
      // What other processes committed since the caller last read: all stamped below `seq`.
      const others = await changesSince(tx, since);
      const seen = changes.seen ?? [];
      const existing = await SqlPhotoCatalogue.existing(
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
      if (again.length > 0) await SqlPhotoCatalogue.sighted(tx, eventCode, again, seq);
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
      const numbered = await SqlPhotoCatalogue.number(tx, eventCode, changes.number ?? [], fresh);
      await SqlPhotoCatalogue.insertFresh(tx, [...fresh.values()]);
      for (const [path] of numbered) touched.add(path);
      await SqlPhotoCatalogue.giveNumbers(tx, eventCode, numbered, seq);
      if (fresh.size > 0 && (await SqlPhotoCatalogue.hideTakenDown(tx, seq)) > 0) {
        const hidden = await tx.all<{ path: string }>(
          'SELECT path FROM photo_catalogue WHERE seq = ? AND hidden = TRUE',
          [seq],
        );
        for (const r of hidden) {
          const row = fresh.get(r.path);
          if (row) row.hidden = true;
        }
      }
      const changed = await SqlPhotoCatalogue.readBack(tx, eventCode, [...touched], seq);
      // A write that changed nothing left `seq` unused: the next one stamps its rows with it.
      const wrote = fresh.size > 0 || changed.length > 0;
      return { rows: [...others.rows, ...fresh.values(), ...changed], seq: wrote ? seq : others.seq };
    });
  }

  /**
   * Which of `paths` have a row. Many paths (a first scan) are matched against the event's
   * whole list when that is not much longer (one statement, nothing at all for a new event);
   * a few against the primary key, a chunk at a time.
   */
  private static async existing(tx: Tx, eventCode: string, paths: readonly string[]): Promise<Set<string>> {
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
  private static async insertFresh(tx: Tx, rows: readonly CatalogueRow[]): Promise<void> {
    for (let at = 0; at < rows.length; at += CHUNK) {
      const values = rows.slice(at, at + CHUNK).map((r): Param[] => {
        const { size, mtimeMs, width, height, takenAtMs } = r.facts as PhotoFacts;
        const metadata = r.metadata === null ? null : JSON.stringify(r.metadata);
        return [
          r.eventCode,
          r.path,
          r.id,
          r.number,
          size,
          mtimeMs,
          width,
          height,
          takenAtMs,
          r.inspected,
          r.photoCode,
          true,
          r.hidden,
          r.rating,
          metadata,
          r.seq,
        ];
      });
      await tx.insert('photo_catalogue', SIGHTING_COLUMNS, values);
    }
  }

  /** Known files seen again: present, with these facts (a new version loses its inspection). */
  private static async sighted(tx: Tx, eventCode: string, seen: readonly FileSighting[], seq: number): Promise<void> {
    const rows = seen.map(({ path, id, facts: f, read }): Param[] => [
      eventCode,
      path,
      id,
      null,
      f.size,
      f.mtimeMs,
      f.width,
      f.height,
      f.takenAtMs,
      false,
      null,
      true,
      false,
      read ? read.rating : null,
      read ? JSON.stringify(read.metadata) : null,
      seq,
    ]);
    await tx.insert('photo_catalogue', SIGHTING_COLUMNS, rows, SIGHTING_CONFLICT);
  }

  /**
   * The next numbers of the event for the listed paths without one (code frames excepted), in
   * the order given: set on the fresh rows; returned for the rows that existed.
   */
  private static async number(
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
    const top = await tx.get<{ n: number | null }>(
      'SELECT MAX(number) AS n FROM photo_catalogue WHERE event_code = ?',
      [eventCode],
    );
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
  private static async giveNumbers(
    tx: Tx,
    eventCode: string,
    given: readonly [string, number][],
    seq: number,
  ): Promise<void> {
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
  private static async readBack(
    tx: Tx,
    eventCode: string,
    paths: readonly string[],
    seq: number,
  ): Promise<CatalogueRow[]> {
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

  async setMetadata(
    eventCode: string,
    path: string,
    value: { rating: number | null; metadata: PhotoMetadata | null },
  ): Promise<CatalogueRow | null> {
    const metadata = value.metadata === null ? null : JSON.stringify(value.metadata);
    return this.db.transaction(async (tx) => {
      const seq = await SqlPhotoCatalogue.begin(tx);
      await tx.run(
        `UPDATE photo_catalogue SET rating = ?, metadata = ?, seq = ?
         WHERE event_code = ? AND path = ? AND (rating IS DISTINCT FROM ? OR metadata IS DISTINCT FROM ?)`,
        [value.rating, metadata, seq, eventCode, path, value.rating, metadata],
      );
      const [row] = await rowsOf(tx, `${SELECT} WHERE event_code = ? AND path = ?`, [eventCode, path]);
      return row ?? null;
    });
  }

  importIndex(eventCode: string, files: readonly ImportedFile[]): Promise<ImportOutcome> {
    return this.db.transaction(async (tx) => {
      const seq = await SqlPhotoCatalogue.begin(tx);
      const existing = await tx.all<{ path: string; number: number | null }>(
        'SELECT path, number FROM photo_catalogue WHERE event_code = ?',
        [eventCode],
      );
      const known = new Map(existing.map((r) => [r.path, r.number]));
      const used = new Set(existing.flatMap((r) => (r.number === null ? [] : [r.number])));
      const outcome: ImportOutcome = { imported: 0, known: 0, disagreed: [], renumbered: [] };
      const rows: Param[][] = [];
      for (const f of files) {
        if (known.has(f.path)) {
          outcome.known++;
          const recorded = known.get(f.path) ?? null;
          if (f.number !== null && recorded !== f.number)
            outcome.disagreed.push({ path: f.path, number: f.number, recorded });
          continue;
        }
        let number = f.number;
        if (number !== null && used.has(number)) {
          outcome.renumbered.push({ path: f.path, number });
          number = null;
        }
        // A retired number that another file holds now: nothing of it is left to keep.
        if (f.facts === null && number === null) continue;
        if (number !== null) used.add(number);
        known.set(f.path, number);
        const facts = f.facts;
        rows.push([
          eventCode,
          f.path,
          f.id,
          number,
          facts?.size ?? null,
          facts?.mtimeMs ?? null,
          facts?.width ?? null,
          facts?.height ?? null,
          facts?.takenAtMs ?? null,
          f.photoCode !== undefined,
          f.photoCode ?? null,
          facts !== null,
          false,
          seq,
        ]);
        outcome.imported++;
      }
      await tx.insert('photo_catalogue', INSERT_COLUMNS, rows);
      await SqlPhotoCatalogue.hideTakenDown(tx, seq);
      return outcome;
    });
  }
}
