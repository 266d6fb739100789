/**
 * The values an order's fields take (src/domain/order-fields.ts): its statuses, who changed
 * it, its history entries, lines and online checkout. Kept apart from src/domain/order.ts so
 * the field table can be built from them; order.ts exports them all again.
 */
import { z } from 'zod';
import { Crop } from './prints.js';

export const ORDER_STATUSES = ['pending', 'paid', 'void', 'cancelled'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/**
 * `ship` (to be shipped) and `shipped` for orders that ship; `pickup` for orders collected at
 * the booth, and `digital` for orders of digital files only, which are never shipped
 * (docs/contract.md, "Status and shipping").
 */
export const ShippingStatus = z.enum(['ship', 'shipped', 'pickup', 'digital']);
export type ShippingStatus = z.infer<typeof ShippingStatus>;

/**
 * How the order reaches the customer: shipped, collected at the booth, or (every line a
 * digital file) downloaded: a `digital` order has no fulfilment at all (docs/contract.md,
 * "Selling"). An order is `digital` exactly when all its lines are digital files.
 */
export const FulfillmentType = z.enum(['ship', 'pickup', 'digital']);
export type FulfillmentType = z.infer<typeof FulfillmentType>;

/**
 * Where a pickup order is at the booth (docs/contract.md, "Fulfilment"): `waiting` (new),
 * `ready` (prints packed, customer told), `collected` (handed over). Null for orders that ship.
 */
export const PICKUP_STATUSES = ['waiting', 'ready', 'collected'] as const;
export const PickupStatus = z.enum(PICKUP_STATUSES);
export type PickupStatus = z.infer<typeof PickupStatus>;

/**
 * Who changed an order, as its history records it (docs/contract.md, "Fulfilment"); an admin
 * by role and the first 8 hex digits of their token's SHA-256 (roles.ts). A bare `admin` is an
 * admin not known, from before history was kept.
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
 * One change to an order; what `field`, `from` and `to` hold per action: docs/contract.md,
 * "Fulfilment" and "Printing at the booth".
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

export const cents = z.number().int().min(0);
export const isoTimestamp = z.iso.datetime({ offset: true });

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
export const PrintedMark = z.object({
  line: z.number().int().min(0),
  at: isoTimestamp,
  by: Actor,
});
