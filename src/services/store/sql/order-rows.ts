/**
 * An order as a row of table `orders`, and back. The columns come from the record's field
 * table (src/domain/order-fields.ts), compiled once when the module loads; every row read is
 * parsed with `OrderRecord`. Beside the record's fields: `pk` (newest first is pk descending)
 * and `prefix` and `seq`, the order number's parts (unique together).
 */
import { digitalOnly, type OrderRecord, OrderRecord as OrderSchema } from '../../../domain/order.js';
import { ORDER_FIELD_NAMES, ORDER_FIELDS, type OrderField } from '../../../domain/order-fields.js';
import type { Param, Row } from './db.js';
import { type Column, column, tableOf } from './record-table.js';

/**
 * Digital orders in the table. The columns' CHECKs know `ship` and `pickup` (fulfilment) and
 * `ship`, `shipped`, `pickup` (shipping status); SQLite can't widen a CHECK without rebuilding
 * the table. An order is digital exactly when every line is a digital file, so it is stored as
 * one that is never shipped (`pickup` in both, no pickup status) and read back as `digital`
 * from its lines: orders taken before digital orders existed read as digital too.
 */
const stored = (value: string) => (value === 'digital' ? 'pickup' : value);

const COLUMNS: readonly Column<OrderField>[] = ORDER_FIELD_NAMES.map((field) => {
  const { column: name, storage, schema } = ORDER_FIELDS[field];
  const c = column(field, name, storage, schema.safeParse(null).success);
  const digitalAware = field === 'fulfillmentType' || field === 'shippingStatus';
  return digitalAware ? { ...c, write: (v: unknown) => stored(v as string) } : c;
});

/** An order read is its columns, with a digital order's fulfilment and shipping read from its lines. */
const ORDERS = tableOf('orders', COLUMNS, (o) => OrderSchema.parse(o), {
  derive(o) {
    if (Array.isArray(o.items) && digitalOnly(o.items as { size: string }[])) {
      o.fulfillmentType = 'digital';
      o.shippingStatus = 'digital';
      o.pickupStatus = null;
    }
  },
});

/** The columns an INSERT writes, in `insertValues` order: the record's, then the number's parts. */
export const INSERT_COLUMNS: readonly string[] = [...ORDERS.names, 'prefix', 'seq'];

/** What a SELECT reads: every column of the record, and pk. */
export const SELECT_COLUMNS = `pk, ${ORDERS.select}`;

export const insertValues = (o: OrderRecord, prefix: string, seq: number): Param[] => ORDERS.values(o, prefix, seq);

export const rowToOrder = (r: Row): OrderRecord => ORDERS.toRecord(r);

/** What a change writes (every field `written: 'change'`); the lines and amounts only a lines edit does. */
const CHANGED = COLUMNS.filter((c) => ORDER_FIELDS[c.field].written === 'change');
const LINES = COLUMNS.filter((c) => ORDER_FIELDS[c.field].written === 'lines');

/**
 * Writes what a change may change, with the new version, if the row still has the version the
 * change was made from (the transaction's row lock makes that certain; this makes it checked).
 */
export const UPDATE_SQL = `UPDATE orders SET ${CHANGED.map((c) => `${c.column} = ?`).join(', ')}
  WHERE id = ? AND version = ?`;

export function updateValues(o: OrderRecord, fromVersion: number): Param[] {
  const values: Param[] = new Array(CHANGED.length + 2);
  for (let i = 0; i < CHANGED.length; i++) {
    const c = CHANGED[i] as Column<OrderField>;
    values[i] = c.write(o[c.field]);
  }
  values[CHANGED.length] = o.id;
  values[CHANGED.length + 1] = fromVersion;
  return values;
}

/** A hand edit of the sheet's lines (column K) changes the lines and the amounts, which UPDATE_SQL leaves alone. */
export const UPDATE_LINES_SQL = `UPDATE orders SET ${LINES.map((c) => `${c.column} = ?`).join(', ')} WHERE id = ?`;

export function updateLinesValues(o: OrderRecord): Param[] {
  return [...LINES.map((c) => c.write(o[c.field])), o.id];
}
