/**
 * Online payment (docs/contract.md, "Selling"), as `fastify.payments`: `provider` is null
 * without PAYMENT_PROVIDER=stripe (payment at the booth; the rest are no-ops). `receive`
 * checks a webhook delivery's signature on the raw body and handles it once per event id.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OrderRecord } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { paymentOrders } from './orders.js';
import type { PaymentEvent, PaymentProvider } from './types.js';

export interface Payments {
  readonly provider: PaymentProvider | null;
  /** The order with its checkout opened, when a provider is set and the order can be paid online. */
  openCheckout(order: OrderRecord): Promise<OrderRecord>;
  /** Refunds a paid online order that is about to be voided (throws 503 PAYMENT_UNAVAILABLE when it can't). */
  refundBeforeVoid(order: OrderRecord): Promise<void>;
  receive(
    rawBody: Buffer,
    signatureHeader: string | undefined,
  ): Promise<{ eventId: string; kind: PaymentEvent['kind']; duplicate: boolean }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

async function paymentsPlugin(fastify: FastifyInstance) {
  const { config } = fastify;
  const log = fastify.log.child({ component: 'payments' });
  const provider =
    config.PAYMENT_PROVIDER === 'stripe'
      ? // Loaded only when selling online: the Stripe client is ~250 files to read at start.
        (await import('./stripe.js')).createStripeProvider({
          // Both are required with PAYMENT_PROVIDER=stripe (checked at start-up).
          secretKey: config.STRIPE_SECRET_KEY as string,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET as string,
          apiUrl: config.STRIPE_API_URL,
        })
      : null;
  if (!provider) {
    fastify.decorate('payments', {
      provider: null,
      openCheckout: async (order) => order,
      refundBeforeVoid: async () => {},
      receive: async () => {
        throw appError('NOT_FOUND', { message: 'Online payment is not configured' });
      },
    } satisfies Payments);
    return;
  }
  log.info({ apiUrl: config.STRIPE_API_URL ?? 'https://api.stripe.com' }, 'online payment through Stripe');
  const handler = paymentOrders({
    provider,
    orders: fastify.store.orders,
    paymentEvents: fastify.store.paymentEvents,
    publicBaseUrl: config.publicBaseUrl,
    log,
    // A paid or refunded order is announced: push to the admin, its mail, auto-print.
    onChange: (order, what) => {
      try {
        fastify.push.notifyOrder(what, order);
        fastify.notifier.kick();
        if (order.status === 'paid') fastify.printing.orderPaid(order);
      } catch (err) {
        log.warn({ err, orderNumber: order.orderNumber }, 'could not announce a payment');
      }
    },
  });
  fastify.decorate('payments', {
    provider,
    openCheckout: handler.openCheckout,
    refundBeforeVoid: handler.refundBeforeVoid,
    async receive(rawBody, signatureHeader) {
      const event = provider.verifyWebhook(rawBody, signatureHeader);
      const { duplicate } = await handler.handle(event);
      return { eventId: event.eventId, kind: event.kind, duplicate };
    },
  } satisfies Payments);
}

export default fp(paymentsPlugin, {
  name: 'payments',
  dependencies: ['config', 'store', 'notifier', 'push', 'printing'],
});
