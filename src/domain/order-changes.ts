/**
 * What each change does to an order, as pure functions: the store reads the order inside its
 * transaction, asks one of these for the new record, and writes it. The rules of
 * docs/contract.md ("Status and shipping") are checked here (src/domain/transitions.ts), and
 * each change appends its history entry and bumps `version`, so every writer (the API today,
 * the spreadsheet mirror's hand edits next) goes through the same rules.
 *
 * `changed: false` means the order is returned as it was: no write, no history, no mail.
 */
import { appError } from '../errors/catalogue.js';
import { formatItemLine, formatItems } from './items.js';
import { isDigitalSize } from './offers.js';
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
  itemId,
  MAX_FEEDBACK_ENTRIES,
  type NewOrder,
  type OrderLine,
  type OrderPayment,
  OrderRecord,
  type OrderStatus,
  type PickupStatus,
} from './order.js';
import { checkEditable, checkPickup, checkShippable, checkStatusChange } from './transitions.js';

export type Applied = { order: OrderRecord; changed: boolean };

/** A status move and/or field edits. `addressVerified` comes with an address edit (the check's result). */
export type OrderPatch = {
  status?: OrderStatus | undefined;
  fields?: (Partial<EditableFields> & { addressVerified?: boolean | null }) | undefined;
};

/**
 * `shipped: true` or a tracking number marks shipped; `shipped: false` undoes it. `printAll`:
 * the order's print lines not marked printed yet are marked printed with it (else marking it
 * shipped is refused while one is not: docs/contract.md, "Fulfilment").
 */
export type ShippingPatch = { shipped: boolean; trackingNumber?: string | undefined; printAll?: boolean | undefined };

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

/** The order after a change: history appended, version bumped, parsed (a bug shows here, not in the row). */
function next(order: OrderRecord, changes: Partial<OrderRecord>, entries: HistoryEntry[], now: Date): OrderRecord {
  return OrderRecord.parse({
    ...order,
    ...changes,
    updatedAt: now.toISOString(),
    version: order.version + 1,
    history: [...order.history, ...entries],
  });
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

/**
 * `shipped: true` or a tracking number needs a paid order that ships. `shipped: false` undoes
 * shipping: back to `ship`, tracking cleared.
 */
export function applyShipping(order: OrderRecord, patch: ShippingPatch, now: Date, by: Actor): Applied {
  if (patch.shipped || patch.trackingNumber !== undefined) checkShippable(order);
  // Undoing shipping on an order that is not shipped (a pickup order included) changes nothing.
  const shippingStatus = patch.shipped ? 'shipped' : order.shippingStatus === 'shipped' ? 'ship' : order.shippingStatus;
  const trackingNumber = patch.trackingNumber ?? (patch.shipped ? order.trackingNumber : '');
  const at = now.toISOString();
  const entries: HistoryEntry[] = [];
  const changes: Partial<OrderRecord> = { shippingStatus, trackingNumber };
  if (shippingStatus !== order.shippingStatus) {
    // A parcel goes out with its prints: they must exist first (or be marked so with it).
    if (shippingStatus === 'shipped') {
      Object.assign(changes, printsFirst(order, patch.printAll, 'marked shipped', now, by, entries));
    }
    entries.push({ at, action: 'shipping', from: order.shippingStatus, to: shippingStatus, by });
  }
  if (trackingNumber !== order.trackingNumber) {
    entries.push({ at, action: 'edit', field: 'trackingNumber', from: order.trackingNumber, to: trackingNumber, by });
  }
  if (entries.length === 0) return { order, changed: false };
  return { order: next(order, changes, entries, now), changed: true };
}

/** The order's print lines (digital files are never printed) not marked printed yet, as 0-based indexes. */
export function unprintedLines(order: Pick<OrderRecord, 'items' | 'printed'>): number[] {
  const done = new Set(order.printed.map((p) => p.line));
  const out: number[] = [];
  order.items.forEach((line, index) => {
    if (!isDigitalSize(line.size) && !done.has(index)) out.push(index);
  });
  return out;
}

/**
 * Fulfilment follows the prints (docs/contract.md, "Fulfilment"): an order is marked shipped,
 * ready or collected only once every print line is marked printed. With `printAll` the lines
 * still waiting are marked printed by the same change (a `printed` history entry each, pushed
 * to `entries`) and the new `printed` list is returned; without it, 409 NOT_PRINTED naming them.
 */
function printsFirst(
  order: OrderRecord,
  printAll: boolean | undefined,
  becoming: string,
  now: Date,
  by: Actor,
  entries: HistoryEntry[],
): Partial<OrderRecord> {
  const waiting = unprintedLines(order);
  if (waiting.length === 0) return {};
  if (!printAll) {
    const lines = waiting.map((l) => ({ index: l, line: order.items[l] as OrderLine }));
    const named = lines.map((l) => `${itemId(order.orderNumber, l.index)} ${formatItemLine(l.line)}`).join('; ');
    const them = waiting.length === 1 ? 'it' : 'them';
    throw appError('NOT_PRINTED', {
      message: `Order ${order.orderNumber} cannot be ${becoming} before its prints exist: not printed yet: ${named}. Mark ${them} printed first, or send printAll: true`,
      details: {
        orderNumber: order.orderNumber,
        notPrinted: lines.map((l) => ({
          itemId: itemId(order.orderNumber, l.index),
          photoNumber: l.line.photoNumber,
          size: l.line.size,
          quantity: l.line.quantity,
        })),
      },
    });
  }
  const marked = printedMarks(order, waiting, now, by);
  entries.push(...marked.entries);
  return { printed: marked.printed };
}

/** New `printed` marks for those of `lines` not marked before, and a history entry for each. */
function printedMarks(
  order: OrderRecord,
  lines: readonly number[],
  now: Date,
  by: Actor,
): { printed: OrderRecord['printed']; entries: HistoryEntry[] } {
  const done = new Set(order.printed.map((p) => p.line));
  const at = now.toISOString();
  const marks = [...new Set(lines)].filter((l) => !done.has(l)).sort((a, b) => a - b);
  const entries: HistoryEntry[] = marks.map((line) => ({
    at,
    action: 'printed',
    field: itemId(order.orderNumber, line),
    to: formatItemLine(order.items[line] as OrderLine),
    by,
  }));
  return { printed: [...order.printed, ...marks.map((line) => ({ line, at, by }))], entries };
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
export function holdsCouponUse(o: Pick<OrderRecord, 'couponCode' | 'held' | 'status'>): boolean {
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
 * A pickup order's booth status (docs/contract.md, "Fulfilment"): needs a paid pickup order
 * (transitions.ts, checkPickup). Asking for the current status again changes nothing. `ready`
 * and `collected` need every print line printed, or `printAll` to mark them printed with it.
 */
export function applyPickup(order: OrderRecord, to: PickupStatus, now: Date, by: Actor, printAll = false): Applied {
  if (checkPickup(order, to) === 'same') return { order, changed: false };
  const entries: HistoryEntry[] = [];
  const changes: Partial<OrderRecord> = { pickupStatus: to };
  if (to === 'ready' || to === 'collected') {
    Object.assign(changes, printsFirst(order, printAll, `marked ${to}`, now, by, entries));
  }
  entries.push({ at: now.toISOString(), action: 'pickup', from: order.pickupStatus ?? '', to, by });
  return { order: next(order, changes, entries, now), changed: true };
}

/**
 * Marks lines printed (0-based indexes into `items`): one history entry per line newly marked,
 * naming its item id and what it was. Lines marked before stay as they were (their first
 * mark is kept); an order with nothing new is unchanged. Only paid orders are printed
 * (else 409 INVALID_TRANSITION); a line the order does not have is 400 VALIDATION_FAILED.
 */
export function applyPrinted(order: OrderRecord, lines: readonly number[], now: Date, by: Actor): Applied {
  if (order.status !== 'paid') {
    throw appError('INVALID_TRANSITION', {
      message: `Order ${order.orderNumber} is ${order.status}; only paid orders are printed`,
      details: { orderNumber: order.orderNumber, status: order.status },
    });
  }
  const missing = lines.filter((l) => !(Number.isInteger(l) && l >= 0 && l < order.items.length));
  if (missing.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: `Order ${order.orderNumber} has ${order.items.length} lines`,
      details: missing.map((l) => ({
        in: 'body',
        field: 'itemIds',
        message: `no line ${itemId(order.orderNumber, l)}`,
      })),
    });
  }
  const { printed, entries } = printedMarks(order, lines, now, by);
  if (entries.length === 0) return { order, changed: false };
  return { order: next(order, { printed }, entries, now), changed: true };
}

/** What a printer did with a line (docs/contract.md, "Printing at the booth"). */
export type PrintNote = { action: 'print-sent' | 'print-failed'; itemId: string; text: string };

/**
 * A line sent to a printer, or back from one unprinted: one `print-sent` / `print-failed`
 * entry (the item id in `field`, the printer's words in `to`). The same note again changes
 * nothing, so a job's outcome noted twice (a restart between the note and the job's record)
 * shows once.
 */
export function applyPrintNote(order: OrderRecord, note: PrintNote, now: Date, by: Actor): Applied {
  const same = (h: HistoryEntry) => h.action === note.action && h.field === note.itemId && h.to === note.text;
  if (order.history.some(same)) return { order, changed: false };
  const entry: HistoryEntry = { at: now.toISOString(), action: note.action, field: note.itemId, to: note.text, by };
  return { order: next(order, {}, [entry], now), changed: true };
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
