/**
 * Orders for store tests: `newOrder()` is a valid NewOrder with the totals computed from its
 * lines (override any field), `orderIn(orders, status)` creates one and moves it along the
 * path of docs/contract.md, "Status and shipping", to the status asked for.
 */
import type { NewOrder, OrderLine, OrderRecord, OrderStatus } from '../../src/domain/order.js';
import type { OrdersPort } from '../../src/services/store/ports/orders.js';

/** An admin as the history names one (`admin:` and 8 hex digits). */
export const ADMIN = 'admin:0123abcd' as const;

const DEFAULT_LINES: OrderLine[] = [
  { photoNumber: '12', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
  { photoNumber: '0007', size: '8x10', quantity: 1, unitCents: 2000, lineCents: 2000 },
];

export function newOrder(over: Partial<NewOrder> = {}): NewOrder {
  const items = over.items ?? DEFAULT_LINES;
  const subtotalCents = over.subtotalCents ?? items.reduce((sum, l) => sum + l.lineCents, 0);
  const fulfillmentType = over.fulfillmentType ?? 'ship';
  const shippingFeeCents = over.shippingFeeCents ?? (fulfillmentType === 'ship' ? 500 : 0);
  return {
    prefix: 'AX25',
    eventSlug: 'AX2025',
    customerName: 'Ada Lovelace',
    customerEmail: 'ada@example.com',
    customerPhone: '+1 555 010 0000',
    fulfillmentType,
    shippingAddress: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    held: false,
    holdExpiresAt: null,
    addressVerified: true,
    channel: 'web',
    ...over,
    items,
    subtotalCents,
    shippingFeeCents,
    totalCents: over.totalCents ?? subtotalCents + shippingFeeCents,
  };
}

/** Creates an order and moves it to `status` by allowed transitions (pending → paid / void / cancelled). */
export async function orderIn(
  orders: OrdersPort,
  status: OrderStatus,
  over: Partial<NewOrder> = {},
): Promise<OrderRecord> {
  const created = await orders.create(newOrder(over), { by: 'customer' });
  if (status === 'pending') return created;
  return (await orders.update(created.id, { status }, { by: ADMIN })).order;
}

/** A paid order with every line marked printed: ready to ship or hand over (docs/contract.md, "Fulfilment"). */
export async function printedOrder(orders: OrdersPort, over: Partial<NewOrder> = {}): Promise<OrderRecord> {
  const paid = await orderIn(orders, 'paid', over);
  const lines = paid.items.map((_line, i) => i);
  const [marked] = await orders.markPrinted(new Map([[paid.id, lines]]), { by: ADMIN });
  return marked?.order ?? paid;
}
