/**
 * What an order is, as the store keeps it (fields: order-fields.ts; values: order-values.ts;
 * both re-exported). Every adapter parses the rows it reads with `OrderRecord`, so the rest
 * of the service only sees valid orders. Money is integer cents.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { appError } from '../errors/catalogue.js';
import { isDigitalSize } from './offers.js';
import { OrderRecord } from './order-fields.js';
import { cents, type FulfillmentType, type PickupStatus, type ShippingStatus } from './order-values.js';

export { EDITABLE_FIELDS, EditableFields, OrderRecord } from './order-fields.js';
export * from './order-values.js';

/** The shipping status an order starts with, and takes when its fulfilment changes. */
export function initialShippingStatus(fulfillmentType: FulfillmentType): ShippingStatus {
  return fulfillmentType === 'ship' ? 'ship' : fulfillmentType;
}

/** The pickup status an order starts with, and takes when its fulfilment changes. */
export function initialPickupStatus(fulfillmentType: FulfillmentType): PickupStatus | null {
  return fulfillmentType === 'pickup' ? 'waiting' : null;
}

/**
 * The fulfilment an order with these lines has: `digital` when every line is a digital file
 * (whatever was asked: nothing is shipped or collected), else the one asked for. `digital`
 * asked for lines that hold a print is 400 VALIDATION_FAILED (a print must ship or be collected).
 */
export function fulfilmentOf(items: readonly { size: string }[], asked: FulfillmentType): FulfillmentType {
  if (digitalOnly(items)) return 'digital';
  if (asked === 'digital') {
    throw appError('VALIDATION_FAILED', {
      message: 'An order with prints is shipped or collected at the booth; only digital files alone are "digital"',
      details: [{ in: 'body', field: 'fulfillmentType', message: 'ship or pickup: the order holds prints' }],
    });
  }
  return asked;
}

/** Whether every line is a digital file (docs/contract.md, "Selling"): nothing to print, ship or collect. */
export function digitalOnly(items: readonly { size: string }[]): boolean {
  return items.length > 0 && items.every((l) => isDigitalSize(l.size));
}

/** An order line's print-queue id, `AX25-0001.2` (1-based; lines never change once the order exists). */
export function itemId(orderNumber: string, lineIndex: number): string {
  return `${orderNumber}.${lineIndex + 1}`;
}

/** The order number and 0-based line index of an item id; null for any other text. */
export function parseItemId(text: string): { orderNumber: string; line: number } | null {
  const m = /^([A-Za-z0-9]{1,8}-\d{4,15})\.(\d{1,3})$/.exec(text.trim());
  if (!m || Number(m[2]) < 1) return null;
  return { orderNumber: (m[1] as string).toUpperCase(), line: Number(m[2]) - 1 };
}

/** What a caller supplies to create an order; the store assigns the rest. */
export const NewOrder = OrderRecord.omit({
  id: true,
  orderNumber: true,
  createdAt: true,
  updatedAt: true,
  status: true,
  shippingStatus: true,
  trackingNumber: true,
  feedback: true,
  version: true,
  history: true,
  pickupStatus: true,
  printed: true,
  payment: true,
  discountCents: true,
  couponCode: true,
}).extend({
  discountCents: cents.optional(),
  /**
   * The coupon applied: one use of it is taken in the order's transaction, and the create
   * fails with 400 COUPON_INVALID (`exhausted` or `unknown`) when none is left. Absent: none.
   */
  couponCode: z.string().min(1).nullable().optional(),
  /** The event's order-number prefix (docs/contract.md, "Gallery": letters and digits, upper-case, ≤ 8). */
  prefix: z.string().regex(/^[A-Z0-9]{1,8}$/),
  /**
   * The id to give the order (a UUID, stored lower-case), for a caller that needs it before
   * the order exists: a held order's confirmation mail carries a link signed with it and is
   * stored with the order. Absent: the store makes one. An id already taken is refused.
   */
  id: z.uuid().toLowerCase().optional(),
});
export type NewOrder = z.infer<typeof NewOrder>;

/** Sales figures in cents (docs/contract.md, "Status and shipping"); the API turns them into dollar numbers. */
export type SalesSummaryCents = {
  totalOrders: number;
  pendingCount: number;
  completedCount: number;
  cancelledCount: number;
  totalRevenueCents: number;
  pendingRevenueCents: number;
  averageOrderValueCents: number;
  /** What paid orders were given off (packages, early bird, coupons). */
  totalDiscountsCents: number;
};

export function formatOrderNumber(prefix: string, sequence: number): string {
  return `${prefix}-${String(sequence).padStart(4, '0')}`;
}

/** The prefix and sequence of an order number formatOrderNumber made, or null for any other text. */
export function parseOrderNumber(text: string): { prefix: string; sequence: number } | null {
  const m = /^([A-Z0-9]{1,8})-(\d{4,15})$/.exec(text);
  if (!m) return null;
  const sequence = Number(m[2]);
  return formatOrderNumber(m[1] as string, sequence) === text ? { prefix: m[1] as string, sequence } : null;
}

/** Feedback entries an order takes at most (docs/contract.md, "Hardening"). */
export const MAX_FEEDBACK_ENTRIES = 10;

export function appendFeedbackText(existing: string, text: string, at: Date): string {
  const entry = `[${at.toISOString()}] ${text}`;
  return existing ? `${existing}\n\n${entry}` : entry;
}

const emailDigest = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest();

/**
 * Whether `email` is the order's customer email: case-insensitive, in constant time (the
 * digests have the same length whatever the input), so a lookup can't be timed.
 */
export function orderEmailMatches(order: Pick<OrderRecord, 'customerEmail'>, email: string): boolean {
  // A booth order may have no email: nothing matches it.
  if (order.customerEmail.trim() === '') return false;
  return timingSafeEqual(emailDigest(order.customerEmail), emailDigest(email));
}

/** By creation time, then order number (two orders may share a millisecond): the order a booth works through them. */
export function oldestFirst(a: OrderRecord, b: OrderRecord): number {
  return Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.orderNumber.localeCompare(b.orderNumber);
}
