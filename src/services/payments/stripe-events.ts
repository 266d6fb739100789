/**
 * Stripe webhook events reduced to the PaymentEvents the order flow acts on (types.ts).
 * Only the fields used are read, each checked with zod: an event of another API version that
 * lacks one is `ignored`, never a crash.
 */
import { z } from 'zod';
import type { PaymentEvent } from './types.js';

const Metadata = z.record(z.string(), z.string()).nullish();
const idOf = z.union([z.string(), z.object({ id: z.string() })]).nullish();

const Session = z.object({
  id: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_intent: idOf,
});

const Charge = z.object({
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  refunded: z.boolean().nullish(),
  payment_intent: idOf,
  metadata: Metadata,
});

const StripeEventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: z.unknown() }),
});

const refOf = (v: z.infer<typeof idOf>): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

export function toPaymentEvent(raw: unknown): PaymentEvent {
  const envelope = StripeEventEnvelope.safeParse(raw);
  if (!envelope.success) {
    const id = typeof raw === 'object' && raw !== null && 'id' in raw ? String(raw.id) : '';
    return { kind: 'ignored', eventId: id, type: 'unreadable' };
  }
  const { id: eventId, type } = envelope.data;
  const object = envelope.data.data.object;
  const ignored: PaymentEvent = { kind: 'ignored', eventId, type };

  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = Session.safeParse(object);
      if (!s.success) return ignored;
      return {
        kind: 'checkoutCompleted',
        eventId,
        sessionId: s.data.id,
        orderId: s.data.client_reference_id ?? s.data.metadata?.orderId ?? null,
        paid: type === 'checkout.session.async_payment_succeeded' || s.data.payment_status !== 'unpaid',
        amountCents: s.data.amount_total ?? null,
        currency: s.data.currency ?? null,
        paymentIntentId: refOf(s.data.payment_intent),
      };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = Session.safeParse(object);
      if (!s.success) return ignored;
      return {
        kind: 'checkoutFailed',
        eventId,
        sessionId: s.data.id,
        orderId: s.data.client_reference_id ?? s.data.metadata?.orderId ?? null,
      };
    }
    case 'charge.refunded': {
      const c = Charge.safeParse(object);
      if (!c.success) return ignored;
      return {
        kind: 'refunded',
        eventId,
        orderId: c.data.metadata?.orderId ?? null,
        paymentIntentId: refOf(c.data.payment_intent),
        amountCents: c.data.amount,
        refundedCents: c.data.amount_refunded,
        full: c.data.refunded === true || c.data.amount_refunded >= c.data.amount,
      };
    }
    default:
      return ignored;
  }
}

/** The currency every order is charged in. */
export const CURRENCY = 'usd';

/**
 * Whether a completed checkout paid the order: the order's total, in dollars. A payment
 * that differs (an old page after the order was edited, a forged or replayed session) does
 * not mark the order paid.
 */
export function paymentMatchesOrder(
  payment: { amountCents: number | null; currency: string | null },
  order: { totalCents: number },
): { ok: true } | { ok: false; reason: string } {
  if (payment.currency?.toLowerCase() !== CURRENCY) {
    return { ok: false, reason: `paid in ${payment.currency ?? 'an unknown currency'}, not ${CURRENCY}` };
  }
  if (payment.amountCents !== order.totalCents) {
    return {
      ok: false,
      reason: `paid ${payment.amountCents ?? 'an unknown amount'} cents, the order is ${order.totalCents}`,
    };
  }
  return { ok: true };
}
