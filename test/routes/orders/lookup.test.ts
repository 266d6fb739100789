/**
 * `POST /api/orders/lookup`: a customer reads their own order with its number and email;
 * nothing more than the customer view, and no way to tell a wrong email from an unknown order.
 */
import { describe, expect, test } from 'vitest';
import { CustomerOrder } from '../../../src/routes/orders/lookup-schemas.js';
import { AX, appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const MANY = { RATE_LIMIT_LOOKUP_PER_MIN: '1000' };

const lookup = (app: Parameters<typeof call>[0], payload: unknown) =>
  call(app, { method: 'POST', url: '/api/orders/lookup', payload, admin: false });

describe('POST /api/orders/lookup', () => {
  test('number + email: the customer view of the order, and nothing else', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'paid', { customerEmail: 'Ada@Example.com', shipped: true });
    const res = await lookup(app, { orderNumber: order.orderNumber, email: 'ada@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(body).toEqual({
      orderNumber: order.orderNumber,
      eventSlug: AX,
      eventName: 'Anime Expo 2025',
      status: 'paid',
      shippingStatus: 'shipped',
      trackingNumber: '1Z999',
      pickupStatus: null,
      fulfillmentType: 'ship',
      items: expect.stringMatching(/^Photo #\d+ \(\w+\) x\d+ = \$\d+\.\d\d/),
      subtotal: expect.stringMatching(/^\$\d+\.\d\d$/),
      discount: '$0.00',
      couponCode: null,
      shippingFee: '$5.00',
      total: expect.stringMatching(/^\$\d+\.\d\d$/),
      paymentUrl: null,
      paymentInstructions: null,
      tracking: null,
      downloads: [],
      createdAt: order.createdAt,
      updatedAt: expect.any(String),
      verificationRequired: false,
    });
    expect(CustomerOrder.parse(body)).toEqual(body);
    // Nothing that identifies or locates the customer, nor the id.
    const text = res.body;
    // The phone ('+1 555 010 0000') by its spaced digit groups, not a bare '555': a
    // timestamp's milliseconds can be 555.
    const phoneParts = ['555 010', '010 0000'];
    for (const secret of [
      order.id,
      'Ada Lovelace',
      'Example.com',
      'example.com',
      ...phoneParts,
      'Main St',
      'Springfield',
    ]) {
      expect(text).not.toContain(secret);
    }
    for (const key of ['id', 'customerName', 'customerEmail', 'customerPhone', 'shippingAddress', 'city', 'zipCode']) {
      expect(body).not.toHaveProperty(key);
    }
  });

  test('the number in any case and without zero padding; the email case-insensitive and trimmed', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending', { fulfillmentType: 'pickup' });
    expect(order.orderNumber).toBe('AX25-0001');
    for (const orderNumber of ['AX25-0001', 'ax25-0001', 'AX25-1', ' #ax25-00001 ']) {
      const res = await lookup(app, { orderNumber, email: '  ADA@example.COM ' });
      expect(res.statusCode, orderNumber).toBe(200);
      expect(res.json()).toMatchObject({
        orderNumber: 'AX25-0001',
        status: 'pending',
        fulfillmentType: 'pickup',
        shippingFee: '$0.00',
      });
    }
  });

  test('a held high-value order says it waits for the email confirmation; void and cancelled show as such', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const held = await orderIn(app, 'pending', {
      held: true,
      holdExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    const voided = await orderIn(app, 'void');
    const cancelled = await orderIn(app, 'cancelled');
    const of = async (n: string) => (await lookup(app, { orderNumber: n, email: 'ada@example.com' })).json();
    expect(await of(held.orderNumber)).toMatchObject({ status: 'pending', verificationRequired: true });
    expect(await of(voided.orderNumber)).toMatchObject({ status: 'void', verificationRequired: false });
    expect(await of(cancelled.orderNumber)).toMatchObject({ status: 'cancelled' });
  });

  test('an unpaid order says how to pay (the saved business settings, at once); a shipped USPS, UPS or FedEx number links to its tracking page', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const of = async (n: string) => (await lookup(app, { orderNumber: n, email: 'ada@example.com' })).json();
    const unpaid = await orderIn(app, 'pending');
    expect((await of(unpaid.orderNumber)).paymentInstructions).toMatch(/booth/);
    const saved = await call(app, {
      method: 'PUT',
      url: '/api/settings',
      payload: { paymentInstructions: 'Venmo @jane-doe-photos with your order number.' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await of(unpaid.orderNumber)).toMatchObject({
      status: 'pending',
      shippingStatus: 'ship',
      paymentInstructions: 'Venmo @jane-doe-photos with your order number.',
      tracking: null,
    });
    // Paid: nothing left to pay; shipped with a carrier's number: the link.
    const shipped = await orderIn(app, 'paid', { printed: true });
    expect((await of(shipped.orderNumber)).paymentInstructions).toBeNull();
    const cases = [
      ['1Z999AA10123456784', 'UPS', 'https://www.ups.com/track?tracknum=1Z999AA10123456784'],
      [
        '9400 1000 0000 0000 0000 00',
        'USPS',
        'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000',
      ],
      ['123456789012', 'FedEx', 'https://www.fedex.com/fedextrack/?trknbr=123456789012'],
    ] as const;
    for (const [trackingNumber, carrier, url] of cases) {
      const res = await call(app, {
        method: 'POST',
        url: `/api/orders/${shipped.id}/update-shipping`,
        payload: { trackingNumber },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await of(shipped.orderNumber)).tracking).toEqual({ carrier, url });
    }
    await call(app, {
      method: 'POST',
      url: `/api/orders/${shipped.id}/update-shipping`,
      payload: { trackingNumber: 'LOCAL-7' },
    });
    expect(await of(shipped.orderNumber)).toMatchObject({ trackingNumber: 'LOCAL-7', tracking: null });
  });

  test('wrong email and unknown order: the same 404 ORDER_NOT_FOUND, byte for byte', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    const wrongEmail = await lookup(app, { orderNumber: order.orderNumber, email: 'eve@example.com' });
    const unknown = await lookup(app, { orderNumber: 'AX25-0999', email: 'ada@example.com' });
    const otherPrefix = await lookup(app, { orderNumber: 'ZZ-0001', email: 'ada@example.com' });
    expectError(wrongEmail, 404, 'ORDER_NOT_FOUND');
    expect(unknown.body).toBe(wrongEmail.body);
    expect(otherPrefix.body).toBe(wrongEmail.body);
    expect(wrongEmail.body).not.toContain(order.orderNumber);
    // A prefix of the address, or the address with another domain, is not the address.
    for (const email of ['ada@example', 'ada@example.co', 'da@example.com', `${'a'.repeat(254)}`]) {
      expect((await lookup(app, { orderNumber: order.orderNumber, email })).statusCode).toBe(404);
    }
  });

  test('bad input: 400 VALIDATION_FAILED; not JSON: 415; unknown fields refused', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    for (const payload of [
      {},
      { orderNumber: 'AX25-0001' },
      { email: 'ada@example.com' },
      { orderNumber: 'AX25-0001', email: '' },
      { orderNumber: 'AX25-0001', email: '   ' },
      { orderNumber: 'AX25-0001', email: 'a'.repeat(255) },
      { orderNumber: 'not a number', email: 'ada@example.com' },
      { orderNumber: 'TOOLONGPREFIX-0001', email: 'ada@example.com' },
      { orderNumber: 12, email: 'ada@example.com' },
      { orderNumber: 'AX25-0001', email: 'ada@example.com', id: 'x' },
      [],
      'null',
    ]) {
      expectError(await lookup(app, payload), 400, 'VALIDATION_FAILED');
    }
    const text = await app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      headers: { 'content-type': 'text/plain' },
      payload: 'AX25-0001 ada@example.com',
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    // The email never travels in the URL: there is no GET.
    expect((await app.inject({ url: '/api/orders/lookup?email=ada@example.com' })).statusCode).not.toBe(200);
  });

  test('rate limited per client address (RATE_LIMIT_LOOKUP_PER_MIN) with Retry-After; found or not counts; admins exempt', async (t) => {
    const app = await appWithEvents(t, {
      env: { RATE_LIMIT_LOOKUP_PER_MIN: '3', RATE_LIMIT_FEEDBACK_PER_MIN: '1000' },
    });
    const order = await orderIn(app, 'pending');
    const good = { orderNumber: order.orderNumber, email: 'ada@example.com' };
    expect((await lookup(app, good)).statusCode).toBe(200);
    expect((await lookup(app, { ...good, email: 'x@example.com' })).statusCode).toBe(404);
    expect((await lookup(app, good)).statusCode).toBe(200);
    const limited = await lookup(app, good);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own quota; feedback has its own group.
    const other = await app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: good,
      remoteAddress: '203.0.113.9',
    });
    expect(other.statusCode).toBe(200);
    const feedback = await call(app, {
      method: 'POST',
      url: `/api/orders/${order.orderNumber}/feedback`,
      payload: { feedback: 'Still counting?', email: 'ada@example.com' },
      admin: false,
    });
    expect(feedback.statusCode).toBe(200);
    // Booth staff with admin credentials are never limited.
    const admin = await call(app, { method: 'POST', url: '/api/orders/lookup', payload: good });
    expect(admin.statusCode).toBe(200);
  });
});
