/**
 * What an admin's change to an order sets off, on top of the store's atomic checks
 * (docs/contract.md, "Status and shipping", "Fulfilment"); routes call it via changes-plugin.ts.
 * - The store re-checks the rules in its transaction; they are checked here first too, so a
 *   refused change is refused before the (possibly remote) address check runs.
 * - Held orders are in no admin list, so a change would leave them invisible: 409 ORDER_HELD.
 * - Voiding an order paid online refunds it first; if that fails it stays paid (503).
 * - Mail a change causes is queued in the same store transaction as the change.
 * - A request that changes nothing notifies nobody.
 */
import {
  type Actor,
  type EditableFields,
  fulfilmentOf,
  type OrderRecord,
  type OrderStatus,
  type PickupStatus,
} from '../../domain/order.js';
import { checkEditable, checkStatusChange } from '../../domain/transitions.js';
import { appError } from '../../errors/catalogue.js';
import type { AddressVerifier } from '../address/types.js';
import { paidJobs, readyJob, shippedJob } from '../notifier/jobs.js';
import type { Notifier } from '../notifier/types.js';
import type { Payments } from '../payments/plugin.js';
import type { Printing } from '../printing/types.js';
import type { PushNotifier } from '../push/types.js';
import type { OrderPatch, OrdersPort, ShippingPatch } from '../store/ports/orders.js';
import { loadOrder } from './load-order.js';

export type ChangeDeps = {
  orders: Pick<OrdersPort, 'get' | 'update' | 'setShipping' | 'setPickup'>;
  push: Pick<PushNotifier, 'notifyOrder'>;
  notifier: Pick<Notifier, 'kick'>;
  addressVerifier: AddressVerifier;
  payments: Pick<Payments, 'refundBeforeVoid'>;
  /** A pickup order marked paid may be printed at once (auto-print, docs/contract.md, "Printing at the booth"). */
  printing: Pick<Printing, 'orderPaid'>;
};

export type ChangeResult = { order: OrderRecord; changed: boolean; message: string };

const ADDRESS_FIELDS = ['fulfillmentType', 'shippingAddress', 'city', 'state', 'zipCode'] as const;

function refuseHeld(order: OrderRecord): void {
  if (order.held) {
    throw appError('ORDER_HELD', {
      message: `Order ${order.orderNumber} is waiting for the customer to confirm it by email`,
      details: { orderNumber: order.orderNumber, holdExpiresAt: order.holdExpiresAt },
    });
  }
}

/** The address part of an edit: checked, standardised, and flagged like a new order. */
async function addressEdit(
  verifier: AddressVerifier,
  order: OrderRecord,
  fields: Partial<EditableFields>,
): Promise<OrderPatch['fields']> {
  if (!ADDRESS_FIELDS.some((k) => fields[k] !== undefined)) return fields;
  const merged = { ...order, ...fields };
  // Only an order that ships has its address checked (digital files alone never ship).
  if (fulfilmentOf(order.items, merged.fulfillmentType) !== 'ship') return { ...fields, addressVerified: null };
  const missing = (['shippingAddress', 'city', 'state', 'zipCode'] as const).filter((k) => merged[k] === '');
  if (missing.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: 'An order that ships needs a street address, city, state and ZIP code',
      details: missing.map((field) => ({ in: 'body', field, message: 'required when the order ships' })),
    });
  }
  const check = await verifier.verify({
    line1: merged.shippingAddress,
    city: merged.city,
    state: merged.state,
    zip: merged.zipCode,
  });
  if (check.status === 'invalid') {
    throw appError('ADDRESS_INVALID', { details: { reason: check.reason, field: check.field ?? null } });
  }
  if (check.status === 'valid') {
    return {
      ...fields,
      shippingAddress: check.address.line1,
      city: check.address.city,
      state: check.address.state,
      zipCode: check.address.zip,
      addressVerified: true,
    };
  }
  return { ...fields, addressVerified: verifier.name === 'off' ? null : false };
}

/** PUT /api/orders/{id} and update-status: a status move and/or field edits. */
export async function changeOrder(
  deps: ChangeDeps,
  ref: string,
  change: { status?: OrderStatus | undefined; fields: Partial<EditableFields> },
  by: Actor,
): Promise<ChangeResult> {
  const current = await loadOrder(deps.orders, ref);
  refuseHeld(current);
  // The store's rules, in its order, before anything slow: transition first, then the edit rule.
  if (change.status !== undefined) checkStatusChange(current, change.status, new Date(), by);
  checkEditable(current, change.fields);
  const fields = await addressEdit(deps.addressVerifier, current, change.fields);
  const patch: OrderPatch = {};
  if (change.status !== undefined) patch.status = change.status;
  if (fields && Object.keys(fields).length > 0) patch.fields = fields;
  if (change.status === 'void') await deps.payments.refundBeforeVoid(current);
  const mail = change.status === 'paid' && current.status !== 'paid' ? paidJobs(current) : [];
  const result = await deps.orders.update(current.id, patch, { by, mail });
  const order = result.order;
  const statusMoved = result.changed && change.status !== undefined && order.status !== current.status;
  if (statusMoved) deps.push.notifyOrder('status', order);
  if (statusMoved && order.status === 'paid') deps.printing.orderPaid(order);
  if (result.changed && mail.length > 0) deps.notifier.kick();
  const n = order.orderNumber;
  const message = !result.changed
    ? `Order ${n} is already ${change.status !== undefined ? order.status : 'like that'}; nothing changed`
    : statusMoved
      ? `Order ${n} is now ${order.status}`
      : `Order ${n} updated`;
  return { order, changed: result.changed, message };
}

/** update-shipping: `shipped: true` / a tracking number marks shipped; `shipped: false` undoes it. */
export async function changeShipping(
  deps: ChangeDeps,
  ref: string,
  body: { shipped?: boolean | undefined; trackingNumber?: string | undefined; printAll?: boolean | undefined },
  by: Actor,
): Promise<ChangeResult> {
  const current = await loadOrder(deps.orders, ref);
  const shipped = body.shipped ?? true;
  const patch: ShippingPatch = { shipped, printAll: body.printAll };
  if (body.trackingNumber !== undefined) patch.trackingNumber = body.trackingNumber;
  // The store enqueues the mail only if the order really changed, in the same transaction.
  const mail = shipped ? [shippedJob(current.id)] : [];
  const result = await deps.orders.setShipping(current.id, patch, { by, mail });
  const order = result.order;
  if (result.changed) {
    deps.push.notifyOrder('shipping', order);
    if (mail.length > 0) deps.notifier.kick();
  }
  const n = order.orderNumber;
  const tracking = order.trackingNumber ? ` (tracking ${order.trackingNumber})` : '';
  const message = !result.changed
    ? `Order ${n} was already ${shipped ? `marked shipped${tracking}` : 'not shipped'}; nothing changed`
    : shipped
      ? `Order ${n} marked shipped${tracking}; the customer is notified`
      : `Order ${n} is no longer marked shipped`;
  return { order, changed: result.changed, message };
}

const PICKUP_MESSAGES = {
  waiting: 'is waiting to be prepared again',
  ready: 'is ready for pickup; the customer is notified',
  collected: 'was collected',
} as const;

/** The pickup route: a paid pickup order's booth status; `printAll` marks its prints printed with it. */
export async function changePickup(
  deps: ChangeDeps,
  ref: string,
  body: { status: PickupStatus; printAll?: boolean | undefined },
  by: Actor,
): Promise<ChangeResult> {
  const current = await loadOrder(deps.orders, ref);
  const { status, printAll } = body;
  const mail = status === 'ready' ? [readyJob(current.id)] : [];
  const result = await deps.orders.setPickup(current.id, status, { by, mail }, printAll);
  if (result.changed) {
    deps.push.notifyOrder('pickup', result.order);
    if (mail.length > 0) deps.notifier.kick();
  }
  const n = result.order.orderNumber;
  const message = result.changed
    ? `Order ${n} ${PICKUP_MESSAGES[status]}`
    : `Order ${n} is already ${status}; nothing changed`;
  return { order: result.order, changed: result.changed, message };
}
