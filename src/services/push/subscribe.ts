/**
 * `fastify.push.subscribe` (docs/contract.md, "Notifications", who may subscribe to what;
 * "Hardening, round 2", the cap per order): a browser's subscription, saved for the admin's
 * every order event or for one order proven by its email address.
 */
import { orderEmailMatches } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PushSubscriptionsPort } from '../store/ports/push-subscriptions.js';
import type { PushSubscribe } from './types.js';

/** Subscriptions one order may have: the customer's phone, tablet and laptop, and room to spare. */
export const MAX_PUSH_PER_ORDER = 10;

export function createPushSubscribe(deps: {
  orders: Pick<OrdersPort, 'get'>;
  subscriptions: Pick<PushSubscriptionsPort, 'save'>;
}): PushSubscribe {
  return async (sub, admin) => {
    const { orderNumber, email } = sub;
    let orderId: string | null = null;
    let label = 'every order event';
    if (!admin) {
      if (orderNumber === undefined || email === undefined) {
        if (orderNumber === undefined && email === undefined) {
          throw appError('UNAUTHORIZED', { details: "Send admin credentials, or the order's orderNumber and email" });
        }
        const field = orderNumber === undefined ? 'orderNumber' : 'email';
        throw appError('VALIDATION_FAILED', { details: [{ in: 'body', field, message: 'required' }] });
      }
      const order = await deps.orders.get(orderNumber);
      // Compared even when there is no order: an unknown order and another email are not told apart.
      if (!orderEmailMatches(order ?? { customerEmail: '' }, email) || !order) {
        throw appError('ORDER_NOT_FOUND', { details: 'No order with that number and email address' });
      }
      orderId = order.id;
      label = `order ${order.orderNumber}`;
    }
    const { created, full } = await deps.subscriptions.save(
      {
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh.replace(/=+$/, ''),
        auth: sub.keys.auth.replace(/=+$/, ''),
        scope: admin ? 'admin' : 'order',
        orderId,
        createdAt: new Date().toISOString(),
      },
      { maxPerOrder: MAX_PUSH_PER_ORDER },
    );
    if (full) {
      throw appError('SUBSCRIPTION_LIMIT', {
        details: `An order takes at most ${MAX_PUSH_PER_ORDER} push subscriptions`,
      });
    }
    return { created, label, scope: admin ? 'admin' : 'order' };
  };
}
