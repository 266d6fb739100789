/**
 * The three-way comparison of one read of the sheet (docs/mirror.md): per row, the sheet's
 * cells, the record's order and the cells the mirror last wrote (its base). Pure: it decides,
 * inbound.ts applies. Per editable cell: sheet = base is no hand edit; sheet ≠ base with
 * record = base is a hand edit, applied through the API's rules; sheet = record is the same
 * change on both sides; anything else is a conflict the service's value wins, reported.
 */
import type { OrderRecord } from '../../domain/order.js';
import { parseOrderNumber } from '../../domain/order.js';
import { newId } from '../../lib/ids.js';
import type { MirrorCells, MirrorProblem, MirrorRow } from '../store/ports/mirror.js';
import { type ColumnKey, EDITABLE_COLUMNS, type RowCells } from './sheets/layout.js';
import type { TabRow } from './sheets/order-tab.js';
import { toCells } from './sheets/row-cells.js';
import { parseRow } from './sheets/row-read.js';

export type Conflict = { key: ColumnKey; sheet: string; service: string };

/** A known row to act on: hand-edited keys to apply, and the base the row gets. */
export type RowDecision = {
  order: OrderRecord;
  row: number;
  sheet: RowCells;
  handKeys: ColumnKey[];
  conflicts: Conflict[];
  base: MirrorCells;
};

export type ImportCandidate = {
  order: OrderRecord;
  prefix: string;
  seq: number;
  row: number;
  /** What the sheet holds (column R empty for a row typed in without an id). */
  cells: RowCells;
};

export type Reconciled = {
  /** Rows with something to apply or a base to move. */
  decisions: RowDecision[];
  /** Rows of orders the record has but the mirror has no row for (written before a crash): taken as written. */
  adopt: { orderId: string; row: number; cells: RowCells }[];
  imports: ImportCandidate[];
  /** Where each known order is now (for the writes that follow). */
  rowOf: Map<string, number>;
  /** Orders whose row was written and is not in the sheet (`newly`: not known as removed before). */
  removed: { order: OrderRecord; written: MirrorRow; newly: boolean }[];
  /** Rows that are unreadable or repeat an id: reported, never rewritten. */
  problems: MirrorProblem[];
};

const problem = (
  kind: MirrorProblem['kind'],
  row: number,
  message: string,
  order?: { id: string; orderNumber: string } | null,
  at = new Date().toISOString(),
): MirrorProblem => ({
  kind,
  orderId: order?.id ?? null,
  orderNumber: order?.orderNumber ?? null,
  sheetRow: row,
  message,
  at,
});

/** Decides what one read of the sheet means; `orders` is every order of the record, by id. */
export function reconcile(
  rows: readonly TabRow[],
  orders: ReadonlyMap<string, OrderRecord>,
  mirrored: ReadonlyMap<string, MirrorRow>,
): Reconciled {
  const out: Reconciled = { decisions: [], adopt: [], imports: [], rowOf: new Map(), removed: [], problems: [] };
  const numbers = new Set([...orders.values()].map((o) => o.orderNumber));
  for (const { row, cells } of rows) {
    const id = cells.id.trim().toLowerCase();
    const known = id ? orders.get(id) : undefined;
    if (known) {
      if (out.rowOf.has(id)) {
        out.problems.push(
          problem(
            'duplicate',
            row,
            `Row ${row} repeats order ${known.orderNumber} (row ${out.rowOf.get(id)} counts)`,
            known,
          ),
        );
        continue;
      }
      out.rowOf.set(id, row);
      const written = mirrored.get(id);
      if (!written || written.removed) out.adopt.push({ orderId: id, row, cells });
      else {
        const decision = compare(known, row, cells, written);
        if (decision) out.decisions.push(decision);
      }
      continue;
    }
    const candidate = importable(row, cells, id);
    if (!candidate.ok) out.problems.push(problem('unreadable', row, `Row ${row} cannot be read: ${candidate.reason}`));
    else if (numbers.has(candidate.value.order.orderNumber)) {
      out.problems.push(
        problem(
          'duplicate',
          row,
          `Row ${row} holds order number ${candidate.value.order.orderNumber}, which another order of the record has; not imported`,
        ),
      );
    } else {
      numbers.add(candidate.value.order.orderNumber);
      out.imports.push(candidate.value);
    }
  }
  for (const [id, written] of mirrored) {
    const order = orders.get(id);
    if (order && !out.rowOf.has(id)) out.removed.push({ order, written, newly: !written.removed });
  }
  return out;
}

function compare(order: OrderRecord, row: number, sheet: RowCells, written: MirrorRow): RowDecision | null {
  const record = toCells(order);
  const base: MirrorCells = { ...written.cells };
  const handKeys: ColumnKey[] = [];
  const conflicts: Conflict[] = [];
  let moved = false;
  for (const key of EDITABLE_COLUMNS) {
    const s = sheet[key];
    const b = written.cells[key] ?? '';
    if (s === b) continue;
    if (record[key] === b) handKeys.push(key);
    else if (s !== record[key]) conflicts.push({ key, sheet: s, service: record[key] });
    base[key] = s;
    moved = true;
  }
  if (!moved) return null;
  return { order, row, sheet, handKeys, conflicts, base };
}

function importable(
  row: number,
  cells: RowCells,
  id: string,
): { ok: true; value: ImportCandidate } | { ok: false; reason: string } {
  const parsed = parseRow({ ...cells, id: id || newId() });
  if (!parsed.ok) return parsed;
  const n = parseOrderNumber(parsed.order.orderNumber);
  if (!n) return { ok: false, reason: `order number "${parsed.order.orderNumber}" is not in the form PREFIX-0001` };
  const order: OrderRecord = {
    ...parsed.order,
    history: [{ at: parsed.order.createdAt, action: 'create', to: parsed.order.status, by: 'sheet' }],
  };
  return { ok: true, value: { order, prefix: n.prefix, seq: n.sequence, row, cells } };
}
