/**
 * What a push says. Admin subscriptions get the customer's name and the total; an order's
 * own subscriptions (the customer's browser) get only their order's news. The service worker
 * of the web app shows `title`/`body` and opens `url` on click.
 */
import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import type { OrderEvent } from './types.js';

export type PushPayload = {
  title: string;
  body: string;
  orderNumber: string;
  url: string;
  /** Which change this is, for the service worker (`created`, `status`, `shipping`, `pickup`). */
  event: OrderEvent;
  status: string;
  shippingStatus: string;
  /** Same tag for the same order: a newer notification replaces an older one on screen. */
  tag: string;
};

export type PushAudience = 'admin' | 'order';

const STATUS_WORDS: Record<string, string> = {
  pending: 'is pending',
  paid: 'is paid',
  void: 'was voided',
  cancelled: 'was cancelled',
};

/** Where a click leads: the admin view of the order, or the customer's order page. */
function pushUrl(publicBaseUrl: string, audience: PushAudience, orderNumber: string): string {
  const n = encodeURIComponent(orderNumber);
  return audience === 'admin' ? `${publicBaseUrl}/admin?order=${n}` : `${publicBaseUrl}/?order=${n}`;
}

/** A pickup order's booth status, for the customer (docs/contract.md, "Fulfilment"). */
const PICKUP_WORDS: Record<string, { title: string; body: string }> = {
  ready: {
    title: 'is ready for pickup',
    body: 'Collect your prints at the booth; show your order number or its QR code.',
  },
  collected: { title: 'was collected', body: 'Thank you, and enjoy your prints.' },
  waiting: { title: 'is being prepared', body: 'We will tell you when it is ready for pickup.' },
};

const oneLine = (s: string, max: number) => s.replace(/\s+/g, ' ').trim().slice(0, max);

/** What a new order asks of the photographer. */
const FULFILMENT_WORDS = { ship: 'to ship', pickup: 'pickup', digital: 'digital files' } as const;

export function pushPayload(
  event: OrderEvent,
  order: OrderRecord,
  audience: PushAudience,
  publicBaseUrl: string,
): PushPayload {
  const n = order.orderNumber;
  let title: string;
  let body: string;
  if (audience === 'admin') {
    const who = `${oneLine(order.customerName, 60)} · ${formatCents(order.totalCents)}`;
    if (event === 'created') {
      title = `New order ${n}`;
      body = `${who} · ${FULFILMENT_WORDS[order.fulfillmentType]}`;
    } else if (event === 'status') {
      title = `Order ${n} ${STATUS_WORDS[order.status] ?? order.status}`;
      body = who;
    } else if (event === 'pickup') {
      title = `Order ${n} ${order.pickupStatus ?? 'pickup'}`;
      body = who;
    } else {
      title = order.shippingStatus === 'shipped' ? `Order ${n} shipped` : `Order ${n} no longer marked shipped`;
      body = order.trackingNumber ? `${who} · tracking ${oneLine(order.trackingNumber, 60)}` : who;
    }
  } else if (event === 'pickup') {
    const words = PICKUP_WORDS[order.pickupStatus ?? 'waiting'] ?? { title: 'was updated', body: '' };
    title = `Your order ${n} ${words.title}`;
    body = words.body;
  } else if (event === 'shipping') {
    title = order.shippingStatus === 'shipped' ? `Your order ${n} has shipped` : `Update on your order ${n}`;
    body =
      order.shippingStatus === 'shipped'
        ? order.trackingNumber
          ? `Tracking number: ${oneLine(order.trackingNumber, 60)}`
          : 'It is on its way.'
        : 'Its shipment is being prepared again.';
  } else {
    title = `Your order ${n} ${STATUS_WORDS[order.status] ?? order.status}`;
    body = `Total ${formatCents(order.totalCents)}`;
  }
  return {
    title,
    body,
    orderNumber: n,
    url: pushUrl(publicBaseUrl, audience, n),
    event,
    status: order.status,
    shippingStatus: order.shippingStatus,
    tag: `order-${n}`,
  };
}
