/**
 * The inbound pass: one read of the sheet, compared three ways (reconcile.ts), and applied:
 * orders the record doesn't know are imported, hand edits go through the API's rules
 * (hand-edit.ts) and a refused one is reported and undone in the sheet, conflicts are
 * reported (the service's value is written back by the outbound pass), rows removed by hand
 * and unreadable rows are reported. Returns where each order's row is, for the writes after.
 */
import type { OrderRecord } from '../../domain/order.js';
import { isAppError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { MirrorPort, MirrorProblem } from '../store/ports/mirror.js';
import type { OrdersPort } from '../store/ports/orders.js';
import { handEdit } from './hand-edit.js';
import { reconcile } from './reconcile.js';
import type { OrderTab } from './sheets/order-tab.js';

export type InboundResult = {
  rowOf: Map<string, number>;
  imported: number;
  edited: number;
  rejected: number;
  conflicts: number;
};

const event = (
  kind: MirrorProblem['kind'],
  order: OrderRecord,
  row: number | null,
  message: string,
): MirrorProblem => ({
  kind,
  orderId: order.id,
  orderNumber: order.orderNumber,
  sheetRow: row,
  message,
  at: new Date().toISOString(),
});

export async function readAndApply(
  tab: OrderTab,
  store: { mirror: MirrorPort; orders: OrdersPort },
  log: Logger,
): Promise<InboundResult> {
  const { mirror } = store;
  const rows = await tab.readAll();
  const orders = new Map((await store.orders.list({ includeHeld: true })).map((o) => [o.id, o]));
  const r = reconcile(rows, orders, await mirror.rows());
  const result: InboundResult = { rowOf: r.rowOf, imported: 0, edited: 0, rejected: 0, conflicts: 0 };
  const events: MirrorProblem[] = [];
  const snapshot: MirrorProblem[] = [...r.problems];

  if (r.imports.length > 0) {
    const { imported, skipped } = await mirror.importOrders(
      r.imports.map((c) => ({ order: c.order, prefix: c.prefix, seq: c.seq, cells: c.cells, sheetRow: c.row })),
    );
    for (const c of r.imports) if (imported.some((o) => o.id === c.order.id)) r.rowOf.set(c.order.id, c.row);
    for (const s of skipped) {
      snapshot.push(
        event('duplicate', s.row.order, s.row.sheetRow, `Row ${s.row.sheetRow} was not imported: ${s.reason}`),
      );
    }
    result.imported = imported.length;
    if (imported.length > 0) log.info({ imported: imported.length }, 'mirror: orders imported from the sheet');
  }

  await mirror.recordWritten(
    r.adopt.map((a) => ({ orderId: a.orderId, version: 0, cells: a.cells, sheetRow: a.row, removed: false })),
  );

  for (const d of r.decisions) {
    const { order, row } = d;
    const forceWrite = { orderId: order.id, version: 0, cells: d.base, sheetRow: row, removed: false };
    if (d.handKeys.length > 0) {
      try {
        const applied = await mirror.applyEdit(order.id, handEdit(d.handKeys, d.sheet, new Date()), d.base);
        if (applied.changed) result.edited += 1;
        if (d.conflicts.length > 0) await mirror.recordWritten([forceWrite]);
      } catch (err) {
        if (!isAppError(err) || err.code === 'STORE_UNAVAILABLE' || err.code === 'INTERNAL') throw err;
        // Refused: nothing of the row applied; the record's values are written back.
        await mirror.recordWritten([forceWrite]);
        result.rejected += 1;
        const message = `${order.orderNumber}: the edit of ${d.handKeys.join(', ')} in row ${row} was not applied (${err.message}); the order's values were written back`;
        log.warn({ orderNumber: order.orderNumber, row, keys: d.handKeys, code: err.code }, `mirror: ${message}`);
        events.push(event('rejected', order, row, message));
      }
    } else await mirror.recordWritten([forceWrite]);
    for (const c of d.conflicts) {
      const message = `${order.orderNumber}: ${c.key} was changed in the sheet to "${c.sheet.slice(0, 80)}" and through the service to "${c.service.slice(0, 80)}"; the service's value was kept and written back`;
      log.warn({ orderNumber: order.orderNumber, row, key: c.key }, `mirror: conflict: ${message}`);
      events.push(event('conflict', order, row, message));
      result.conflicts += 1;
    }
  }

  const newlyRemoved = r.removed.filter((x) => x.newly);
  await mirror.recordWritten(newlyRemoved.map((x) => ({ ...x.written, removed: true })));
  for (const x of r.removed) {
    const message = `${x.order.orderNumber}'s row was removed from the sheet; the order is kept and will not be written again`;
    if (x.newly) log.warn({ orderNumber: x.order.orderNumber }, `mirror: ${message}`);
    snapshot.push(event('removed', x.order, x.written.sheetRow, message));
  }
  for (const p of r.problems) log.warn({ row: p.sheetRow, kind: p.kind }, `mirror: ${p.message}`);
  await mirror.replaceSnapshotProblems(snapshot);
  await mirror.addEvents(events);
  return result;
}
