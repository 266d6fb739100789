/**
 * Reading the photo catalogue's rows back (table `photo_catalogue`), and the chunking every
 * statement over a list uses: lists go in chunks padded to a few fixed lengths, so that each
 * engine prepares a handful of statement texts whatever the lengths.
 */
import {
  type CatalogueChanges,
  type CatalogueRow,
  catalogueRowOf,
  StoredCatalogueRow,
} from '../ports/photo-catalogue.js';
import type { Param, Queryable } from './db.js';
import { bool, json } from './values.js';

export const COLUMNS = [
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
export const SELECT = `SELECT ${COLUMNS.join(', ')} FROM photo_catalogue`;
/** What an imported file writes (rating and metadata start empty: read at the next scan). */
export const INSERT_COLUMNS = COLUMNS.filter((c) => c !== 'rating' && c !== 'metadata');
/** What a sighting writes: with the rating and metadata read from the version (null: not read). */
export const SIGHTING_COLUMNS = [...INSERT_COLUMNS.filter((c) => c !== 'seq'), 'rating', 'metadata', 'seq'] as const;

export const CHUNK = 256;
/** Chunks of at most CHUNK, each padded (its last item repeated) to 1, 16 or CHUNK items. */
export function chunks<T>(items: readonly T[]): T[][] {
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
export async function rowsOf(q: Queryable, sql: string, params: readonly Param[]): Promise<CatalogueRow[]> {
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

export async function changesSince(q: Queryable, seq: number): Promise<CatalogueChanges> {
  const rows = await rowsOf(q, `${SELECT} WHERE seq > ? ORDER BY seq`, [seq]);
  return { rows, seq: rows.length > 0 ? (rows[rows.length - 1] as CatalogueRow).seq : seq };
}
