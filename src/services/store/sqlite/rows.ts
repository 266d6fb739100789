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
