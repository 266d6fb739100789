/**
 * Row ↔ record mapping for SQLite. Every row read is parsed with the domain zod schemas here,
 * so nothing malformed leaves the adapter. SQLite has no booleans: 0/1 integers.
 */
import { OrderRecord } from '../../../domain/order.js';
import { EventSettings, IdempotencyRecord, MailJob, PushSubscriptionRecord } from '../port.js';

export type OrderRow = {
  id: string;
  order_number: string;
  event_slug: string;
  created_at: string;
  updated_at: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  fulfillment_type: string;
  shipping_address: string;
  city: string;
  state: string;
  zip_code: string;
  items: string;
  subtotal_cents: number;
  shipping_fee_cents: number;
  total_cents: number;
  status: string;
  shipping_status: string;
  tracking_number: string;
  feedback: string;
  held: number;
  hold_expires_at: string | null;
  address_verified: number | null;
  channel: string;
};

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/** The order columns in OrderRow's order: `SELECT ${ORDER_COLUMNS}` rows read with `.raw()` are `rowFromValues` input. */
export const ORDER_COLUMNS = [
  'id',
  'order_number',
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
] as const satisfies readonly (keyof OrderRow)[];

/**
 * A row read as an array (`statement.raw()`), in ORDER_COLUMNS order. better-sqlite3 builds
 * a row object through the V8 API, property by property: for a 10,000-order list that is
 * about half of the read; arrays plus this object literal cost a fraction of it.
 */
export function rowFromValues(v: readonly unknown[]): OrderRow {
  return {
    id: v[0],
    order_number: v[1],
    event_slug: v[2],
    created_at: v[3],
    updated_at: v[4],
    customer_name: v[5],
    customer_email: v[6],
    customer_phone: v[7],
    fulfillment_type: v[8],
    shipping_address: v[9],
    city: v[10],
    state: v[11],
    zip_code: v[12],
    items: v[13],
    subtotal_cents: v[14],
    shipping_fee_cents: v[15],
    total_cents: v[16],
    status: v[17],
    shipping_status: v[18],
    tracking_number: v[19],
    feedback: v[20],
    held: v[21],
    hold_expires_at: v[22],
    address_verified: v[23],
    channel: v[24],
  } as OrderRow;
}

/**
 * The row's values in ORDER_COLUMNS order, for statements with positional parameters: a
 * create binds 27 values, and binding them by name (better-sqlite3 reads each property
 * through the V8 API) cost about a fifth of the insert's CPU.
 */
export function rowValues(r: OrderRow): unknown[] {
  return ORDER_COLUMNS.map((c) => r[c]);
}

export function orderToRow(o: OrderRecord): OrderRow {
  return {
    id: o.id,
    order_number: o.orderNumber,
    event_slug: o.eventSlug,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    customer_name: o.customerName,
    customer_email: o.customerEmail,
    customer_phone: o.customerPhone,
    fulfillment_type: o.fulfillmentType,
    shipping_address: o.shippingAddress,
    city: o.city,
    state: o.state,
    zip_code: o.zipCode,
    items: JSON.stringify(o.items),
    subtotal_cents: o.subtotalCents,
    shipping_fee_cents: o.shippingFeeCents,
    total_cents: o.totalCents,
    status: o.status,
    shipping_status: o.shippingStatus,
    tracking_number: o.trackingNumber,
    feedback: o.feedback,
    held: o.held ? 1 : 0,
    hold_expires_at: o.holdExpiresAt,
    address_verified: bool(o.addressVerified),
    channel: o.channel,
  };
}

export function rowToOrder(r: OrderRow): OrderRecord {
  return OrderRecord.parse({
    id: r.id,
    orderNumber: r.order_number,
    eventSlug: r.event_slug,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    customerPhone: r.customer_phone,
    fulfillmentType: r.fulfillment_type,
    shippingAddress: r.shipping_address,
    city: r.city,
    state: r.state,
    zipCode: r.zip_code,
    items: JSON.parse(r.items),
    subtotalCents: r.subtotal_cents,
    shippingFeeCents: r.shipping_fee_cents,
    totalCents: r.total_cents,
    status: r.status,
    shippingStatus: r.shipping_status,
    trackingNumber: r.tracking_number,
    feedback: r.feedback,
    held: r.held === 1,
    holdExpiresAt: r.hold_expires_at,
    addressVerified: r.address_verified === null ? null : r.address_verified === 1,
    channel: r.channel,
  });
}

export type MailRow = {
  id: string;
  kind: string;
  order_id: string | null;
  payload: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  sent_via: string | null;
};

export function mailToRow(j: MailJob): MailRow {
  return {
    id: j.id,
    kind: j.kind,
    order_id: j.orderId,
    payload: JSON.stringify(j.payload),
    attempts: j.attempts,
    next_attempt_at: j.nextAttemptAt,
    last_error: j.lastError,
    created_at: j.createdAt,
    sent_at: j.sentAt,
    sent_via: j.sentVia,
  };
}

export function rowToMail(r: MailRow): MailJob {
  return MailJob.parse({
    id: r.id,
    kind: r.kind,
    orderId: r.order_id,
    payload: JSON.parse(r.payload),
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    sentVia: r.sent_via,
  });
}

export type PushRow = {
  endpoint: string;
  order_key: string;
  p256dh: string;
  auth: string;
  scope: string;
  order_id: string | null;
  created_at: string;
};

export function rowToPush(r: PushRow): PushSubscriptionRecord {
  return PushSubscriptionRecord.parse({
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    scope: r.scope,
    orderId: r.order_id,
    createdAt: r.created_at,
  });
}

export type IdempotencyRow = {
  key: string;
  fingerprint: string;
  state: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
};

export function rowToIdempotency(r: IdempotencyRow): IdempotencyRecord {
  return IdempotencyRecord.parse({
    key: r.key,
    fingerprint: r.fingerprint,
    state: r.state,
    statusCode: r.status_code,
    responseBody: r.response_body,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  });
}

export function parseSettings(json: string): EventSettings {
  return EventSettings.parse(JSON.parse(json));
}
