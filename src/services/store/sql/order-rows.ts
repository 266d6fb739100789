/**
 * An order as a row of table `orders`, on either engine, and back. Every row read is parsed
 * with the domain's `OrderRecord`, so nothing malformed leaves the store.
 *
 * Besides the record's fields the row has `pk` (insertion order: newest first is pk
 * descending), and `prefix` and `seq`, the order number's parts: unique together, they
 * number orders (the next is max(seq) + 1) and find an order by number.
 */
import { digitalOnly, type OrderRecord, OrderRecord as OrderSchema } from '../../../domain/order.js';
import type { Param, Row } from './db.js';
import { bool, json, nullableBool } from './values.js';

/** The columns an INSERT writes, in `insertValues` order. */
export const INSERT_COLUMNS = [
  'id',
  'order_number',
  'prefix',
  'seq',
  'event_slug',
  'created_at',
  'updated_at',
  'customer_name',
  'customer_email',
  'customer_phone',
  'fulfillment_type',
  'shipping_address',
  'city',
  'state',
  'zip_code',
  'items',
  'subtotal_cents',
  'shipping_fee_cents',
  'total_cents',
  'status',
  'shipping_status',
  'tracking_number',
  'feedback',
  'held',
  'hold_expires_at',
  'address_verified',
  'channel',
  'version',
  'history',
  'pickup_status',
  'printed',
  'discount_cents',
  'coupon_code',
  'payment',
] as const;

/**
 * Digital orders in the table. The columns' CHECKs know `ship` and `pickup` (fulfilment) and
 * `ship`, `shipped`, `pickup` (shipping status); SQLite can't widen a CHECK without rebuilding
 * the table. An order is digital exactly when every line is a digital file, so it is stored as
 * one that is never shipped (`pickup` in both, no pickup status) and read back as `digital`
 * from its lines: orders taken before digital orders existed read as digital too.
 */
const stored = (value: string) => (value === 'digital' ? 'pickup' : value);

function digitalFields(
  r: Row,
  items: unknown,
): { fulfillmentType: unknown; shippingStatus: unknown; pickupStatus: unknown } {
  if (Array.isArray(items) && digitalOnly(items as { size: string }[])) {
    return { fulfillmentType: 'digital', shippingStatus: 'digital', pickupStatus: null };
  }
  return { fulfillmentType: r.fulfillment_type, shippingStatus: r.shipping_status, pickupStatus: r.pickup_status };
}

/** What a SELECT reads: every column of the record, and pk. */
export const SELECT_COLUMNS = `pk, ${INSERT_COLUMNS.join(', ')}`;

export function insertValues(o: OrderRecord, prefix: string, seq: number): Param[] {
  return [
    o.id,
    o.orderNumber,
    prefix,
    seq,
    o.eventSlug,
    o.createdAt,
    o.updatedAt,
    o.customerName,
    o.customerEmail,
    o.customerPhone,
    stored(o.fulfillmentType),
    o.shippingAddress,
    o.city,
    o.state,
    o.zipCode,
    JSON.stringify(o.items),
    o.subtotalCents,
    o.shippingFeeCents,
    o.totalCents,
    o.status,
    stored(o.shippingStatus),
    o.trackingNumber,
    o.feedback,
    o.held,
    o.holdExpiresAt,
    o.addressVerified,
    o.channel,
    o.version,
    JSON.stringify(o.history),
    o.pickupStatus,
    JSON.stringify(o.printed),
    o.discountCents,
    o.couponCode,
    o.payment === null ? null : JSON.stringify(o.payment),
  ];
}

/**
 * Writes what a change may change, with the new version, if the row still has the version the
 * change was made from (the transaction's row lock makes that certain; this makes it checked).
 */
export const UPDATE_SQL = `UPDATE orders SET updated_at = ?, customer_name = ?, customer_email = ?, customer_phone = ?,
  fulfillment_type = ?, shipping_address = ?, city = ?, state = ?, zip_code = ?, status = ?, shipping_status = ?,
  tracking_number = ?, feedback = ?, held = ?, hold_expires_at = ?, address_verified = ?, version = ?, history = ?,
  pickup_status = ?, printed = ?, payment = ?
  WHERE id = ? AND version = ?`;

export function updateValues(o: OrderRecord, fromVersion: number): Param[] {
  return [
    o.updatedAt,
    o.customerName,
    o.customerEmail,
    o.customerPhone,
    stored(o.fulfillmentType),
    o.shippingAddress,
    o.city,
    o.state,
    o.zipCode,
    o.status,
    stored(o.shippingStatus),
    o.trackingNumber,
    o.feedback,
    o.held,
    o.holdExpiresAt,
    o.addressVerified,
    o.version,
    JSON.stringify(o.history),
    o.pickupStatus,
    JSON.stringify(o.printed),
    o.payment === null ? null : JSON.stringify(o.payment),
    o.id,
    fromVersion,
  ];
}

export function rowToOrder(r: Row): OrderRecord {
  const items = json(r.items);
  const fulfilment = digitalFields(r, items);
  return OrderSchema.parse({
    id: r.id,
    orderNumber: r.order_number,
    eventSlug: r.event_slug,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    customerPhone: r.customer_phone,
    fulfillmentType: fulfilment.fulfillmentType,
    shippingAddress: r.shipping_address,
    city: r.city,
    state: r.state,
    zipCode: r.zip_code,
    items,
    subtotalCents: r.subtotal_cents,
    shippingFeeCents: r.shipping_fee_cents,
    totalCents: r.total_cents,
    status: r.status,
    shippingStatus: fulfilment.shippingStatus,
    trackingNumber: r.tracking_number,
    feedback: r.feedback,
    held: bool(r.held),
    holdExpiresAt: r.hold_expires_at,
    addressVerified: nullableBool(r.address_verified),
    channel: r.channel,
    version: r.version,
    history: json(r.history),
    pickupStatus: fulfilment.pickupStatus,
    printed: json(r.printed),
    discountCents: r.discount_cents,
    couponCode: r.coupon_code,
    payment: r.payment === null ? null : json(r.payment),
  });
}
