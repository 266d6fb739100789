/**
 * `POST /api/payments/stripe/webhook`: the raw body checked against Stripe's signature,
 * each event handled once; without a provider, nothing is there. Deliveries come from the
 * Stripe emulator over real HTTP (the app listens on loopback), signed as Stripe signs them.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { build, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { ErrorBody } from '../../support/orders-fixtures.js';
import { type StripeEmulator, startStripeEmulator } from '../../support/stripe-emulator.js';

const URL = '/api/payments/stripe/webhook';
let emulator: StripeEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function stripeApp(t: Parameters<typeof build>[0]): Promise<{ app: TestApp; base: string; emu: StripeEmulator }> {
  const emu = await startStripeEmulator();
  emulator = emu;
  const app = await build(t, {
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: emu.secretKey,
      STRIPE_WEBHOOK_SECRET: emu.webhookSecret,
      STRIPE_API_URL: emu.url,
    },
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  emu.webhookUrl = `${base}${URL}`;
  return { app, base, emu };
}

describe('POST /api/payments/stripe/webhook', () => {
  test('a paid checkout delivered by Stripe: 200, handled once; a redelivery is a duplicate', async (t) => {
    const { app, base, emu } = await stripeApp(t);
    const provider = app.payments.provider;
    if (!provider) throw new Error('expected the Stripe provider');
    const session = await provider.createCheckout({
      orderId: '6f1c2a3e-0d4b-4c5a-9e8f-123456789abc',
      orderNumber: 'AX26-0001',
      description: 'two prints',
      totalCents: 1500,
      customerEmail: 'ada@example.com',
      successUrl: `${base}/order/AX26-0001`,
      cancelUrl: `${base}/order/AX26-0001`,
    });
    // The customer pays on the hosted page; the emulator delivers the event to the app.
    const page = await fetch(session.url, { method: 'POST', redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${base}/order/AX26-0001`);
    expect(emu.deliveries).toEqual([{ type: 'checkout.session.completed', status: 200 }]);

    const again = emu.signedEvent('checkout.session.completed', { id: session.sessionId });
    const post = (payload: string, signature: string) =>
      app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        payload,
      });
    const first = await post(again.payload, again.signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, eventId: again.id, kind: 'checkoutCompleted', duplicate: false });
    expectMatchesOpenApi('POST', URL, first);
    const second = await post(again.payload, again.signature);
    expect(second.json()).toMatchObject({ eventId: again.id, duplicate: true });
  });

  test('a refund made through the provider is delivered back as charge.refunded', async (t) => {
    const { app, emu } = await stripeApp(t);
    const provider = app.payments.provider;
    if (!provider) throw new Error('expected the Stripe provider');
    const session = await provider.createCheckout({
      orderId: '6f1c2a3e-0d4b-4c5a-9e8f-123456789abc',
      orderNumber: 'AX26-0001',
      description: '',
      totalCents: 900,
      customerEmail: 'ada@example.com',
      successUrl: 'http://photos.test/ok',
      cancelUrl: 'http://photos.test/no',
    });
    await emu.pay(session.sessionId);
    await provider.refund(session.sessionId);
    await emu.settled();
    expect(emu.deliveries.map((d) => [d.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
      ['charge.refunded', 200],
    ]);
  });

  test('bad, altered, re-serialised or missing signatures: 400 WEBHOOK_SIGNATURE_INVALID', async (t) => {
    const { app, emu } = await stripeApp(t);
    const good = emu.signedEvent('checkout.session.completed', { id: 'cs_1', amount_total: 500, currency: 'usd' });
    const forged = emu.signedEvent('checkout.session.completed', { id: 'cs_1' }, { secret: 'whsec_attacker0000' });
    const cases: { payload: string; signature?: string }[] = [
      { payload: good.payload, signature: forged.signature },
      { payload: good.payload.replace('500', '5'), signature: good.signature },
      // The same event parsed and written again (other whitespace) no longer matches.
      { payload: JSON.stringify(JSON.parse(good.payload)), signature: good.signature },
      { payload: good.payload },
      { payload: 'not json', signature: good.signature },
    ];
    for (const c of cases) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': 'application/json', ...(c.signature ? { 'stripe-signature': c.signature } : {}) },
        payload: c.payload,
      });
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json()).code).toBe('WEBHOOK_SIGNATURE_INVALID');
      expectMatchesOpenApi('POST', URL, res);
    }
  });

  test('without a payment provider: 404 NOT_FOUND, whatever is sent', async (t) => {
    const app = await build(t);
    expect(app.payments.provider).toBeNull();
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{"id":"evt_1"}',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('the raw parser stays in its scope: other routes still parse JSON', async (t) => {
    const { app } = await stripeApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/api/quote',
      payload: { eventSlug: 'none', lines: [{ photo: 1 }] },
    });
    expect(res.json()).toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });
});
