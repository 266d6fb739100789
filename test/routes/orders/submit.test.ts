/**
 * `POST /api/orders` (interface variant B): the items text, the client's figures against
 * the server's, the event from the Referer, and numbering under concurrency.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import {
  bodyB,
  EVENT,
  expectError,
  OTHER_EVENT,
  ordersApp,
  PREFIX,
  solvedCaptcha,
} from '../../support/orders-fixtures.js';

const URL = '/api/orders';

describe('POST /api/orders', () => {
  test('a web order with a solved ALTCHA: 201 with the created Order', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      payload: bodyB({ captchaToken: await solvedCaptcha(app) }),
    });
    expect(res.statusCode).toBe(201);
    expectMatchesOpenApi('POST', URL, res);
    const order = res.json();
    expect(order).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orderNumber: `${PREFIX}-0001`,
      eventSlug: EVENT,
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
      customerPhone: '555-010-1234',
      fulfillmentType: 'ship',
      shippingAddress: '123 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      items: 'Photo #1 (4x6) x2 = $10.00; Photo #2 (5x7) x1 = $10.00',
      subtotal: '$20.00',
      discount: '$0.00',
      couponCode: null,
      shippingFee: '$5.00',
      total: '$25.00',
      paymentUrl: null,
      status: 'pending',
      shippingStatus: 'ship',
      trackingNumber: '',
      feedback: '',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      verificationRequired: false,
      addressVerified: true,
      channel: 'web',
      pickupStatus: null,
    });
    expect(new Date(order.createdAt).toISOString()).toBe(order.createdAt);
    // Durable before the response: what the store holds is what was answered.
    const stored = await app.store.orders.get(order.id);
    expect(stored?.orderNumber).toBe(order.orderNumber);
  });

  test('lines without amounts, newline-separated, any case; pickup pays no shipping', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({
        fulfillmentType: 'pickup',
        shippingAddress: '',
        city: '',
        state: '',
        zipCode: '',
        items: 'photo #3 (8X10) x1\nPhoto # 0004 ( 4x6 ) × 3 = 15.00\n',
        subtotal: '35',
        shippingFee: '$0.00',
        total: '$35.00',
      }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      items: 'Photo #3 (8x10) x1 = $20.00; Photo #4 (4x6) x3 = $15.00',
      subtotal: '$35.00',
      shippingFee: '$0.00',
      total: '$35.00',
      fulfillmentType: 'pickup',
      addressVerified: null,
      channel: 'booth',
    });
  });

  test('price tampering: each money field and a line amount → 400 PRICE_MISMATCH with the server figures', async (t) => {
    const app = await ordersApp(t);
    const server = {
      items: 'Photo #1 (4x6) x2 = $10.00; Photo #2 (5x7) x1 = $10.00',
      lines: [
        { line: 1, photoNumber: '1', size: '4x6', quantity: 2, unitPrice: '$5.00', amount: '$10.00' },
        { line: 2, photoNumber: '2', size: '5x7', quantity: 1, unitPrice: '$10.00', amount: '$10.00' },
      ],
      subtotal: '$20.00',
      packages: [],
      packageSavings: '$0.00',
      earlyBird: null,
      coupon: null,
      discount: '$0.00',
      shippingFee: '$5.00',
      total: '$25.00',
    };
    const cases = [
      [{ subtotal: '$2.00' }, { field: 'subtotal', expected: '$20.00', received: '$2.00' }],
      [{ shippingFee: '$0.00' }, { field: 'shippingFee', expected: '$5.00', received: '$0.00' }],
      [{ total: '$0.01' }, { field: 'total', expected: '$25.00', received: '$0.01' }],
      [{ total: '-$25.00' }, { field: 'total', expected: '$25.00', received: '-$25.00' }],
      [
        { items: 'Photo #1 (4x6) x2 = $1.00; Photo #2 (5x7) x1 = $10.00' },
        { field: 'items', line: 1, expected: '$10.00', received: '$1.00' },
      ],
    ] as const;
    for (const [over, mismatch] of cases) {
      const res = await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyB(over) });
      const { parsed } = expectError(res, 'POST', URL, 400, 'PRICE_MISMATCH');
      expect(parsed).toEqual({ ...server, mismatches: [mismatch] });
    }
    // A pickup order claiming the shipping fee is a mismatch too.
    const pickup = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ fulfillmentType: 'pickup' }),
    });
    const { parsed } = expectError(pickup, 'POST', URL, 400, 'PRICE_MISMATCH');
    expect(parsed).toMatchObject({
      shippingFee: '$0.00',
      total: '$20.00',
      mismatches: [
        { field: 'shippingFee', expected: '$0.00', received: '$5.00' },
        { field: 'total', expected: '$20.00', received: '$25.00' },
      ],
    });
    expect(await app.store.orders.list({ includeHeld: true })).toEqual([]);
  });

  test('unreadable amounts and items: 400 VALIDATION_FAILED naming them', async (t) => {
    const app = await ordersApp(t);
    const money = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ total: 'lots' }),
    });
    const { parsed } = expectError(money, 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(parsed).toEqual([{ in: 'body', field: 'total', message: expect.any(String) }]);

    const items = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ items: 'Photo #1 (4x6) x2; two of photo 2; Photo #3 (4x6) x0' }),
    });
    const bad = expectError(items, 'POST', URL, 400, 'VALIDATION_FAILED');
    expect((bad.parsed as { line: number }[]).map((d) => d.line)).toEqual([2, 3]);
    for (const text of ['', ' ; ; ']) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: adminHeaders,
        payload: bodyB({ items: text }),
      });
      expectError(res, 'POST', URL, 400, 'VALIDATION_FAILED');
    }
  });

  test('unknown photo → UNKNOWN_PHOTO; size off the list or quantity 100 → VALIDATION_FAILED; 201 lines refused', async (t) => {
    const app = await ordersApp(t);
    const post = (items: string) =>
      app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyB({ items }) });
    const unknown = expectError(await post('Photo #1 (4x6) x1; Photo #77 (4x6) x1'), 'POST', URL, 400, 'UNKNOWN_PHOTO');
    expect(unknown.parsed).toEqual({ eventSlug: EVENT, unknownPhotos: ['77'], count: 1 });
    // Photo 3 of the other event is not a photo of this one.
    const other = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ eventSlug: OTHER_EVENT, items: 'Photo #3 (4x6) x1', subtotal: '$5', total: '$10' }),
    });
    expectError(other, 'POST', URL, 400, 'UNKNOWN_PHOTO');
    const size = expectError(await post('Photo #1 (A4) x1'), 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(size.parsed).toEqual([{ line: 1, message: 'size "A4" is not on the price list (4x6, 5x7, 8x10)' }]);
    const qty = expectError(await post('Photo #1 (4x6) x100'), 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(qty.parsed).toEqual([expect.objectContaining({ line: 1, message: 'quantity must be 1-99' })]);

    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Photo #${(i % 6) + 1} (4x6) x1`).join('\n');
    const ok = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ items: lines(200), subtotal: '$1000.00', total: '$1005.00' }),
    });
    expect(ok.statusCode).toBe(201);
    const tooMany = expectError(await post(lines(201)), 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(tooMany.error).toContain('200');
  });

  test('the event from the Referer when eventSlug is absent; neither: 400 EVENT_REQUIRED', async (t) => {
    const app = await ordersApp(t);
    const body = bodyB();
    delete body.eventSlug;
    const fromReferer = await app.inject({
      method: 'POST',
      url: URL,
      headers: { ...adminHeaders, referer: 'https://gallery.example/event/Anime%20Expo/Day%201/Cosplay?page=2' },
      payload: body,
    });
    expect(fromReferer.statusCode).toBe(201);
    expect(fromReferer.json()).toMatchObject({ eventSlug: EVENT, orderNumber: `${PREFIX}-0001` });

    // The body wins over the Referer.
    const both = await app.inject({
      method: 'POST',
      url: URL,
      headers: { ...adminHeaders, referer: 'https://gallery.example/event/Nope/' },
      payload: bodyB({ eventSlug: OTHER_EVENT }),
    });
    expect(both.json()).toMatchObject({ eventSlug: OTHER_EVENT, orderNumber: 'OC-0001' });

    for (const referer of [undefined, 'https://shop.example/checkout', 'not a url']) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: referer ? { ...adminHeaders, referer } : adminHeaders,
        payload: body,
      });
      expectError(res, 'POST', URL, 400, 'EVENT_REQUIRED');
    }
    const unknown = await app.inject({
      method: 'POST',
      url: URL,
      headers: { ...adminHeaders, referer: 'https://gallery.example/event/Nope/Day%201' },
      payload: body,
    });
    expectError(unknown, 'POST', URL, 404, 'EVENT_NOT_FOUND');
  });

  test('ship needs street, city, state and ZIP; phone is required here', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ shippingAddress: '', zipCode: '   ', customerPhone: '' }),
    });
    const { parsed } = expectError(res, 'POST', URL, 400, 'VALIDATION_FAILED');
    const fields = (parsed as { field: string }[]).map((d) => d.field);
    expect(fields).toContain('customerPhone');
    const missing = bodyB();
    delete missing.city;
    delete missing.fulfillmentType;
    const res2 = await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: missing });
    const fields2 = (expectError(res2, 'POST', URL, 400, 'VALIDATION_FAILED').parsed as { field: string }[]).map(
      (d) => d.field,
    );
    expect(fields2).toContain('fulfillmentType');
    const res3 = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyB({ shippingAddress: '', zipCode: '   ' }),
    });
    const fields3 = (expectError(res3, 'POST', URL, 400, 'VALIDATION_FAILED').parsed as { field: string }[]).map(
      (d) => d.field,
    );
    expect(fields3.sort()).toEqual(['shippingAddress', 'zipCode']);
  });

  test('100 concurrent booth orders get 100 distinct, consecutive numbers, each with its receipt queued', async (t) => {
    // The receipts are the mail worker's (test/services/notifier); rendering 100 of them takes
    // seconds, so closing cuts it off at once and the test checks that each one is queued.
    const app = await ordersApp(t, { env: { SHUTDOWN_GRACE_MS: '0' } });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: URL,
          headers: adminHeaders,
          payload: bodyB({ customerName: `Customer ${i}` }),
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const numbers = responses.map((r) => r.json().orderNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => `${PREFIX}-${String(i + 1).padStart(4, '0')}`));
    const ids = responses.map((r) => r.json().id as string);
    expect(new Set(ids).size).toBe(100);
    expect(await app.store.orders.list()).toHaveLength(100);
    // One receipt job per order, stored with it (sent or not yet: the worker is at it).
    const db = new Database(path.join(app.dataDir, 'orders.db'), { readonly: true });
    t.onTestFinished(() => {
      db.close();
    });
    const jobs = db.prepare('SELECT kind, order_id FROM mail_jobs').all() as { kind: string; order_id: string }[];
    expect(jobs.map((j) => j.kind)).toEqual(Array(100).fill('receipt'));
    expect(jobs.map((j) => j.order_id).sort()).toEqual([...ids].sort());
  });
});
