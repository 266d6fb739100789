/**
 * A hand edit of a row, as a change of the order through the API's rules
 * (src/domain/order-changes.ts, by `sheet`): a status move is checked like update-status, an
 * edit of C–J like `PUT /api/orders/{id}`, shipping status and tracking like update-shipping.
 * A move the rules forbid, or a cell that says nothing the record can hold, throws the same
 * AppError the API answers with; the inbound pass reports it and applies nothing of the row.
 */
import type { OrderRecord } from '../../domain/order.js';
import {
  type Applied,
  applyFeedbackText,
  applyLines,
  applyOrderPatch,
  applyShipping,
  type OrderPatch,
} from '../../domain/order-changes.js';
import { appError } from '../../errors/catalogue.js';
import { ADDRESS_COLUMNS, type ColumnKey, FIELD_COLUMNS, type RowCells } from './sheets/layout.js';
import { readLines, readStatus } from './sheets/row-read.js';

const unreadable = (key: ColumnKey, text: string, expected: string) =>
  appError('VALIDATION_FAILED', {
    message: `${key} "${text.trim().slice(0, 40)}" is not ${expected}`,
    details: { field: key },
  });

/** Chains changes: each sees the order the previous one made. */
function chain(order: OrderRecord, steps: ((o: OrderRecord) => Applied)[]): Applied {
  let current: Applied = { order, changed: false };
  for (const step of steps) {
    const next = step(current.order);
    current = { order: next.order, changed: current.changed || next.changed };
  }
  return current;
}

/** The change that the hand-edited `keys` of `sheet` ask for, to apply to the order as it is now. */
export function handEdit(keys: readonly ColumnKey[], sheet: RowCells, now: Date): (order: OrderRecord) => Applied {
  const edited = new Set(keys);
  return (order) => {
    const patch: OrderPatch = {};
    if (edited.has('status')) {
      patch.status = readStatus(sheet.status) ?? undefined;
      if (!patch.status) throw unreadable('status', sheet.status, 'pending, paid, void or cancelled');
      // Voiding an order paid online refunds it, which only the dashboard and the API do
      // (docs/contract.md, "Online payment"): the sheet can't take the customer's money back.
      if (patch.status === 'void' && order.status === 'paid' && order.payment !== null) {
        throw appError('INVALID_TRANSITION', {
          message: 'An order paid online is voided from the dashboard, which refunds the payment',
          details: { from: order.status, to: 'void' },
        });
      }
    }
    const fields: NonNullable<OrderPatch['fields']> = {};
    for (const key of FIELD_COLUMNS) {
      if (!edited.has(key)) continue;
      const text = sheet[key].trim();
      if (key === 'fulfillmentType') {
        const word = text.toLowerCase();
        if (word !== 'ship' && word !== 'pickup' && word !== 'digital') {
          throw unreadable(key, text, 'ship, pickup or digital');
        }
        fields.fulfillmentType = word;
      } else fields[key] = text;
    }
    // The address check ran on the old address; the new one is not checked.
    if (ADDRESS_COLUMNS.some((k) => edited.has(k))) fields.addressVerified = null;
    if (Object.keys(fields).length > 0) patch.fields = fields;
    const steps: ((o: OrderRecord) => Applied)[] = [(o) => applyOrderPatch(o, patch, now, 'sheet')];
    if (edited.has('shippingStatus') || edited.has('trackingNumber')) {
      steps.push((o) => {
        const word = sheet.shippingStatus.trim().toLowerCase();
        if (edited.has('shippingStatus') && !['ship', 'shipped', 'pickup', 'digital'].includes(word)) {
          throw unreadable('shippingStatus', sheet.shippingStatus, 'ship, shipped, pickup or digital');
        }
        const tracking = edited.has('trackingNumber') ? sheet.trackingNumber.trim() : undefined;
        // A tracking number typed in marks the order shipped, as update-shipping does.
        const shipped = edited.has('shippingStatus')
          ? word === 'shipped'
          : o.shippingStatus === 'shipped' || Boolean(tracking);
        if (!shipped && o.shippingStatus !== 'shipped' && !tracking) return { order: o, changed: false };
        return applyShipping(o, { shipped, trackingNumber: tracking }, now, 'sheet');
      });
    }
    if (edited.has('feedback')) steps.push((o) => applyFeedbackText(o, sheet.feedback, now, 'sheet'));
    if (edited.has('items')) {
      const lines = readLines(sheet);
      if (!lines.ok) throw unreadable('items', sheet.items, `readable lines (${lines.reason})`);
      steps.push((o) => applyLines(o, lines.lines, now, 'sheet'));
    }
    return chain(order, steps);
  };
}
