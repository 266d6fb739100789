/**
 * What an order is, as the order store keeps it. Every adapter parses the rows it reads
 * with `OrderRecord` at its boundary, so the rest of the service only sees valid orders.
 * Money is integer cents; the API turns it into "$12.50" text (docs/contract.md, "Hosts and formats").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { appError } from '../errors/catalogue.js';
import { isDigitalSize } from './offers.js';
import { Crop } from './prints.js';

export const ORDER_STATUSES = ['pending', 'paid', 'void', 'cancelled'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/**
 * `ship` (to be shipped) and `shipped` for orders that ship; `pickup` for orders collected at
 * the booth, and `digital` for orders of digital files only, which are never shipped
 * (docs/contract.md, "Status and shipping").
 */
const ShippingStatus = z.enum(['ship', 'shipped', 'pickup', 'digital']);
export type ShippingStatus = z.infer<typeof ShippingStatus>;

/**
 * How the order reaches the customer: shipped, collected at the booth, or (every line a
 * digital file) downloaded: a `digital` order has no fulfilment at all (docs/contract.md,
 * "Selling"). An order is `digital` exactly when all its lines are digital files.
 */
export const FulfillmentType = z.enum(['ship', 'pickup', 'digital']);
export type FulfillmentType = z.infer<typeof FulfillmentType>;

/** The shipping status an order starts with, and takes when its fulfilment changes. */
export function initialShippingStatus(fulfillmentType: FulfillmentType): ShippingStatus {
  return fulfillmentType === 'ship' ? 'ship' : fulfillmentType;
}

/**
 * Where a pickup order is at the booth (docs/contract.md, "Fulfilment"): `waiting` (new),
 * `ready` (prints packed, customer told), `collected` (handed over). Null for orders that ship.
 */
export const PICKUP_STATUSES = ['waiting', 'ready', 'collected'] as const;
export const PickupStatus = z.enum(PICKUP_STATUSES);
export type PickupStatus = z.infer<typeof PickupStatus>;

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

/**
 * Who changed an order, as its history records it (docs/contract.md, "Fulfilment"):
 * the customer, the server itself (`system`: hold expiry), a hand edit in the spreadsheet
 * (`sheet`), the payment provider (`stripe`: a payment or refund it reported), or an admin
 * named by their role (`admin` for owner tokens, `staff`, `viewer`) and the first 8 hex digits
 * of the SHA-256 of their token (src/domain/roles.ts). A bare `admin` marks changes made before
 * history was kept, by an admin not known.
 */
export const Actor = z
  .string()
  .regex(/^(customer|system|sheet|stripe|admin(:[0-9a-f]{8})?|(staff|viewer):[0-9a-f]{8})$/);
export type Actor =
  | 'customer'
  | 'system'
  | 'sheet'
  | 'stripe'
  | 'admin'
  | `admin:${string}`
  | `staff:${string}`
  | `viewer:${string}`;

export const HISTORY_ACTIONS = [
  'create',
  'status',
  'edit',
  'shipping',
  'feedback',
  'hold-release',
  'hold-expiry',
  'pickup',
  'printed',
  'photo-removed',
  'payment',
  'print-sent',
  'print-failed',
] as const;

/**
 * One change to an order. `from`/`to` are the status (status, hold-expiry), the shipping
 * status (shipping), the pickup status (pickup) or the field's values (edit, with `field`
 * naming it); `printed` names the printed line's item id in `field` and what it was in `to`;
 * `payment` records an online checkout opened for the order (`to`: the provider's session id);
 * `print-sent` and `print-failed` name a line's item id in `field` and say in `to` which printer
 * took it as which job, or why the job did not print (docs/contract.md, "Printing at the booth").
 */
export const HistoryEntry = z.object({
  at: z.iso.datetime({ offset: true }),
  action: z.enum(HISTORY_ACTIONS),
  field: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  by: Actor,
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Where the order was taken: the public checkout, or the booth (admin credentials). */
export const OrderChannel = z.enum(['web', 'booth']);
export type OrderChannel = z.infer<typeof OrderChannel>;

const cents = z.number().int().min(0);
const isoTimestamp = z.iso.datetime({ offset: true });

export const OrderLine = z.object({
  photoNumber: z.string().min(1),
  size: z.string().min(1),
  quantity: z.number().int().min(1).max(99),
  unitCents: cents,
  lineCents: cents,
  /** Where the print's crop window is centred (docs/contract.md, "Fulfilment"); absent: the middle. */
  crop: Crop.optional(),
});
export type OrderLine = z.infer<typeof OrderLine>;

/** The online checkout opened for an order (docs/contract.md, "Selling"): null when paid at the booth. */
export const OrderPayment = z.object({
  provider: z.literal('stripe'),
  sessionId: z.string().min(1),
  /** The hosted payment page: the order's `paymentUrl`. */
  url: z.url(),
});
export type OrderPayment = z.infer<typeof OrderPayment>;

/** A line marked printed: which line (0-based index into `items`), when and by whom. */
const PrintedMark = z.object({
  line: z.number().int().min(0),
  at: isoTimestamp,
  by: Actor,
});

/**
 * An order line's id in the print queue: `<orderNumber>.<line number from 1>`, e.g.
 * `AX25-0001.2` (lines are never added or removed once the order exists).
 */
export function itemId(orderNumber: string, lineIndex: number): string {
  return `${orderNumber}.${lineIndex + 1}`;
}

/** The order number and 0-based line index of an item id; null for any other text. */
export function parseItemId(text: string): { orderNumber: string; line: number } | null {
  const m = /^([A-Za-z0-9]{1,8}-\d{4,15})\.(\d{1,3})$/.exec(text.trim());
  if (!m || Number(m[2]) < 1) return null;
  return { orderNumber: (m[1] as string).toUpperCase(), line: Number(m[2]) - 1 };
}

/** The fields an admin may edit before fulfilment (docs/contract.md, "Status and shipping"). */
export const EditableFields = z.object({
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  fulfillmentType: FulfillmentType,
  shippingAddress: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
});
export type EditableFields = z.infer<typeof EditableFields>;
export const EDITABLE_FIELDS = Object.keys(EditableFields.shape) as (keyof EditableFields)[];

export const OrderRecord = EditableFields.extend({
  /** Opaque unique id (a UUID). */
  id: z.string().min(1),
  /** `<eventPrefix>-<sequence>`, sequence zero-padded to 4 digits: `AX25-0001`. */
  orderNumber: z.string().regex(/^[A-Z0-9]{1,8}-\d{4,}$/),
  eventSlug: z.string().min(1),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  items: z.array(OrderLine).min(1),
  subtotalCents: cents,
  shippingFeeCents: cents,
  /** Packages plus the early bird or the coupon: total = subtotal − discount + shipping. */
  discountCents: cents,
  /** The coupon the order used (its use is counted while the order is not void or cancelled); null: none. */
  couponCode: z.string().min(1).nullable(),
  totalCents: cents,
  status: OrderStatus,
  shippingStatus: ShippingStatus,
  /** Empty until shipped with a tracking number. */
  trackingNumber: z.string(),
  /** Every feedback entry, oldest first, each `[<ISO time>] <text>`, separated by a blank line. */
  feedback: z.string(),
  /** High-value orders wait for email confirmation (docs/contract.md, "Notifications"): held orders are in no admin list. */
  held: z.boolean(),
  /** When an unconfirmed hold is cancelled; null when not held. */
  holdExpiresAt: isoTimestamp.nullable(),
  /** Result of the address check: true/false, or null when not checked (pickup, verifier off). */
  addressVerified: z.boolean().nullable(),
  channel: OrderChannel,
  /** Bumped by every write: what a reader compares to know whether its copy is current. */
  version: z.number().int().min(1),
  /** Every change, oldest first (docs/contract.md, "Fulfilment"). */
  history: z.array(HistoryEntry),
  /** Pickup orders: waiting → ready → collected; null for orders that ship. */
  pickupStatus: PickupStatus.nullable(),
  /** The lines marked printed, in the order they were marked (docs/contract.md, "Fulfilment"). */
  printed: z.array(PrintedMark),
  /** The online checkout, once opened (PAYMENT_PROVIDER=stripe). */
  payment: OrderPayment.nullable(),
});
export type OrderRecord = z.infer<typeof OrderRecord>;

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
  /** Absent: 0. */
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

/** Formats the order number for a prefix and a sequence. */
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

/** Appends one feedback entry to the stored feedback text. */
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
