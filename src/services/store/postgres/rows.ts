/**
 * Row → record mapping for PostgreSQL; every row is parsed with the domain zod schemas here.
 * `bigint` columns arrive as strings and `timestamptz` as Dates: both are converted first.
 */
import { OrderRecord } from '../../../domain/order.js';
import { EventSettings, IdempotencyRecord, MailJob, PushSubscriptionRecord } from '../port.js';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();
const isoReq = (v: Date | string): string => iso(v) as string;

export type OrderRow = {
  id: string;
  order_number: string;
  event_slug: string;
  created_at: Date;
  updated_at: Date;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  fulfillment_type: string;
  shipping_address: string;
  city: string;
  state: string;
  zip_code: string;
  items: unknown;
  subtotal_cents: string | number;
  shipping_fee_cents: string | number;
  total_cents: string | number;
  status: string;
  shipping_status: string;
  tracking_number: string;
  feedback: string;
  held: boolean;
  hold_expires_at: Date | null;
  address_verified: boolean | null;
  channel: string;
};

export const ORDER_COLUMNS = `id, order_number, event_slug, created_at, updated_at, customer_name, customer_email,
  customer_phone, fulfillment_type, shipping_address, city, state, zip_code, items, subtotal_cents,
  shipping_fee_cents, total_cents, status, shipping_status, tracking_number, feedback, held,
  hold_expires_at, address_verified, channel`;

export function rowToOrder(r: OrderRow): OrderRecord {
  return OrderRecord.parse({
    id: r.id,
    orderNumber: r.order_number,
    eventSlug: r.event_slug,
    createdAt: isoReq(r.created_at),
    updatedAt: isoReq(r.updated_at),
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    customerPhone: r.customer_phone,
    fulfillmentType: r.fulfillment_type,
    shippingAddress: r.shipping_address,
    city: r.city,
    state: r.state,
    zipCode: r.zip_code,
    items: r.items,
    subtotalCents: Number(r.subtotal_cents),
    shippingFeeCents: Number(r.shipping_fee_cents),
    totalCents: Number(r.total_cents),
    status: r.status,
    shippingStatus: r.shipping_status,
    trackingNumber: r.tracking_number,
    feedback: r.feedback,
    held: r.held,
    holdExpiresAt: iso(r.hold_expires_at),
    addressVerified: r.address_verified,
    channel: r.channel,
  });
}

/** The values of an order, in ORDER_COLUMNS order (for INSERT ... VALUES ($1, ...)). */
export function orderValues(o: OrderRecord): unknown[] {
  return [
    o.id,
    o.orderNumber,
    o.eventSlug,
    o.createdAt,
    o.updatedAt,
    o.customerName,
    o.customerEmail,
    o.customerPhone,
    o.fulfillmentType,
    o.shippingAddress,
    o.city,
    o.state,
    o.zipCode,
    JSON.stringify(o.items),
    o.subtotalCents,
    o.shippingFeeCents,
    o.totalCents,
    o.status,
    o.shippingStatus,
    o.trackingNumber,
    o.feedback,
    o.held,
    o.holdExpiresAt,
    o.addressVerified,
    o.channel,
  ];
}

export type MailRow = {
  id: string;
  kind: string;
  order_id: string | null;
  payload: unknown;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  sent_via: string | null;
};

export function rowToMail(r: MailRow): MailJob {
  return MailJob.parse({
    id: r.id,
    kind: r.kind,
    orderId: r.order_id,
    payload: r.payload,
    attempts: r.attempts,
    nextAttemptAt: isoReq(r.next_attempt_at),
    lastError: r.last_error,
    createdAt: isoReq(r.created_at),
    sentAt: iso(r.sent_at),
    sentVia: r.sent_via,
  });
}

export type PushRow = {
  endpoint: string;
  p256dh: string;
  auth: string;
  scope: string;
  order_id: string | null;
  created_at: Date;
};

export function rowToPush(r: PushRow): PushSubscriptionRecord {
  return PushSubscriptionRecord.parse({
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    scope: r.scope,
    orderId: r.order_id,
    createdAt: isoReq(r.created_at),
  });
}

export type IdempotencyRow = {
  key: string;
  fingerprint: string;
  state: string;
  status_code: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
};

export function rowToIdempotency(r: IdempotencyRow): IdempotencyRecord {
  return IdempotencyRecord.parse({
    key: r.key,
    fingerprint: r.fingerprint,
    state: r.state,
    statusCode: r.status_code,
    responseBody: r.response_body,
    createdAt: isoReq(r.created_at),
    expiresAt: isoReq(r.expires_at),
  });
}

export function parseSettings(value: unknown): EventSettings {
  return EventSettings.parse(value);
}
