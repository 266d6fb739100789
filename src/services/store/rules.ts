/**
 * The store logic every adapter shares, as pure functions: building a new record, applying
 * a status/field patch, shipping, feedback and hold release to an order read inside the
 * adapter's transaction (or lock), and turning per-status totals into the SPEC §5 summary.
 * Adapters do the I/O; these decide what the new row is, so every backend behaves alike.
 */
import { setImmediate } from 'node:timers/promises';
import {
  appendFeedbackText,
  EDITABLE_FIELDS,
  formatOrderNumber,
  type NewOrder,
  OrderRecord,
  type OrderStatus,
  type SalesSummaryCents,
} from '../../domain/order.js';
import { checkEditable, checkShippable, checkTransition } from '../../domain/transitions.js';
import { appError } from '../../errors/catalogue.js';
import { newId } from '../../lib/ids.js';
import { MailJob, type MailJobInput, type OrderPatch, type ShippingPatch } from './port.js';

/** Canonical stored form of a timestamp: `toISOString()` (UTC, milliseconds). */
export function isoTime(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

/**
 * How a ref (id or order number) is matched: ids exactly (or lower-cased, as UUIDs are
 * generated lower-case), order numbers case-insensitively (they are stored upper-case).
 */
export function refKeys(ref: string): { id: string; idLower: string; orderNumber: string } {
  const trimmed = ref.trim();
  return { id: trimmed, idLower: trimmed.toLowerCase(), orderNumber: trimmed.toUpperCase() };
}

/** Rows parsed between two yields to the event loop in a long list read: a few milliseconds' work. */
export const LIST_SLICE = 500;

/**
 * `rows.map(parse)` for a long list, yielding to the event loop after every LIST_SLICE rows:
 * parsing 10,000 orders with zod at once would hold every other request for 100 ms or more.
 */
export async function parseInSlices<R, T>(rows: readonly R[], parse: (row: R) => T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += LIST_SLICE) {
    if (i > 0) await setImmediate();
    for (const row of rows.slice(i, i + LIST_SLICE)) out.push(parse(row));
  }
  return out;
}

/** 503 STORE_UNAVAILABLE, telling clients to come back shortly. */
export function storeUnavailable(message: string, cause?: unknown) {
  return appError('STORE_UNAVAILABLE', { message, cause, headers: { 'Retry-After': '5' } });
}

const OUTCOME_UNKNOWN = Symbol('store write outcome unknown');

/**
 * STORE_UNAVAILABLE for a write that may have been committed after all (its commit could not
 * be confirmed on disk). Whoever holds an Idempotency-Key for it must not free the key: a
 * retry would make a second order if the first one survives.
 */
export function outcomeUnknown(message: string, cause?: unknown) {
  return Object.assign(storeUnavailable(message, cause), { [OUTCOME_UNKNOWN]: true });
}

export function isOutcomeUnknown(err: unknown): boolean {
  return typeof err === 'object' && err !== null && OUTCOME_UNKNOWN in err;
}

export function orderNotFound(ref: string) {
  return appError('ORDER_NOT_FOUND', {
    message: `Order ${ref.slice(0, 100)} not found`,
    details: { ref: ref.slice(0, 100) },
  });
}

/** The new order's id: the caller's (NewOrder.id), else a fresh one (lib/ids.ts). */
export function newOrderId(input: NewOrder): string {
  return input.id ?? newId();
}

/**
 * A create whose id an order has already. Ids are UUIDs, so this is a bug in the caller,
 * not something a client can cause or correct: 500. Nothing of the create is written and no
 * order number is used.
 */
export function duplicateOrderId(id: string | undefined, cause?: unknown) {
  return appError('INTERNAL', {
    message: `An order with id ${id ?? '(this id)'} exists already`,
    details: id ? { id } : undefined,
    cause,
  });
}

/**
 * The full record of a new order, given the sequence the adapter assigned. `input` must have
 * been parsed with `NewOrder` (the adapters do): every other field is made here, valid by
 * construction, so this is on the hot path without a second parse.
 */
export function buildNewOrder(input: NewOrder, sequence: number, now: Date, id: string = newId()): OrderRecord {
  const at = now.toISOString();
  return {
    id,
    orderNumber: formatOrderNumber(input.prefix, sequence),
    eventSlug: input.eventSlug,
    createdAt: at,
    updatedAt: at,
    customerName: input.customerName,
    customerEmail: input.customerEmail,
    customerPhone: input.customerPhone,
    fulfillmentType: input.fulfillmentType,
    shippingAddress: input.shippingAddress,
    city: input.city,
    state: input.state,
    zipCode: input.zipCode,
    items: input.items.map((l) => ({ ...l })),
    subtotalCents: input.subtotalCents,
    shippingFeeCents: input.shippingFeeCents,
    totalCents: input.totalCents,
    status: 'pending',
    shippingStatus: 'ship',
    trackingNumber: '',
    feedback: '',
    held: input.held,
    holdExpiresAt: input.holdExpiresAt === null ? null : isoTime(input.holdExpiresAt),
    addressVerified: input.addressVerified,
    channel: input.channel,
  };
}

/**
 * Mail jobs as stored. Jobs given with a create (or an update) are about that order:
 * a job without an `orderId` gets the order's id, as the caller cannot know a new id.
 */
export function buildMailJobs(inputs: readonly MailJobInput[], now: Date, orderId: string | null = null): MailJob[] {
  if (inputs.length === 0) return []; // most creates: no toISOString, no array walk
  const at = now.toISOString();
  return inputs.map((input) =>
    MailJob.parse({
      id: newId(),
      kind: input.kind,
      orderId: input.orderId || orderId,
      payload: input.payload,
      attempts: 0,
      nextAttemptAt: at,
      lastError: null,
      createdAt: at,
      sentAt: null,
      sentVia: null,
    }),
  );
}

export type Applied = { order: OrderRecord; changed: boolean };

/** Status move and/or field edits (SPEC §5): the transition is checked first, then the edit rule. */
export function applyOrderPatch(order: OrderRecord, patch: OrderPatch, now: Date): Applied {
  const next: OrderRecord = { ...order };
  let changed = false;
  if (patch.status !== undefined && checkTransition(order.status, patch.status) === 'change') {
    next.status = patch.status;
    changed = true;
  }
  const fields = Object.fromEntries(Object.entries(patch.fields ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(fields).length > 0) {
    checkEditable(order, fields);
    const allowed = new Set<string>([...EDITABLE_FIELDS, 'addressVerified']);
    for (const [key, value] of Object.entries(fields)) {
      if (!allowed.has(key)) {
        throw appError('VALIDATION_FAILED', { message: `${key} cannot be edited`, details: { field: key } });
      }
      if ((next as Record<string, unknown>)[key] !== value) {
        (next as Record<string, unknown>)[key] = value;
        changed = true;
      }
    }
  }
  if (!changed) return { order, changed: false };
  next.updatedAt = now.toISOString();
  return { order: OrderRecord.parse(next), changed: true };
}

/**
 * `shipped: true` or a tracking number needs a paid order that ships (SPEC §5).
 * `shipped: false` undoes shipping: back to `ship`, tracking cleared (unless one is given).
 */
export function applyShipping(order: OrderRecord, patch: ShippingPatch, now: Date): Applied {
  if (patch.shipped || patch.trackingNumber !== undefined) checkShippable(order);
  const shippingStatus = patch.shipped ? 'shipped' : 'ship';
  const trackingNumber = patch.trackingNumber ?? (patch.shipped ? order.trackingNumber : '');
  if (shippingStatus === order.shippingStatus && trackingNumber === order.trackingNumber) {
    return { order, changed: false };
  }
  return {
    order: OrderRecord.parse({ ...order, shippingStatus, trackingNumber, updatedAt: now.toISOString() }),
    changed: true,
  };
}

export function applyFeedback(order: OrderRecord, text: string, at: Date, now: Date): OrderRecord {
  return OrderRecord.parse({
    ...order,
    feedback: appendFeedbackText(order.feedback, text, at),
    updatedAt: now.toISOString(),
  });
}

/** Confirms a held order: it joins the lists and the summary. No-op when not held. */
export function applyRelease(order: OrderRecord, now: Date): Applied {
  if (!order.held) return { order, changed: false };
  return {
    order: OrderRecord.parse({ ...order, held: false, holdExpiresAt: null, updatedAt: now.toISOString() }),
    changed: true,
  };
}

/**
 * An unconfirmed hold that lapsed: the order becomes `cancelled` and leaves the hold (so the
 * operator sees it in the cancelled list and the summary counts it as cancelled).
 */
export function applyHoldExpiry(order: OrderRecord, now: Date): OrderRecord {
  return OrderRecord.parse({
    ...order,
    status: 'cancelled',
    held: false,
    holdExpiresAt: null,
    updatedAt: now.toISOString(),
  });
}

/** Per-status count and total of non-held orders, as a GROUP BY gives them. */
export type StatusTotals = Partial<Record<OrderStatus, { count: number; totalCents: number }>>;

/** SPEC §5 figures from per-status totals (held orders already left out). */
export function summaryFromTotals(totals: StatusTotals): SalesSummaryCents {
  const of = (s: OrderStatus) => totals[s] ?? { count: 0, totalCents: 0 };
  const paid = of('paid');
  const pending = of('pending');
  return {
    totalOrders: pending.count + paid.count + of('void').count + of('cancelled').count,
    pendingCount: pending.count,
    completedCount: paid.count,
    cancelledCount: of('cancelled').count + of('void').count,
    totalRevenueCents: paid.totalCents,
    pendingRevenueCents: pending.totalCents,
    averageOrderValueCents: paid.count === 0 ? 0 : Math.round(paid.totalCents / paid.count),
  };
}

/** The same figures from a list of orders (adapters without SQL aggregates, tests). */
export function summaryFromOrders(orders: Iterable<OrderRecord>): SalesSummaryCents {
  const totals: StatusTotals = {};
  for (const o of orders) {
    if (o.held) continue;
    const t = totals[o.status] ?? { count: 0, totalCents: 0 };
    t.count += 1;
    t.totalCents += o.totalCents;
    totals[o.status] = t;
  }
  return summaryFromTotals(totals);
}
