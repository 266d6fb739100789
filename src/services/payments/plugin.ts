/**
 * Online payment (docs/contract.md, "Selling"), decorated as `fastify.payments`:
 * - `provider`: the Stripe provider with PAYMENT_PROVIDER=stripe, else null (payment is
 *   taken at the booth and nothing here runs);
 * - `receive`: a webhook delivery, checked (signature on the raw body) and handled once
 *   per event id (event-ledger.ts).
 *
 * What a handled event does to an order (paid on a completed checkout whose amount and
 * currency match, void on a full refund) comes with the order store's payment fields; until
 * then each event is logged with what it would do.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../../errors/catalogue.js';
import { createEventLedger } from './event-ledger.js';
import { createStripeProvider } from './stripe.js';
import type { PaymentEvent, PaymentProvider } from './types.js';

export type PaymentEventHandler = (event: PaymentEvent) => Promise<void>;

export interface Payments {
  readonly provider: PaymentProvider | null;
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

export function createPayments(provider: PaymentProvider | null, handle: PaymentEventHandler): Payments {
  const ledger = createEventLedger();
  return {
    provider,
    async receive(rawBody, signatureHeader) {
      if (!provider) throw appError('NOT_FOUND', { message: 'Online payment is not configured' });
      const event = provider.verifyWebhook(rawBody, signatureHeader);
      const { duplicate } = await ledger.once(event.eventId, () => handle(event));
      return { eventId: event.eventId, kind: event.kind, duplicate };
    },
  };
}

async function paymentsPlugin(fastify: FastifyInstance) {
  const { config } = fastify;
  const log = fastify.log.child({ component: 'payments' });
  const provider =
    config.PAYMENT_PROVIDER === 'stripe'
      ? createStripeProvider({
          // Both are required with PAYMENT_PROVIDER=stripe (checked at start-up).
          secretKey: config.STRIPE_SECRET_KEY as string,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET as string,
          apiUrl: config.STRIPE_API_URL,
        })
      : null;
  if (provider)
    log.info({ apiUrl: config.STRIPE_API_URL ?? 'https://api.stripe.com' }, 'online payment through Stripe');
  const handle: PaymentEventHandler = async (event) => {
    log.info({ event }, `payment event ${event.kind} received (orders are not updated from it yet)`);
  };
  fastify.decorate('payments', createPayments(provider, handle));
}

export default fp(paymentsPlugin, { name: 'payments', dependencies: ['config'] });
