/**
 * The Stripe provider, with the real `stripe` client against the local emulator
 * (test/support/stripe-emulator.ts): Checkout Sessions, signed webhooks, refunds, faults.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isAppError } from '../../../src/errors/catalogue.js';
import { clientAddress, createStripeProvider } from '../../../src/services/payments/stripe.js';
import type { CheckoutRequest, PaymentProvider } from '../../../src/services/payments/types.js';
import { type StripeEmulator, startStripeEmulator } from '../../support/stripe-emulator.js';

const ORDER_ID = '6f1c2a3e-0d4b-4c5a-9e8f-123456789abc';
const request: CheckoutRequest = {
  orderId: ORDER_ID,
  orderNumber: 'AX26-0007',
  description: 'Anime Expo 2026: Photo #1 (4x6) x2 = $10.00',
  totalCents: 2350,
  customerEmail: 'ada@example.com',
  successUrl: 'http://photos.test/order/AX26-0007?paid=1',
  cancelUrl: 'http://photos.test/order/AX26-0007',
};

let emulator: StripeEmulator;
let provider: PaymentProvider;

beforeEach(async () => {
  emulator = await startStripeEmulator();
  provider = createStripeProvider({
    secretKey: emulator.secretKey,
    webhookSecret: emulator.webhookSecret,
    apiUrl: emulator.url,
    maxNetworkRetries: 0,
  });
});
afterEach(() => emulator.close());

async function appErrorOf(p: Promise<unknown> | (() => unknown)) {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return isAppError(err) ? { code: err.code, details: err.details } : { code: String(err) };
  }
  return undefined;
}

describe('createCheckout', () => {
  test('one line for the order total, in dollars, naming the order; the page URL comes back', async () => {
    const session = await provider.createCheckout(request);
    const stored = emulator.sessions.get(session.sessionId);
    expect(session.url).toBe(`${emulator.url}/pay/${session.sessionId}`);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    expect(stored).toMatchObject({
      amount_total: 2350,
      currency: 'usd',
      client_reference_id: ORDER_ID,
      customer_email: 'ada@example.com',
      metadata: { orderId: ORDER_ID, orderNumber: 'AX26-0007' },
      payment_intent_metadata: { orderId: ORDER_ID, orderNumber: 'AX26-0007' },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    expect(stored?.line_items).toEqual([
      { quantity: 1, currency: 'usd', unit_amount: 2350, name: 'Order AX26-0007', description: request.description },
    ]);
  });

  test('asked twice for the same order and total: the same page (idempotency key)', async () => {
    const a = await provider.createCheckout(request);
    const b = await provider.createCheckout(request);
    expect(b.sessionId).toBe(a.sessionId);
    expect(emulator.sessions.size).toBe(1);
    expect(emulator.requests.map((r) => r.idempotencyKey)).toEqual([
      `checkout-${ORDER_ID}-2350`,
      `checkout-${ORDER_ID}-2350`,
    ]);
  });

  test('below Stripe’s minimum the provider refuses before calling', async () => {
    await expect(provider.createCheckout({ ...request, totalCents: 49 })).rejects.toThrow(RangeError);
    expect(emulator.requests).toEqual([]);
    expect(provider.minimumCents).toBe(50);
  });

  test('Stripe down or refusing the key: 503 PAYMENT_UNAVAILABLE', async () => {
    emulator.failNext(503);
    expect(await appErrorOf(provider.createCheckout(request))).toMatchObject({ code: 'PAYMENT_UNAVAILABLE' });
    const wrongKey = createStripeProvider({
      secretKey: 'sk_test_wrongwrongwrong',
      webhookSecret: emulator.webhookSecret,
      apiUrl: emulator.url,
      maxNetworkRetries: 0,
    });
    expect(await appErrorOf(wrongKey.createCheckout(request))).toMatchObject({ code: 'PAYMENT_UNAVAILABLE' });
    const nowhere = createStripeProvider({
      secretKey: emulator.secretKey,
      webhookSecret: emulator.webhookSecret,
      apiUrl: 'http://127.0.0.1:1',
      maxNetworkRetries: 0,
    });
    expect(await appErrorOf(nowhere.createCheckout(request))).toMatchObject({ code: 'PAYMENT_UNAVAILABLE' });
  });

  test('a failed call is retried with the same idempotency key, and makes one page', async () => {
    const retrying = createStripeProvider({
      secretKey: emulator.secretKey,
      webhookSecret: emulator.webhookSecret,
      apiUrl: emulator.url,
      maxNetworkRetries: 1,
    });
    emulator.failNext(503);
    const session = await retrying.createCheckout(request);
    expect(emulator.requests).toHaveLength(2);
    expect(new Set(emulator.requests.map((r) => r.idempotencyKey)).size).toBe(1);
    expect([...emulator.sessions.keys()]).toEqual([session.sessionId]);
  });
});

describe('verifyWebhook', () => {
  test('a paid checkout, as delivered: the order, amount, currency and payment', async () => {
    const session = await provider.createCheckout(request);
    const delivery = await emulator.pay(session.sessionId);
    const event = provider.verifyWebhook(Buffer.from(delivery.payload), delivery.signature);
    expect(event).toEqual({
      kind: 'checkoutCompleted',
      eventId: delivery.id,
      sessionId: session.sessionId,
      orderId: ORDER_ID,
      paid: true,
      amountCents: 2350,
      currency: 'usd',
      paymentIntentId: emulator.sessions.get(session.sessionId)?.payment_intent,
    });
  });

  test('a wrong secret, an altered body, an old signature or none: 400 WEBHOOK_SIGNATURE_INVALID', async () => {
    const good = emulator.signedEvent('checkout.session.completed', { id: 'cs_1', amount_total: 100, currency: 'usd' });
    const cases: [Buffer, string | undefined][] = [
      [Buffer.from(good.payload), emulator.signedEvent('x', {}, { secret: 'whsec_someoneelse00' }).signature],
      [Buffer.from(good.payload.replace('"amount_total": 100', '"amount_total": 1')), good.signature],
      [Buffer.from(good.payload), undefined],
      [Buffer.from(good.payload), 'garbage'],
    ];
    const stale = emulator.signedEvent(
      'checkout.session.completed',
      { id: 'cs_1' },
      { timestamp: Date.now() / 1000 - 301 },
    );
    cases.push([Buffer.from(stale.payload), stale.signature]);
    for (const [body, header] of cases) {
      expect(await appErrorOf(() => provider.verifyWebhook(body, header))).toMatchObject({
        code: 'WEBHOOK_SIGNATURE_INVALID',
      });
    }
    // The same bytes with their own signature pass.
    expect(provider.verifyWebhook(Buffer.from(good.payload), good.signature).kind).toBe('checkoutCompleted');
  });
});

describe('refund', () => {
  test('refunds what the session paid, once; a repeat says it was refunded already', async () => {
    const session = await provider.createCheckout(request);
    expect(await provider.refund(session.sessionId)).toEqual({ refunded: false, reason: 'notPaid' });
    await emulator.pay(session.sessionId);
    const first = await provider.refund(session.sessionId);
    expect(first).toMatchObject({ refunded: true, amountCents: 2350, alreadyRefunded: false });
    expect(emulator.refunds).toHaveLength(1);
    expect(emulator.refunds[0]?.payment_intent).toBe(emulator.sessions.get(session.sessionId)?.payment_intent);
    // Same key: Stripe answers the first refund again.
    expect(await provider.refund(session.sessionId)).toEqual(first);
    expect(emulator.refunds).toHaveLength(1);
  });

  test('a payment refunded elsewhere first (the dashboard) counts as refunded', async () => {
    const session = await provider.createCheckout(request);
    await emulator.pay(session.sessionId);
    const pi = emulator.sessions.get(session.sessionId)?.payment_intent as string;
    const dashboard = await fetch(`${emulator.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${pi}`,
    });
    expect(dashboard.status).toBe(200);
    expect(await provider.refund(session.sessionId)).toEqual({
      refunded: true,
      refundId: null,
      amountCents: null,
      alreadyRefunded: true,
    });
    expect(emulator.refunds).toHaveLength(1);
  });

  test('an unknown session: 500, it is a bug of ours', async () => {
    expect(await appErrorOf(provider.refund('cs_test_nope'))).toMatchObject({ code: 'INTERNAL' });
  });
});

test('STRIPE_API_URL becomes host, port and protocol', () => {
  expect(clientAddress('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: '12111', protocol: 'http' });
  expect(clientAddress('https://stripe.example')).toEqual({ host: 'stripe.example', port: 443, protocol: 'https' });
  expect(clientAddress(undefined)).toEqual({});
});
