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
import { recordTable } from './record-table.js';

/** The table: a row as StoredCatalogueRow has it (the facts' columns side by side, all null for none). */
export const PHOTO_CATALOGUE = recordTable('photo_catalogue', StoredCatalogueRow);
export const SELECT = `SELECT ${PHOTO_CATALOGUE.select} FROM photo_catalogue`;
const NO_FACTS = { size: null, mtimeMs: null, width: null, height: null, takenAtMs: null };

/** A row's values for an INSERT of every column (`PHOTO_CATALOGUE.names`): its facts side by side. */
export const catalogueValues = (r: CatalogueRow): Param[] => PHOTO_CATALOGUE.values({ ...r, ...(r.facts ?? NO_FACTS) });

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
 * A row read back as its values (`eachRow`: no object per row from the engine), parsed flat
 * (StoredCatalogueRow: the port's cheaper schema for the same fields), its facts then nested.
 */
const toRow = (v: unknown[]): CatalogueRow => catalogueRowOf(PHOTO_CATALOGUE.fromValues(v));

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
