/**
 * The spreadsheet mirror's records on either engine (ports/mirror.ts): tables `mirror_rows`,
 * `mirror_state` and `mirror_problems`, and the two order writes the mirror makes (imports
 * and hand edits), each in one transaction with its mirror row.
 *
 * The mirror's own bookkeeping (rows written, state, problems) commits `relaxed`: after a
 * power cut the worker's first pass reads the sheet and finds by column R what it had
 * written, so a lost mark never writes a row twice.
 */
import type { OrderRecord } from '../../../domain/order.js';
import { type Applied, releasesCoupon } from '../../../domain/order-changes.js';
import { orderNotFound } from '../errors.js';
import {
  type ImportRow,
  MAX_EVENT_PROBLEMS,
  MirrorCells,
  type MirrorPort,
  MirrorProblem,
  MirrorRow,
  MirrorState,
  type PendingOrder,
  SNAPSHOT_KINDS,
} from '../ports/mirror.js';
import { SqlCoupons } from './coupons.js';
import type { Db, Param, Queryable, Row } from './db.js';
import {
  INSERT_COLUMNS,
  insertValues,
  rowToOrder,
  SELECT_COLUMNS,
  UPDATE_LINES_SQL,
  UPDATE_SQL,
  updateLinesValues,
  updateValues,
} from './order-rows.js';
import { recordTable } from './record-table.js';
import { placeholders } from './values.js';

/** The order's columns, qualified (the join with mirror_rows shares `version`). */
const ORDER_COLUMNS = SELECT_COLUMNS.split(', ')
  .map((c) => `o.${c}`)
  .join(', ');
const PENDING_FROM = `FROM orders o LEFT JOIN mirror_rows m ON m.order_id = o.id
  WHERE m.order_id IS NULL OR (m.removed = FALSE AND m.version < o.version)`;
export const MIRROR_ROWS = recordTable('mirror_rows', MirrorRow);
/** The state's one row (`id` 1) and the problems (`pk`: newest first) have a column of their own beside the record's. */
export const MIRROR_STATE = recordTable('mirror_state', MirrorState);
export const MIRROR_PROBLEMS = recordTable('mirror_problems', MirrorProblem);
const INSERT_PROBLEM = MIRROR_PROBLEMS.insertSql();
/** Each state field's column, for the UPDATE of a patch. */
const STATE_COLUMN = new Map(MIRROR_STATE.columns.map((c) => [c.field, c.column]));
const UPSERT_ROW = MIRROR_ROWS.insertSql(
  [],
  `ON CONFLICT (order_id) DO UPDATE SET version = excluded.version, cells = excluded.cells,
  sheet_row = excluded.sheet_row, removed = excluded.removed, written_at = excluded.written_at`,
);
/** The mirror row's columns in the join with its order, each as `m_<column>`. */
const JOINED_ROW = MIRROR_ROWS.names.map((c) => `m.${c} AS m_${c}`).join(', ');
const joinedRow = (r: Row): MirrorRow =>
  MIRROR_ROWS.toRecord(Object.fromEntries(MIRROR_ROWS.names.map((c) => [c, r[`m_${c}`]])));

const rowParams = (r: Omit<MirrorRow, 'writtenAt'>, at: string): Param[] => MIRROR_ROWS.values({ ...r, writtenAt: at });

export class SqlMirror implements MirrorPort {
  constructor(private readonly db: Db) {}

  async pending(limit: number): Promise<PendingOrder[]> {
    const rows = await this.db.all(
      `SELECT ${ORDER_COLUMNS}, ${JOINED_ROW} ${PENDING_FROM} ORDER BY o.prefix, o.seq LIMIT ?`,
      [limit],
    );
    return rows.map((r) => ({ order: rowToOrder(r), written: r.m_order_id ? joinedRow(r) : null }));
  }

  async pendingCount(): Promise<number> {
    const row = await this.db.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n ${PENDING_FROM}`);
    return Number(row?.n ?? 0);
  }

  async rows(): Promise<Map<string, MirrorRow>> {
    const rows = (await this.db.all(`SELECT ${MIRROR_ROWS.select} FROM mirror_rows`)).map(MIRROR_ROWS.toRecord);
    return new Map(rows.map((r) => [r.orderId, r]));
  }

  async recordWritten(rows: readonly Omit<MirrorRow, 'writtenAt'>[]): Promise<void> {
    if (rows.length === 0) return;
    const at = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      for (const r of rows) await tx.run(UPSERT_ROW, rowParams(r, at));
    }, 'relaxed');
  }

  importOrders(rows: readonly ImportRow[]) {
    const at = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      const imported: OrderRecord[] = [];
      const skipped: { row: ImportRow; reason: string }[] = [];
      for (const row of rows) {
        // The numbering lock: a create of the same prefix waits, then numbers after these.
        await tx.lock(`order-number:${row.prefix}`);
        const taken = await tx.get<{ id: string; order_number: string }>(
          'SELECT id, order_number FROM orders WHERE id = ? OR (prefix = ? AND seq = ?)',
          [row.order.id, row.prefix, row.seq],
        );
        if (taken) {
          skipped.push({
            row,
            reason:
              taken.id === row.order.id
                ? `its id is order ${taken.order_number}'s`
                : `order number ${row.order.orderNumber} belongs to another order in the record`,
          });
          continue;
        }
        await tx.insert('orders', INSERT_COLUMNS, [insertValues(row.order, row.prefix, row.seq)]);
        await tx.run(
          UPSERT_ROW,
          rowParams(
            { orderId: row.order.id, version: 0, cells: row.cells, sheetRow: row.sheetRow, removed: false },
            at,
          ),
        );
        imported.push(row.order);
      }
      return { imported, skipped };
    });
  }

  applyEdit(orderId: string, apply: (order: OrderRecord) => Applied, cells: MirrorCells): Promise<Applied> {
    const at = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      const row = await tx.get(`SELECT ${SELECT_COLUMNS} FROM orders WHERE id = ?${this.db.dialect.forUpdate}`, [
        orderId,
      ]);
      if (!row) throw orderNotFound(orderId);
      const current = rowToOrder(row);
      const applied = apply(current);
      if (applied.changed) {
        const o = applied.order;
        if ((await tx.run(UPDATE_SQL, updateValues(o, current.version))) !== 1) {
          throw new Error(`order ${o.orderNumber} changed under its lock`);
        }
        if (o.subtotalCents !== current.subtotalCents || JSON.stringify(o.items) !== JSON.stringify(current.items)) {
          await tx.run(UPDATE_LINES_SQL, updateLinesValues(o));
        }
        // A hand cancel or void gives the coupon's use back, as the API's does (docs/contract.md, "Selling").
        if (releasesCoupon(current, o)) await SqlCoupons.giveBack(tx, o.couponCode as string);
      }
      await this.rebase(tx, orderId, cells, at);
      return applied;
    });
  }

  /** The mirror row's base cells become `cells`; its version is kept (the new order version is pending). */
  private async rebase(tx: Queryable, orderId: string, cells: MirrorCells, at: string): Promise<void> {
    const changed = await tx.run('UPDATE mirror_rows SET cells = ?, written_at = ? WHERE order_id = ?', [
      JSON.stringify(MirrorCells.parse(cells)),
      at,
      orderId,
    ]);
    if (changed === 0) {
      await tx.run(UPSERT_ROW, rowParams({ orderId, version: 0, cells, sheetRow: null, removed: false }, at));
    }
  }

  async state(): Promise<MirrorState> {
    return MIRROR_STATE.toRecord((await this.db.get(`SELECT ${MIRROR_STATE.select} FROM mirror_state`)) ?? {});
  }

  async setState(patch: Partial<MirrorState>): Promise<void> {
    const keys = (Object.keys(patch) as (keyof MirrorState)[]).filter((k) => patch[k] !== undefined);
    if (keys.length === 0) return;
    const sets = keys.map((k) => `${STATE_COLUMN.get(k)} = ?`).join(', ');
    await this.db.transaction(
      (tx) =>
        tx.run(
          `UPDATE mirror_state SET ${sets} WHERE id = 1`,
          keys.map((k) => patch[k] ?? null),
        ),
      'relaxed',
    );
  }

  async problems(): Promise<MirrorProblem[]> {
    const rows = await this.db.all(`SELECT ${MIRROR_PROBLEMS.select} FROM mirror_problems ORDER BY pk DESC`);
    return rows.map(MIRROR_PROBLEMS.toRecord);
  }

  async replaceSnapshotProblems(problems: readonly MirrorProblem[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM mirror_problems WHERE kind IN (${placeholders(SNAPSHOT_KINDS.length)})`, [
        ...SNAPSHOT_KINDS,
      ]);
      await this.insertProblems(tx, problems);
    }, 'relaxed');
  }

  async addEvents(problems: readonly MirrorProblem[]): Promise<void> {
    if (problems.length === 0) return;
    const kinds = `kind NOT IN (${placeholders(SNAPSHOT_KINDS.length)})`;
    await this.db.transaction(async (tx) => {
      await this.insertProblems(tx, problems);
      await tx.run(
        `DELETE FROM mirror_problems WHERE ${kinds} AND pk NOT IN
          (SELECT pk FROM mirror_problems WHERE ${kinds} ORDER BY pk DESC LIMIT ?)`,
        [...SNAPSHOT_KINDS, ...SNAPSHOT_KINDS, MAX_EVENT_PROBLEMS],
      );
    }, 'relaxed');
  }

  private async insertProblems(tx: Queryable, problems: readonly MirrorProblem[]): Promise<void> {
    for (const p of problems) await tx.run(INSERT_PROBLEM, MIRROR_PROBLEMS.values(p));
  }

  changeMarker(): Promise<string> {
    return this.db.changeMarker();
  }
}
