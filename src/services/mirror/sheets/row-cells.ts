/**
 * An order as the cells of its row in the Orders tab (the columns: layout.ts). Rows are
 * written as text only (`valueInputOption=RAW`): money is "$12.50" text, the lines both as
 * text (K) and JSON (Z), flags TRUE/FALSE. What each column shows, and how, is the order's
 * field table's (src/domain/order-fields.ts); the texts are the API's (src/domain/order-text.ts).
 */

import type { OrderRecord } from '../../../domain/order.js';
import type { CellText } from '../../../domain/order-fields.js';
import { SHEET_COLUMNS } from '../../../domain/order-fields.js';
import { orderCellText } from '../../../domain/order-text.js';
import { type ColumnKey, ORDER_COLUMNS, type RowCells } from './layout.js';

const CELLS: readonly { header: ColumnKey; field: keyof OrderRecord; text: CellText }[] = SHEET_COLUMNS;

/** The cells of an order as written. */
export function toCells(o: OrderRecord): RowCells {
  const cells = {} as RowCells;
  for (const c of CELLS) cells[c.header] = orderCellText(c.text, o[c.field], o);
  return cells;
}

/** Keys whose cells differ between two versions of an order: what an update must write. */
export function changedKeys(before: OrderRecord, after: OrderRecord): ColumnKey[] {
  const a = toCells(before);
  const b = toCells(after);
  return ORDER_COLUMNS.filter((k) => a[k] !== b[k]);
}
