/**
 * The outbound pass: orders new or changed since the mirror last wrote them go to the sheet,
 * new ones in one `values.append` (in number order), changed ones in one
 * `values.batchUpdate` writing only the cells that differ from what was written. What was
 * written is recorded per order (ports/mirror.ts) after the call succeeds; a crash in between
 * is caught by the next read, which finds the rows by column R (reconcile.ts).
 */
import type { MirrorPort, PendingOrder } from '../store/ports/mirror.js';
import { type ColumnKey, ORDER_COLUMNS } from './sheets/layout.js';
import type { CellWrite, OrderTab } from './sheets/order-tab.js';
import { toCells } from './sheets/row-cells.js';

export type OutboundResult = { appended: number; updated: number };

/**
 * Writes `pending`. Changed orders need `rowOf` (where each order's row is now, from a read
 * made just before); without it only new orders are written.
 */
export async function writePending(
  tab: OrderTab,
  mirror: MirrorPort,
  pending: readonly PendingOrder[],
  rowOf: ReadonlyMap<string, number> | null,
): Promise<OutboundResult> {
  const fresh = pending.filter((p) => !p.written);
  const changed = rowOf ? pending.filter((p) => p.written && rowOf.has(p.order.id)) : [];
  let appended = 0;
  if (fresh.length > 0) {
    const cells = fresh.map((p) => toCells(p.order));
    const placed = await tab.append(cells);
    const written = fresh
      .map((p, i) => ({ p, cells: cells[i] as ReturnType<typeof toCells>, row: placed.get(p.order.id) }))
      .filter((w) => w.row !== undefined)
      .map((w) => ({
        orderId: w.p.order.id,
        version: w.p.order.version,
        cells: w.cells,
        sheetRow: w.row ?? null,
        removed: false,
      }));
    await mirror.recordWritten(written);
    appended = written.length;
  }
  if (changed.length > 0 && rowOf) {
    const writes: CellWrite[] = [];
    for (const p of changed) {
      const cells = toCells(p.order);
      const base = p.written?.cells ?? {};
      const keys: ColumnKey[] = ORDER_COLUMNS.filter((k) => cells[k] !== (base[k] ?? ''));
      if (keys.length > 0) writes.push({ row: rowOf.get(p.order.id) as number, keys, cells });
    }
    await tab.write(writes);
    await mirror.recordWritten(
      changed.map((p) => ({
        orderId: p.order.id,
        version: p.order.version,
        cells: toCells(p.order),
        sheetRow: rowOf.get(p.order.id) ?? null,
        removed: false,
      })),
    );
  }
  return { appended, updated: changed.length };
}
