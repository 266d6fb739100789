/**
 * Online payment and downloads on the store, on both engines, through the real `stripe`
 * client against the Stripe emulator (deliveries over real HTTP, signed as Stripe signs
 * them): a new order carries `paymentUrl`; paying marks it paid through the order-change
 * rules (history by `stripe`); the order page and the paid receipt carry the download link;
 * a redelivery after a restart is a duplicate and the download count survives it; amounts
 * are checked; a full refund voids; voiding a paid online order refunds it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { describeOnAppEngines } from '../../support/app-engines.js';
import { EVENT, expectError, ORDER_TEST_ENV, outbox } from '../../support/orders-fixtures.js';
import { cameraPhoto, sellingApp } from '../../support/selling-fixtures.js';
import { type StripeEmulator, startStripeEmulator } from '../../support/stripe-emulator.js';

const WEBHOOK = '/api/payments/stripe/webhook';
let emulators: StripeEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.map((e) => e.close()));
  emulators = [];
});

function stripeEnv(emu: StripeEmulator): Record<string, string> {
  return {
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: emu.secretKey,
    STRIPE_WEBHOOK_SECRET: emu.webhookSecret,
    STRIPE_API_URL: emu.url,
    DOWNLOAD_MAX: '2',
  };
}

async function listen(app: TestApp, emu: StripeEmulator): Promise<void> {
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  emu.webhookUrl = `${base}${WEBHOOK}`;
}

/** An order of photo 1 as a digital file and photo 2 as a 4x6 print, picked up: $13.00. */
async function placeOrder(app: TestApp, over: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: {
      eventSlug: EVENT,
      photos: [
        { number: '1', size: 'digital', quantity: 1 },
        { number: '2', size: '4x6', quantity: 1 },
      ],
      customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ...over,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { orderNumber: string; total: string; paymentUrl: string | null };
}

/** A selling app with Stripe at the emulator, listening for its deliveries, and a way to post an event by hand. */
async function stripeApp(t: Parameters<typeof sellingApp>[0], storeEnv: Record<string, string>) {
  const emu = await startStripeEmulator();
  emulators.push(emu);
  const app = await sellingApp(t, { env: { ...storeEnv, ...stripeEnv(emu) }, earlyBird: false });
  await listen(app, emu);
  const post = (e: { payload: string; signature: string }) =>
    app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
      payload: e.payload,
    });
  return { emu, app, post };
}

const sessionOf = (url: string) => url.split('/').pop() as string;
const adminOrder = async (app: TestApp, n: string) =>
  (await app.inject({ url: `/api/orders/${n}`, headers: adminHeaders })).json();

describeOnAppEngines('online payment and downloads', (storeEnv) => {
  test('paymentUrl → paid by the webhook → download links on the order page and in the receipt; a redelivery after a restart is a duplicate; counts survive it', async (t) => {
    const emu = await startStripeEmulator();
    emulators.push(emu);
    const env = { ...(await storeEnv(t)), ...stripeEnv(emu) };
    const app = await sellingApp(t, { env, earlyBird: false });
    await writeFile(
      path.join(app.dataDir, 'photos', EVENT, 'Day 1', 'Cosplay', 'img0001.jpg'),
      await cameraPhoto({ width: 300, height: 200 }),
    );
    await app.photos.rescan();
    await listen(app, emu);
    await app.inject({
      method: 'POST',
      url: '/api/coupons',
      headers: adminHeaders,
      payload: { code: 'TWOOFF', kind: 'amount', value: 2 },
    });

    const created = await placeOrder(app, { couponCode: 'twooff' });
    expect(created.total).toBe('$11.00');
    expect(created.paymentUrl).toMatch(new RegExp(`^${emu.url}/pay/cs_`));
    const sessionId = sessionOf(created.paymentUrl as string);
    expect(emu.sessions.get(sessionId)).toMatchObject({ amount_total: 1100, currency: 'usd' });
    const pending = await adminOrder(app, created.orderNumber);
    expect(pending).toMatchObject({ status: 'pending', paymentUrl: created.paymentUrl, couponCode: 'TWOOFF' });
    // Before payment: no links.
    const lookup = () =>
      app.inject({
        method: 'POST',
        url: '/api/orders/lookup',
        payload: { orderNumber: created.orderNumber, email: 'ada@example.com' },
      });
    expect((await lookup()).json()).toMatchObject({ paymentUrl: created.paymentUrl, downloads: [] });

    // The customer pays on the hosted page; Stripe delivers checkout.session.completed.
    const event = await emu.pay(sessionId);
    expect(emu.deliveries).toEqual([{ type: 'checkout.session.completed', status: 200 }]);
    const paid = await adminOrder(app, created.orderNumber);
    expect(paid).toMatchObject({ status: 'paid', paymentUrl: null });
    expect(paid.history.map((h: { action: string; by: string; to?: string }) => [h.action, h.to, h.by])).toEqual([
      ['create', 'pending', expect.stringMatching(/^admin:/)],
      ['payment', sessionId, 'system'],
      ['status', 'paid', 'stripe'],
    ]);

    const page = (await lookup()).json();
    expectMatchesOpenApi('POST', '/api/orders/lookup', await lookup());
    expect(page.downloads).toHaveLength(1);
    expect(page.downloads[0]).toMatchObject({ line: 1, photoNumber: '1' });
    const link = (page.downloads[0].url as string).replace(/^https?:\/\/[^/]+/, '');
    const first = await app.inject({ url: link });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-downloads-remaining']).toBe('1');

    // The paid receipt carries the same link.
    await app.notifier.flush();
    const mails = await outbox(app.dataDir);
    const receipt = mails.find((m) => m.subject.includes('paid, receipt'));
    expect(receipt?.text).toContain(page.downloads[0].url);
    expect(receipt?.text).toContain('Discount (coupon TWOOFF): -$2.00');

    // A restart: the event ids and the counts are in the store, not in memory.
    await app.close();
    const again = await build(t, { dataDir: app.dataDir, env: { ...ORDER_TEST_ENV, ...env } });
    const redelivered = await again.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
    expect(redelivered.json()).toMatchObject({ eventId: event.id, duplicate: true });
    expect((await adminOrder(again, created.orderNumber)).history).toHaveLength(3);
    expect((await again.inject({ url: link })).headers['x-downloads-remaining']).toBe('0');
    const usedUp = await again.inject({ url: link });
    expect(
      JSON.parse(expectError(usedUp, 'GET', '/api/downloads/{token}', 403, 'DOWNLOAD_UNAVAILABLE').details),
    ).toEqual({
      reason: 'usedUp',
    });
  }, 60_000);

  test('a payment of another amount does not mark the order paid; a full refund voids; voiding a paid online order refunds it', async (t) => {
    const { emu, app, post } = await stripeApp(t, await storeEnv(t));

    // Someone else's amount for this order: recorded, not paid.
    const a = await placeOrder(app);
    const aId = (await adminOrder(app, a.orderNumber)).id;
    const wrong = emu.signedEvent('checkout.session.completed', {
      id: sessionOf(a.paymentUrl as string),
      client_reference_id: aId,
      payment_status: 'paid',
      amount_total: 100,
      currency: 'usd',
    });
    expect((await post(wrong)).json()).toMatchObject({ kind: 'checkoutCompleted', duplicate: false });
    expect((await adminOrder(app, a.orderNumber)).status).toBe('pending');

    // Paid, then refunded in full from Stripe's dashboard: void, by stripe.
    await emu.pay(sessionOf(a.paymentUrl as string));
    expect((await adminOrder(app, a.orderNumber)).status).toBe('paid');
    const refunded = emu.signedEvent('charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      amount: 1300,
      amount_refunded: 1300,
      refunded: true,
      currency: 'usd',
      metadata: { orderId: aId },
    });
    expect((await post(refunded)).json()).toMatchObject({ kind: 'refunded', duplicate: false });
    const voided = await adminOrder(app, a.orderNumber);
    expect(voided.status).toBe('void');
    expect(voided.history.at(-1)).toMatchObject({ action: 'status', from: 'paid', to: 'void', by: 'stripe' });

    // The photographer voids a paid online order: refunded through Stripe first.
    const b = await placeOrder(app);
    await emu.pay(sessionOf(b.paymentUrl as string));
    emu.failNext(500, 3);
    const failed = await app.inject({
      method: 'PUT',
      url: `/api/orders/${b.orderNumber}`,
      headers: adminHeaders,
      payload: { status: 'void' },
    });
    expectError(failed, 'PUT', '/api/orders/{id}', 503, 'PAYMENT_UNAVAILABLE');
    expect((await adminOrder(app, b.orderNumber)).status).toBe('paid');
    const res = await app.inject({
      method: 'PUT',
      url: `/api/orders/${b.orderNumber}`,
      headers: adminHeaders,
      payload: { status: 'void' },
    });
    expect(res.json()).toMatchObject({ status: 'void' });
    await emu.settled();
    expect(emu.refunds).toHaveLength(1);
    expect(emu.refunds[0]).toMatchObject({ amount: 1300 });
    // Stripe's charge.refunded for it arrives: the order is void already, nothing changes.
    expect(emu.deliveries.at(-1)).toEqual({ type: 'charge.refunded', status: 200 });
    const history = (await adminOrder(app, b.orderNumber)).history;
    expect(history.filter((h: { action: string }) => h.action === 'status')).toHaveLength(2);
  }, 60_000);

  test('round 2: a completed checkout marks paid only the order whose recorded session it is', async (t) => {
    const { emu, app, post } = await stripeApp(t, await storeEnv(t));
    const a = await placeOrder(app);
    const b = await placeOrder(app);
    const aId = (await adminOrder(app, a.orderNumber)).id;
    // Signed by Stripe, the right amount, and client_reference_id naming order A: but the
    // session is order B's, then one this server never opened (a Payment Link, say).
    for (const id of [sessionOf(b.paymentUrl as string), 'cs_test_from_a_payment_link']) {
      const forged = emu.signedEvent('checkout.session.completed', {
        id,
        client_reference_id: aId,
        metadata: { orderId: aId },
        payment_status: 'paid',
        amount_total: 1300,
        currency: 'usd',
        payment_intent: 'pi_someone_elses',
      });
      expect((await post(forged)).json()).toMatchObject({ kind: 'checkoutCompleted', duplicate: false });
      expect((await adminOrder(app, a.orderNumber)).status).toBe('pending');
    }
    expect((await adminOrder(app, b.orderNumber)).status).toBe('pending');
    // Nothing was refunded either: that money is not this order's.
    expect(emu.refunds).toHaveLength(0);
    // Its own session pays it.
    await emu.pay(sessionOf(a.paymentUrl as string));
    expect((await adminOrder(app, a.orderNumber)).status).toBe('paid');
    expect((await adminOrder(app, b.orderNumber)).status).toBe('pending');
  }, 60_000);

  test('round 2: an order paid online cannot go back to pending; voiding it refunds it once', async (t) => {
    const { emu, app } = await stripeApp(t, await storeEnv(t));
    const order = await placeOrder(app);
    await emu.pay(sessionOf(order.paymentUrl as string));
    expect((await adminOrder(app, order.orderNumber)).status).toBe('paid');
    // Within the undo window, by the owner, on both routes: refused (it would keep the money
    // on an order that looks unpaid, and cancelling it then refunded nothing).
    const put = (status: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/orders/${order.orderNumber}`,
        headers: adminHeaders,
        payload: { status },
      });
    const undo = await put('pending');
    expectError(undo, 'PUT', '/api/orders/{id}', 409, 'INVALID_TRANSITION');
    expect(undo.json().error).toMatch(/paid online/);
    const viaStatus = await app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderNumber}/update-status`,
      headers: adminHeaders,
      payload: { status: 'pending' },
    });
    expectError(viaStatus, 'POST', '/api/orders/{id}/update-status', 409, 'INVALID_TRANSITION');
    expectError(await put('cancelled'), 'PUT', '/api/orders/{id}', 409, 'INVALID_TRANSITION');
    const view = await adminOrder(app, order.orderNumber);
    expect(view).toMatchObject({ status: 'paid', undoPaidUntil: null });

    // Void, three times, two of them at once: one refund of the whole payment.
    const voids = await Promise.all([put('void'), put('void')]);
    for (const r of voids) expect(r.statusCode, r.body).toBe(200);
    expect((await put('void')).statusCode).toBe(200);
    await emu.settled();
    expect(emu.refunds).toHaveLength(1);
    expect(emu.refunds[0]).toMatchObject({ amount: 1300 });
    const after = await adminOrder(app, order.orderNumber);
    expect(after.status).toBe('void');
    expect(
      after.history.filter((h: { action: string }) => h.action === 'status').map((h: { to: string }) => h.to),
    ).toEqual(['paid', 'void']);
  }, 60_000);

  test('without a provider nothing changes: no paymentUrl, booth payment as before', async (t) => {
    const app = await sellingApp(t, { env: await storeEnv(t), earlyBird: false });
    const order = await placeOrder(app);
    expect(order.paymentUrl).toBeNull();
    expect((await adminOrder(app, order.orderNumber)).paymentUrl).toBeNull();
  });
});
