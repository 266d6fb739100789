/**
 * What each change does to an order, as pure functions: the store reads the order inside its
 * transaction, asks one of these for the new record, and writes it. The rules
 * (docs/contract.md, "Status and shipping"; transitions.ts) are checked here, so every
 * writer, the API and the mirror's hand edits alike, goes through the same rules.
 * `changed: false`: the order as it was; no write, no history, no mail.
 */
import { appError } from '../errors/catalogue.js';
import { formatItems } from './items.js';
import {
  type Actor,
  appendFeedbackText,
  EDITABLE_FIELDS,
  type EditableFields,
  type FulfillmentType,
  formatOrderNumber,
  fulfilmentOf,
  type HistoryEntry,
  initialPickupStatus,
  initialShippingStatus,
  MAX_FEEDBACK_ENTRIES,
  type NewOrder,
  type OrderPayment,
  type OrderRecord,
  type OrderStatus,
} from './order.js';
import { type Applied, next } from './order-version.js';
import { checkEditable, checkStatusChange } from './transitions.js';

export {
  applyPickup,
  applyPrinted,
  applyPrintNote,
  applyShipping,
  type PrintNote,
  type ShippingPatch,
} from './order-fulfilment.js';
export type { Applied };

/** A status move and/or field edits. `addressVerified` comes with an address edit (the check's result). */
export type OrderPatch = {
  status?: OrderStatus | undefined;
  fields?: (Partial<EditableFields> & { addressVerified?: boolean | null }) | undefined;
};

/**
 * The full record of a new order with its sequence number. `input` must have been parsed with
 * `NewOrder`: every other field is made here, valid by construction, so the create path (hot)
 * needs no second parse.
 */
export function buildNewOrder(input: NewOrder, sequence: number, now: Date, id: string, by: Actor): OrderRecord {
  const at = now.toISOString();
  // Digital files alone have no fulfilment, whatever was asked (docs/contract.md, "Selling").
  const fulfillmentType = fulfilmentOf(input.items, input.fulfillmentType);
  return {
    id,
    orderNumber: formatOrderNumber(input.prefix, sequence),
    eventSlug: input.eventSlug,
    createdAt: at,
    updatedAt: at,
    customerName: input.customerName,
    customerEmail: input.customerEmail,
    customerPhone: input.customerPhone,
    fulfillmentType,
    shippingAddress: input.shippingAddress,
    city: input.city,
    state: input.state,
    zipCode: input.zipCode,
    items: input.items.map((l) => ({ ...l })),
    subtotalCents: input.subtotalCents,
    shippingFeeCents: input.shippingFeeCents,
    discountCents: input.discountCents ?? 0,
    couponCode: input.couponCode ?? null,
    totalCents: input.totalCents,
    status: 'pending',
    shippingStatus: initialShippingStatus(fulfillmentType),
    trackingNumber: '',
    feedback: '',
    held: input.held,
    holdExpiresAt: input.holdExpiresAt === null ? null : new Date(input.holdExpiresAt).toISOString(),
    addressVerified: input.addressVerified,
    channel: input.channel,
    version: 1,
    history: [{ at, action: 'create', to: 'pending', by }],
    payment: null,
    pickupStatus: initialPickupStatus(fulfillmentType),
    printed: [],
  };
}

/** Status move and/or field edits: the transition is checked first, then the edit rule. */
export function applyOrderPatch(order: OrderRecord, patch: OrderPatch, now: Date, by: Actor): Applied {
  const at = now.toISOString();
  const changes: Partial<OrderRecord> = {};
  const entries: HistoryEntry[] = [];
  if (patch.status !== undefined && checkStatusChange(order, patch.status, now, by) === 'change') {
    changes.status = patch.status;
    entries.push({ at, action: 'status', from: order.status, to: patch.status, by });
  }
  const fields = Object.entries(patch.fields ?? {}).filter(([, v]) => v !== undefined);
  if (fields.length > 0) {
    checkEditable(order, Object.fromEntries(fields));
    for (const [key, given] of fields) {
      let value = given;
      if (key === 'addressVerified') {
        if (order.addressVerified !== value) changes.addressVerified = value as boolean | null;
        continue;
      }
      if (!(EDITABLE_FIELDS as string[]).includes(key)) {
        throw appError('VALIDATION_FAILED', { message: `${key} cannot be edited`, details: { field: key } });
      }
      // An order of digital files stays digital; `digital` for an order with prints is refused.
      if (key === 'fulfillmentType') value = fulfilmentOf(order.items, value as FulfillmentType);
      const before = order[key as keyof EditableFields];
      if (before === value) continue;
      Object.assign(changes, { [key]: value });
      entries.push({ at, action: 'edit', field: key, from: before, to: String(value), by });
    }
    if (changes.fulfillmentType !== undefined) {
      changes.shippingStatus = initialShippingStatus(changes.fulfillmentType);
      changes.pickupStatus = initialPickupStatus(changes.fulfillmentType);
    }
  }
  if (Object.keys(changes).length === 0) return { order, changed: false };
  return { order: next(order, changes, entries, now), changed: true };
}

/** How a feedback entry's sender showed the order is theirs: its email, or admin credentials. */
export type FeedbackProof = 'email' | 'admin';

/**
 * Feedback entries that count towards the cap: those sent with proof of the order (history
 * `feedback` entries with `field: "proof"`). Entries from before round 2 came with an order
 * number alone, from anyone, and don't count (docs/contract.md, "Hardening, round 2").
 */
export function provenFeedbackEntries(order: Pick<OrderRecord, 'history'>): number {
  return order.history.filter((h) => h.action === 'feedback' && h.field === 'proof').length;
}

/**
 * Appends a feedback entry sent with `proof` of the order; an order takes MAX_FEEDBACK_ENTRIES
 * of those, then 409 FEEDBACK_LIMIT. The history entry records the proof (`to`).
 */
export function applyFeedback(
  order: OrderRecord,
  text: string,
  at: Date,
  now: Date,
  by: Actor,
  proof: FeedbackProof,
): Applied {
  const entries = provenFeedbackEntries(order);
  if (entries >= MAX_FEEDBACK_ENTRIES) {
    throw appError('FEEDBACK_LIMIT', {
      message: `Order ${order.orderNumber} has ${entries} feedback entries, the most an order takes`,
      details: { limit: MAX_FEEDBACK_ENTRIES },
    });
  }
  const feedback = appendFeedbackText(order.feedback, text, at);
  const entry: HistoryEntry = { at: now.toISOString(), action: 'feedback', field: 'proof', to: proof, by };
  return { order: next(order, { feedback }, [entry], now), changed: true };
}

/**
 * One of the order's photos was taken down for good (docs/contract.md, "Takedown requests"): the
 * order is flagged for the photographer by a `photo-removed` entry naming the photo number.
 * Nothing else changes; once flagged for that photo, flagging again is a no-op.
 */
export function applyPhotoRemoved(order: OrderRecord, photoNumber: string, now: Date, by: Actor): Applied {
  if (order.history.some((h) => h.action === 'photo-removed' && h.to === photoNumber)) return { order, changed: false };
  const entry: HistoryEntry = { at: now.toISOString(), action: 'photo-removed', field: 'photo', to: photoNumber, by };
  return { order: next(order, {}, [entry], now), changed: true };
}

/** Confirms a held order: it joins the lists and the summary. No-op when not held. */
export function applyRelease(order: OrderRecord, now: Date, by: Actor): Applied {
  if (!order.held) return { order, changed: false };
  const entry: HistoryEntry = { at: now.toISOString(), action: 'hold-release', by };
  return { order: next(order, { held: false, holdExpiresAt: null }, [entry], now), changed: true };
}

/**
 * An unconfirmed hold that lapsed: the order becomes `cancelled` and leaves the hold (the
 * operator sees it in the cancelled list and the summary counts it as cancelled).
 */
export function applyHoldExpiry(order: OrderRecord, now: Date): Applied {
  const entry: HistoryEntry = {
    at: now.toISOString(),
    action: 'hold-expiry',
    from: order.status,
    to: 'cancelled',
    by: 'system',
  };
  return { order: next(order, { status: 'cancelled', held: false, holdExpiresAt: null }, [entry], now), changed: true };
}

/** The online checkout opened for the order (its payment page); the same session again changes nothing. */
export function applyPayment(order: OrderRecord, payment: OrderPayment, now: Date, by: Actor): Applied {
  if (order.payment?.sessionId === payment.sessionId && order.payment.url === payment.url) {
    return { order, changed: false };
  }
  const entry: HistoryEntry = { at: now.toISOString(), action: 'payment', to: payment.sessionId, by };
  return { order: next(order, { payment }, [entry], now), changed: true };
}

/**
 * Whether the order holds one use of its coupon (docs/contract.md, "Coupons"): it names one,
 * it is not void or cancelled, and it is not held for email confirmation. A held high-value
 * order takes its use only when the customer confirms it (docs/contract.md, "Hardening,
 * round 2"): unconfirmed orders with throwaway addresses could otherwise use a coupon up.
 */
function holdsCouponUse(o: Pick<OrderRecord, 'couponCode' | 'held' | 'status'>): boolean {
  return o.couponCode !== null && !o.held && o.status !== 'void' && o.status !== 'cancelled';
}

/** Whether a change gives the order's coupon use back (it moved into `void` or `cancelled`). */
export function releasesCoupon(before: OrderRecord, after: OrderRecord): boolean {
  return holdsCouponUse(before) && !holdsCouponUse(after);
}

/** Whether a change takes a use of the order's coupon (a held order confirmed). */
export function claimsCoupon(before: OrderRecord, after: OrderRecord): boolean {
  return !holdsCouponUse(before) && holdsCouponUse(after);
}

/**
 * The feedback text replaced as a whole: a hand edit of the spreadsheet's feedback column
 * (docs/contract.md, "System of record and the spreadsheet mirror"). The entry cap applies to
 * what the API appends, not to what the operator types.
 */
export function applyFeedbackText(order: OrderRecord, feedback: string, now: Date, by: Actor): Applied {
  if (feedback === order.feedback) return { order, changed: false };
  const entry: HistoryEntry = { at: now.toISOString(), action: 'edit', field: 'feedback', by };
  return { order: next(order, { feedback }, [entry], now), changed: true };
}

/**
 * The lines replaced (a hand edit of the spreadsheet's items column): only before fulfilment,
 * like every field edit, and before any line is printed; the subtotal becomes the lines' sum
 * and the total follows it.
 */
export function applyLines(order: OrderRecord, items: OrderRecord['items'], now: Date, by: Actor): Applied {
  const text = formatItems;
  if (text(items) === text(order.items)) return { order, changed: false };
  checkEditable(order, { customerName: order.customerName });
  // Printed marks and item ids name lines by their place: once a line is printed, the lines stay.
  if (order.printed.length > 0) {
    throw appError('ORDER_FULFILLED', {
      message: `Order ${order.orderNumber} has printed lines; its lines can no longer be changed`,
      details: { printed: order.printed.length },
    });
  }
  const subtotalCents = items.reduce((n, l) => n + l.lineCents, 0);
  const entry: HistoryEntry = {
    at: now.toISOString(),
    action: 'edit',
    field: 'items',
    from: text(order.items),
    to: text(items),
    by,
  };
  // The discount stays what it was (packages and coupon are not priced again for a hand edit).
  const totalCents = Math.max(0, subtotalCents - order.discountCents + order.shippingFeeCents);
  const changes: Partial<OrderRecord> = { items, subtotalCents, totalCents };
  // Lines that became all digital files (or stopped being) change what fulfilment the order has.
  const asked =
    order.fulfillmentType !== 'digital' ? order.fulfillmentType : order.shippingAddress.trim() ? 'ship' : 'pickup';
  const fulfillmentType = fulfilmentOf(items, asked);
  if (fulfillmentType !== order.fulfillmentType) {
    changes.fulfillmentType = fulfillmentType;
    changes.shippingStatus = initialShippingStatus(fulfillmentType);
    changes.pickupStatus = initialPickupStatus(fulfillmentType);
  }
  return { order: next(order, changes, [entry], now), changed: true };
}
