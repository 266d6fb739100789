import { describe, expect, test } from 'vitest';
import { paymentMatchesOrder, toPaymentEvent } from '../../../src/services/payments/stripe-events.js';

const session = {
  id: 'cs_test_1',
  object: 'checkout.session',
  client_reference_id: 'order-1',
  metadata: { orderId: 'order-1' },
  payment_status: 'paid',
  amount_total: 2500,
  currency: 'usd',
  payment_intent: 'pi_1',
};
const event = (type: string, object: unknown) => ({ id: 'evt_1', object: 'event', type, data: { object } });

describe('toPaymentEvent', () => {
  test('checkout completed: paid, or not yet for a delayed method; async success pays', () => {
    expect(toPaymentEvent(event('checkout.session.completed', session))).toEqual({
      kind: 'checkoutCompleted',
      eventId: 'evt_1',
      sessionId: 'cs_test_1',
      orderId: 'order-1',
      paid: true,
      amountCents: 2500,
      currency: 'usd',
      paymentIntentId: 'pi_1',
    });
    const pending = { ...session, payment_status: 'unpaid', client_reference_id: null };
    expect(toPaymentEvent(event('checkout.session.completed', pending))).toMatchObject({
      paid: false,
      orderId: 'order-1',
    });
    expect(toPaymentEvent(event('checkout.session.async_payment_succeeded', pending))).toMatchObject({ paid: true });
    const expanded = { ...session, payment_intent: { id: 'pi_2', object: 'payment_intent' } };
    expect(toPaymentEvent(event('checkout.session.completed', expanded))).toMatchObject({ paymentIntentId: 'pi_2' });
  });

  test('expired and failed checkouts', () => {
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      expect(toPaymentEvent(event(type, session))).toEqual({
        kind: 'checkoutFailed',
        eventId: 'evt_1',
        sessionId: 'cs_test_1',
        orderId: 'order-1',
      });
    }
  });

  test('charge refunded: full or partial, with the order from the metadata', () => {
    const charge = {
      amount: 2500,
      amount_refunded: 1000,
      refunded: false,
      payment_intent: 'pi_1',
      metadata: { orderId: 'o' },
    };
    expect(toPaymentEvent(event('charge.refunded', charge))).toEqual({
      kind: 'refunded',
      eventId: 'evt_1',
      orderId: 'o',
      paymentIntentId: 'pi_1',
      amountCents: 2500,
      refundedCents: 1000,
      full: false,
    });
    expect(
      toPaymentEvent(event('charge.refunded', { ...charge, amount_refunded: 2500, refunded: true })),
    ).toMatchObject({
      full: true,
    });
  });

  test('other types, and known types whose object lacks what is read, are ignored', () => {
    expect(toPaymentEvent(event('customer.created', {}))).toEqual({
      kind: 'ignored',
      eventId: 'evt_1',
      type: 'customer.created',
    });
    expect(toPaymentEvent(event('charge.refunded', { amount: 'lots' }))).toMatchObject({ kind: 'ignored' });
    expect(toPaymentEvent({ nothing: true })).toMatchObject({ kind: 'ignored', type: 'unreadable' });
  });
});

test('paymentMatchesOrder: the total to the cent, in dollars', () => {
  expect(paymentMatchesOrder({ amountCents: 2500, currency: 'USD' }, { totalCents: 2500 })).toEqual({ ok: true });
  expect(paymentMatchesOrder({ amountCents: 2499, currency: 'usd' }, { totalCents: 2500 }).ok).toBe(false);
  expect(paymentMatchesOrder({ amountCents: 2500, currency: 'eur' }, { totalCents: 2500 }).ok).toBe(false);
  expect(paymentMatchesOrder({ amountCents: null, currency: null }, { totalCents: 2500 }).ok).toBe(false);
});
