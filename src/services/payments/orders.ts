/**
 * What online payment does to orders (docs/contract.md, "Selling"):
 * - `openCheckout`: best effort; when the provider cannot be reached the order stands,
 *   payable at the booth, and the next look at the order page tries again.
 * - `handle`: a webhook event is acted on once per event id: the id is recorded in the
 *   change's own transaction, so a crash between the two is impossible. A completed checkout
 *   marks paid only the order whose recorded session is the event's ("Hardening, round 2"):
 *   `client_reference_id` is a hint any checkout on the account can forge. A mismatch is
 *   logged and never marks paid nor refunds (that money is not this order's).
 * - `refundBeforeVoid`: refunds once: the refund's idempotency key is the session's, and an
 *   order paid online can leave `paid` only by void (src/domain/transitions.ts).
 */
import { formatItems } from '../../domain/items.js';
import type { OrderRecord } from '../../domain/order.js';
import type { Logger } from '../../lib/logger.js';
import { paidJobs } from '../notifier/jobs.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PaymentEventsPort } from '../store/ports/payment-events.js';
import { paymentMatchesOrder } from './stripe-events.js';
import type { PaymentEvent, PaymentProvider } from './types.js';

export type PaymentOrderDeps = {
  provider: PaymentProvider;
  orders: Pick<OrdersPort, 'get' | 'update' | 'attachPayment'>;
  paymentEvents: PaymentEventsPort;
  /** The public origin, for the pages Stripe sends the customer back to. */
  publicBaseUrl: string;
  log: Logger;
  /** An order the provider changed: push notifications and the mail worker (the plugin wires them). */
  onChange?: (order: OrderRecord, what: 'status') => void;
};

export type Handled = { duplicate: boolean };

export function paymentOrders(deps: PaymentOrderDeps) {
  const { provider, orders, paymentEvents, log } = deps;

  async function openCheckout(order: OrderRecord): Promise<OrderRecord> {
    if (order.held || order.status !== 'pending' || order.payment !== null) return order;
    if (order.totalCents < provider.minimumCents) return order;
    const page = `${deps.publicBaseUrl}/order/${encodeURIComponent(order.orderNumber)}`;
    try {
      const session = await provider.createCheckout({
        orderId: order.id,
        orderNumber: order.orderNumber,
        description: formatItems(order.items),
        totalCents: order.totalCents,
        customerEmail: order.customerEmail,
        successUrl: `${page}?paid=1`,
        cancelUrl: page,
      });
      const result = await orders.attachPayment(
        order.id,
        { provider: provider.name, sessionId: session.sessionId, url: session.url },
        { by: 'system' },
      );
      return result.order;
    } catch (err) {
      log.warn(
        { err, orderNumber: order.orderNumber },
        'could not open an online checkout; the order is payable at the booth',
      );
      return order;
    }
  }

  const record = async (event: PaymentEvent, orderId: string | null): Promise<Handled> => ({
    duplicate: !(await paymentEvents.record(event.eventId, event.kind, orderId)),
  });

  async function handle(event: PaymentEvent): Promise<Handled> {
    if (await paymentEvents.seen(event.eventId)) return { duplicate: true };
    const tag = { id: event.eventId, kind: event.kind };
    if (event.kind === 'ignored' || event.kind === 'checkoutFailed') return record(event, null);
    const order = event.orderId ? await orders.get(event.orderId) : null;
    if (!order) {
      log.warn({ event }, 'payment event for an order this server does not know');
      return record(event, null);
    }
    if (event.kind === 'checkoutCompleted') {
      if (!event.paid) return record(event, order.id);
      if (order.payment?.sessionId !== event.sessionId) {
        log.error(
          { event, orderNumber: order.orderNumber, orderSession: order.payment?.sessionId ?? null },
          'a completed checkout names this order but is not its Checkout Session: the order is left as it is',
        );
        return record(event, order.id);
      }
      const match = paymentMatchesOrder(event, order);
      if (!match.ok) {
        log.error({ event, orderNumber: order.orderNumber }, `payment does not match the order: ${match.reason}`);
        return record(event, order.id);
      }
      if (order.status === 'pending') {
        const result = await orders.update(
          order.id,
          { status: 'paid' },
          { by: 'stripe', paymentEvent: tag, mail: paidJobs(order) },
        );
        if (result.changed) {
          log.info({ orderNumber: order.orderNumber }, 'order paid online');
          deps.onChange?.(result.order, 'status');
        }
        return { duplicate: result.duplicate === true };
      }
      if (order.status === 'void' || order.status === 'cancelled') {
        // Paid after it was called off (a page left open): the money goes back.
        log.warn({ orderNumber: order.orderNumber }, `payment for a ${order.status} order: refunding it`);
        await provider.refund(event.sessionId);
      }
      return record(event, order.id);
    }
    // refunded
    if (event.full && order.status === 'paid') {
      const result = await orders.update(order.id, { status: 'void' }, { by: 'stripe', paymentEvent: tag });
      if (result.changed) {
        log.info({ orderNumber: order.orderNumber }, 'order refunded in full: void');
        deps.onChange?.(result.order, 'status');
      }
      return { duplicate: result.duplicate === true };
    }
    return record(event, order.id);
  }

  async function refundBeforeVoid(order: OrderRecord): Promise<void> {
    if (order.status !== 'paid' || order.payment === null) return;
    const outcome = await provider.refund(order.payment.sessionId);
    log.info({ orderNumber: order.orderNumber, outcome }, 'paid online order voided: refund');
  }

  return { openCheckout, handle, refundBeforeVoid };
}
