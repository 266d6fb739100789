/**
 * The Stripe provider (PAYMENT_PROVIDER=stripe; docs/contract.md, "Selling") through the
 * official client. STRIPE_API_URL points it at another host (an emulator in tests). Every
 * write carries an idempotency key derived from the order or the session, so a retry (ours
 * or the client's own) never makes a second page or a second refund.
 */
import Stripe from 'stripe';
import { type AppError, appError } from '../../errors/catalogue.js';
import { CURRENCY, toPaymentEvent } from './stripe-events.js';
import type { CheckoutSession, PaymentProvider, RefundOutcome } from './types.js';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** Another API host, e.g. `http://127.0.0.1:12111`; unset: api.stripe.com. */
  apiUrl?: string | undefined;
  /** ms per request (default 10 s). */
  timeoutMs?: number;
  /** How old a delivery's signature may be, in seconds (Stripe's default, 300). */
  toleranceSeconds?: number;
  /** Retries of a failed call (with the same idempotency key); default 2. */
  maxNetworkRetries?: number;
};

/** Stripe's smallest charge in USD. */
const MINIMUM_CENTS = 50;
/** Stripe's line-item text limits. */
const MAX_NAME = 250;
const MAX_DESCRIPTION = 500;

/** `host`, `port` and `protocol` for the client from STRIPE_API_URL. */
export function clientAddress(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const u = new URL(apiUrl);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: u.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Stripe's own errors as ours: unreachable or refusing us is 503 PAYMENT_UNAVAILABLE; anything else is a bug (500). */
function providerError(err: unknown, doing: string): AppError {
  const unavailable =
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeAPIError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    err instanceof Stripe.errors.StripeAuthenticationError ||
    err instanceof Stripe.errors.StripePermissionError;
  if (unavailable) {
    return appError('PAYMENT_UNAVAILABLE', {
      message: `The payment provider cannot ${doing} right now`,
      details: 'Try again in a minute; the order itself is kept',
      headers: { 'Retry-After': '30' },
      cause: err,
    });
  }
  return appError('INTERNAL', { message: `Stripe refused to ${doing}`, cause: err });
}

export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    ...clientAddress(settings.apiUrl),
    timeout: settings.timeoutMs ?? 10_000,
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    telemetry: false,
  });
  const tolerance = settings.toleranceSeconds ?? 300;

  return {
    name: 'stripe',
    minimumCents: MINIMUM_CENTS,

    async createCheckout(r): Promise<CheckoutSession> {
      if (!Number.isSafeInteger(r.totalCents) || r.totalCents < MINIMUM_CENTS) {
        throw new RangeError(`an online payment is at least ${MINIMUM_CENTS} cents, not ${r.totalCents}`);
      }
      const metadata = { orderId: r.orderId, orderNumber: r.orderNumber };
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            // One line for the order's total: discounts and packages are already in it, so
            // the amount charged is the order's, to the cent.
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: CURRENCY,
                  unit_amount: r.totalCents,
                  product_data: {
                    name: `Order ${r.orderNumber}`.slice(0, MAX_NAME),
                    ...(r.description ? { description: r.description.slice(0, MAX_DESCRIPTION) } : {}),
                  },
                },
              },
            ],
            client_reference_id: r.orderId,
            metadata,
            // Charges and refunds carry the order too (charge.refunded names it).
            payment_intent_data: { metadata },
            customer_email: r.customerEmail,
            success_url: r.successUrl,
            cancel_url: r.cancelUrl,
          },
          { idempotencyKey: `checkout-${r.orderId}-${r.totalCents}` },
        );
      } catch (err) {
        throw providerError(err, 'open a payment page');
      }
      if (!session.url) throw appError('INTERNAL', { message: 'Stripe answered a Checkout Session without a URL' });
      return {
        sessionId: session.id,
        url: session.url,
        expiresAt: new Date(session.expires_at * 1000).toISOString(),
      };
    },

    verifyWebhook(rawBody, signatureHeader) {
      if (!signatureHeader) {
        throw appError('WEBHOOK_SIGNATURE_INVALID', { details: 'No Stripe-Signature header' });
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, settings.webhookSecret, tolerance);
      } catch (err) {
        throw appError('WEBHOOK_SIGNATURE_INVALID', {
          details:
            err instanceof Stripe.errors.StripeSignatureVerificationError
              ? 'The signature does not match the body, or it is too old'
              : 'The body is not a Stripe event',
        });
      }
      return toPaymentEvent(event);
    },

    async refund(sessionId): Promise<RefundOutcome> {
      let paymentIntent: string | null;
      try {
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        const pi = session.payment_intent;
        paymentIntent = pi === null ? null : typeof pi === 'string' ? pi : pi.id;
      } catch (err) {
        throw providerError(err, 'look up the payment');
      }
      if (paymentIntent === null) return { refunded: false, reason: 'notPaid' };
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntent },
          { idempotencyKey: `refund-${sessionId}` },
        );
        return { refunded: true, refundId: refund.id, amountCents: refund.amount, alreadyRefunded: false };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'charge_already_refunded') {
          return { refunded: true, refundId: null, amountCents: null, alreadyRefunded: true };
        }
        throw providerError(err, 'refund the payment');
      }
    },
  };
}
