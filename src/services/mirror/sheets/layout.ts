/**
 * The Orders tab's columns (docs/google-sheets.md, docs/mirror.md): which column holds what,
 * and where each one is in a sheet; the columns themselves are src/domain/order-fields.ts's.
 * Columns are found by their header text (case, spaces and punctuation ignored), so an
 * operator may move columns or add their own; missing ones are added at the end.
 */
import {
  type ColumnKey,
  type EditableColumn,
  type FieldColumn,
  type HandEdit,
  SHEET_COLUMNS,
} from '../../../domain/order-fields.js';
import { columnLetter } from './a1.js';

export type { ColumnKey, EditableColumn };

/** Every column, in the standard layout's order (A, B, ...). */
export const ORDER_COLUMNS: readonly ColumnKey[] = SHEET_COLUMNS.map((c) => c.header);
export type RowCells = Record<ColumnKey, string>;

// The standard layout is A, B, ... without gaps or repeats (ColumnMap.standard places them so).
SHEET_COLUMNS.forEach((c, i) => {
  if (c.col !== columnLetter(i)) throw new Error(`Orders tab column ${c.header} is ${c.col}, not ${columnLetter(i)}`);
});

/**
 * The columns a hand edit reaches the record from (C–K, O, P, Q, T), and how: through the
 * API's rules for that part of the order (hand-edit.ts). Every other column is the record's:
 * a hand edit there is not read back (docs/mirror.md).
 */
export const HAND_EDITS = Object.fromEntries(
  SHEET_COLUMNS.flatMap((c) => (c.edit ? [[c.header, c.edit]] : [])),
) as Record<EditableColumn, HandEdit>;
export const EDITABLE_COLUMNS = Object.keys(HAND_EDITS) as EditableColumn[];
/** The editable columns that are plain order fields (an address one clears the address check). */
export const FIELD_COLUMNS = EDITABLE_COLUMNS.filter(
  (k): k is FieldColumn => HAND_EDITS[k] === 'field' || HAND_EDITS[k] === 'address',
);
export const ADDRESS_COLUMNS = EDITABLE_COLUMNS.filter((k) => HAND_EDITS[k] === 'address');

/** Header text → comparable key: "Order Number", "order_number", "orderNumber" are one. */
export function headerKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Where each column is (0-based), after reading or writing the header row. */
export class ColumnMap {
  readonly index: Record<ColumnKey, number>;
  /** First and last column the adapter owns: the span it reads and appends. */
  readonly first: number;
  readonly last: number;

  constructor(index: Record<ColumnKey, number>) {
    this.index = index;
    const all = Object.values(index);
    this.first = Math.min(...all);
    this.last = Math.max(...all);
  }

  /** The standard layout: each column at its letter. */
  static standard(): ColumnMap {
    return new ColumnMap(Object.fromEntries(ORDER_COLUMNS.map((k, i) => [k, i])) as Record<ColumnKey, number>);
  }

  /**
   * Maps an existing header row. Columns it lacks are placed after its last non-empty
   * cell; `added` lists them so the caller can write their header cells.
   */
  static fromHeader(header: readonly string[]): { map: ColumnMap; added: { key: ColumnKey; index: number }[] } {
    const found = new Map<string, number>();
    header.forEach((text, i) => {
      const k = headerKey(String(text));
      if (k && !found.has(k)) found.set(k, i);
    });
    let next = header.reduce((last, text, i) => (String(text).trim() ? i : last), -1) + 1;
    const index = {} as Record<ColumnKey, number>;
    const added: { key: ColumnKey; index: number }[] = [];
    for (const key of ORDER_COLUMNS) {
      const at = found.get(headerKey(key));
      if (at !== undefined) index[key] = at;
      else {
        index[key] = next;
        added.push({ key, index: next });
        next += 1;
      }
    }
    return { map: new ColumnMap(index), added };
  }

  /** A row's cells, from the span's first column to its last ('' where not ours). */
  toArray(cells: RowCells): string[] {
    const out = new Array<string>(this.last - this.first + 1).fill('');
    for (const key of ORDER_COLUMNS) out[this.index[key] - this.first] = cells[key];
    return out;
  }

  /** Cells of a row read from the span's first column (missing trailing cells are ''). */
  fromArray(values: readonly unknown[]): RowCells {
    const cells = {} as RowCells;
    for (const key of ORDER_COLUMNS) {
      const v = values[this.index[key] - this.first];
      cells[key] = v === undefined || v === null ? '' : String(v);
    }
    return cells;
  }

  /** Runs of adjacent columns among `keys`: each run is one range to write. */
  runs(keys: readonly ColumnKey[]): { from: number; to: number; keys: ColumnKey[] }[] {
    const sorted = [...keys].sort((a, b) => this.index[a] - this.index[b]);
    const out: { from: number; to: number; keys: ColumnKey[] }[] = [];
    for (const key of sorted) {
      const i = this.index[key];
      const run = out[out.length - 1];
      if (run && run.to === i - 1) {
        run.to = i;
        run.keys.push(key);
      } else out.push({ from: i, to: i, keys: [key] });
    }
    return out;
  }
}
