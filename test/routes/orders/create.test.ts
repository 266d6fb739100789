/**
 * `POST /api/orders/create` (interface variant A): pricing, lines, customer limits, the
 * event's ordering window and the address check. The CAPTCHA has its own file
 * (captcha.test.ts); here it is solved for real where a web order is the point, and admin
 * credentials (a booth order) stand in for it elsewhere.
 */
import { describe, expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { startUspsStub, USPS_CLIENT } from '../../support/address-stubs.js';
import {
  bodyA,
  EVENT,
  expectError,
  GOOD_ADDRESS,
  ordersApp,
  outbox,
  PREFIX,
  solvedCaptcha,
} from '../../support/orders-fixtures.js';

const URL = '/api/orders/create';

describe('POST /api/orders/create', () => {
  test('a web order with a solved ALTCHA: 201 confirmation, priced by the server, receipt queued', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      payload: bodyA({ captchaToken: await solvedCaptcha(app) }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expectMatchesOpenApi('POST', URL, res);
    expect(res.json()).toEqual({
      success: true,
      orderNumber: `${PREFIX}-0001`,
      status: 'pending',
      total: '$50.00',
      verificationRequired: false,
      message: expect.stringContaining('ada@example.com'),
      paymentUrl: null,
    });

    const order = await app.store.orders.get(`${PREFIX}-0001`);
    expect(order).toMatchObject({
      eventSlug: EVENT,
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      customerPhone: '+1 (555) 010-0000',
      fulfillmentType: 'pickup',
      shippingAddress: '',
      items: [
        { photoNumber: '1', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 },
        { photoNumber: '2', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 },
        { photoNumber: '3', size: '8x10', quantity: 2, unitCents: 2000, lineCents: 4000 },
      ],
      subtotalCents: 5000,
      shippingFeeCents: 0,
      totalCents: 5000,
      status: 'pending',
      held: false,
      holdExpiresAt: null,
      addressVerified: null,
      channel: 'web',
    });
    // The receipt was queued with the order, and goes out with both labels.
    await app.notifier.flush();
    const mail = await outbox(app.dataDir);
    expect(mail.map((m) => [m.subject, m.to, m.attachments])).toEqual([
      [
        `Your order ${PREFIX}-0001: receipt`,
        ['ada@example.com'],
        [`label-${PREFIX}-0001.png`, `label-${PREFIX}-0001.docx`],
      ],
    ]);
    const pending = await app.inject({ url: '/api/orders/pending', headers: adminHeaders });
    expect(pending.json().map((o: { orderNumber: string }) => o.orderNumber)).toEqual([`${PREFIX}-0001`]);
  });

  test('photo numbers as integers or ids, sizes in any spelling; an address means shipping', async (t) => {
    const app = await ordersApp(t);
    const photo4 = app.photos.findPhoto(EVENT, '4');
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({
        photos: [1, { number: photo4?.id, size: '5 X 7', quantity: 3 }, '0002'],
        shippingAddress: { line1: ' 123  Main St ', city: 'Springfield', state: 'il', zip: '627011234' },
      }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ total: '$45.00', verificationRequired: false });
    const order = await app.store.orders.get(res.json().orderNumber);
    expect(order).toMatchObject({
      fulfillmentType: 'ship',
      items: [
        { photoNumber: '1', size: '4x6', quantity: 1 },
        { photoNumber: '4', size: '5x7', quantity: 3, lineCents: 3000 },
        { photoNumber: '2', size: '4x6', quantity: 1 },
      ],
      subtotalCents: 4000,
      shippingFeeCents: 500,
      totalCents: 4500,
      // The standardised form is stored.
      shippingAddress: '123 Main St',
      state: 'IL',
      zipCode: '62701-1234',
      addressVerified: true,
      channel: 'booth',
    });
  });

  test('fulfilment as stated: pickup keeps a given address and pays no shipping; ship needs all four fields', async (t) => {
    const app = await ordersApp(t);
    const pickup = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ fulfillmentType: 'pickup', shippingAddress: GOOD_ADDRESS }),
    });
    expect(pickup.statusCode).toBe(201);
    expect(await app.store.orders.get(pickup.json().orderNumber)).toMatchObject({
      fulfillmentType: 'pickup',
      shippingFeeCents: 0,
      shippingAddress: '123 Main St',
      addressVerified: null,
    });

    // An empty address object is no address: pickup.
    const empty = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ shippingAddress: { line1: '', city: '', state: '', zip: '' } }),
    });
    expect(empty.statusCode).toBe(201);
    expect((await app.store.orders.get(empty.json().orderNumber))?.fulfillmentType).toBe('pickup');

    for (const payload of [
      bodyA({ fulfillmentType: 'ship' }),
      bodyA({ shippingAddress: { line1: '123 Main St', city: 'Springfield' } }),
    ]) {
      const res = await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload });
      const { parsed } = expectError(res, 'POST', URL, 400, 'VALIDATION_FAILED');
      const fields = (parsed as { field: string }[]).map((d) => d.field);
      expect(fields).toEqual(
        expect.arrayContaining(
          payload.fulfillmentType
            ? ['shippingAddress.line1', 'shippingAddress.city', 'shippingAddress.state', 'shippingAddress.zip']
            : ['shippingAddress.state', 'shippingAddress.zip'],
        ),
      );
    }
  });

  test('unknown photos: 400 UNKNOWN_PHOTO listing every one; nothing stored', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ photos: ['1', '999', { number: 'nope', size: '4x6' }, '999'] }),
    });
    const { parsed, error } = expectError(res, 'POST', URL, 400, 'UNKNOWN_PHOTO');
    expect(parsed).toEqual({ eventSlug: EVENT, unknownPhotos: ['999', 'nope'], count: 2 });
    expect(error).toContain('999, nope');
    expect(await app.store.orders.list({ includeHeld: true })).toEqual([]);
  });

  test('sizes off the price list and quantities outside 1–99: 400 VALIDATION_FAILED', async (t) => {
    const app = await ordersApp(t);
    const size = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ photos: ['1', { number: '2', size: '11x14' }] }),
    });
    const { parsed } = expectError(size, 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(parsed).toEqual([{ line: 2, message: expect.stringContaining('"11x14" is not on the price list') }]);
    for (const quantity of [0, 100, 1.5, -1, '2']) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: adminHeaders,
        payload: bodyA({ photos: [{ number: '1', quantity }] }),
      });
      expectError(res, 'POST', URL, 400, 'VALIDATION_FAILED');
    }
  });

  test('at most 200 lines: 200 are taken, 201 are refused', async (t) => {
    const app = await ordersApp(t);
    const lines = (n: number) => Array.from({ length: n }, (_, i) => String((i % 6) + 1));
    const ok = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ photos: lines(200) }),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().total).toBe('$1000.00');
    const tooMany = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ photos: lines(201) }),
    });
    const { details } = expectError(tooMany, 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(details).toContain('photos');
    const empty = await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyA({ photos: [] }) });
    expectError(empty, 'POST', URL, 400, 'VALIDATION_FAILED');
  });

  test('customer limits: name 1–100 characters on one line, RFC email ≤ 254, phone 7–20 digits (optional)', async (t) => {
    const app = await ordersApp(t);
    const post = (customerInfo: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyA({ customerInfo }) });
    const email = 'ada@example.com';
    const rejected: [Record<string, unknown>, string][] = [
      [{ name: '', email }, 'customerInfo.name'],
      [{ name: '   ', email }, 'customerInfo.name'],
      [{ name: 'x'.repeat(101), email }, 'customerInfo.name'],
      [{ name: 'Ada\nLovelace', email }, 'customerInfo.name'],
      [{ name: 'Ada\r\nBcc: x@evil.example', email }, 'customerInfo.name'],
      [{ name: 'Ada', email: 'ada@' }, 'customerInfo.email'],
      [{ name: 'Ada', email: 'ada example@example.com' }, 'customerInfo.email'],
      [{ name: 'Ada', email: 'ada@example.com\nBcc: x@evil.example' }, 'customerInfo.email'],
      [{ name: 'Ada', email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` }, 'customerInfo.email'], // 255
      [{ name: 'Ada', email: `${'a'.repeat(65)}@example.com` }, 'customerInfo.email'],
      [{ name: 'Ada', email, phone: '12345' }, 'customerInfo.phone'],
      [{ name: 'Ada', email, phone: '555-0100 ext 7' }, 'customerInfo.phone'],
      [{ name: 'Ada', email, phone: '1'.repeat(21) }, 'customerInfo.phone'],
    ];
    for (const [info, field] of rejected) {
      const res = await post(info);
      const { parsed } = expectError(res, 'POST', URL, 400, 'VALIDATION_FAILED');
      expect(
        (parsed as { field: string }[]).map((d) => d.field),
        JSON.stringify(info),
      ).toContain(field);
    }

    const accepted = await post({
      name: `  \u202eZoë\u0000 O'Brien-山田 ${'😀'.repeat(76)}\t=SUM(A1)`,
      email: ` ${'a'.repeat(64)}@${'b'.repeat(185)}.com `, // 254
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const order = await app.store.orders.get(accepted.json().orderNumber);
    // Exactly 100 characters once controls and bidi overrides are removed, the tab made a space and the
    // ends trimmed; formula-looking text is kept as text.
    expect(order?.customerName).toBe(`Zoë O'Brien-山田 ${'😀'.repeat(76)} =SUM(A1)`);
    expect(order?.customerEmail).toHaveLength(254);
    expect(order?.customerPhone).toBe('');
  });

  test('unknown event: 404 EVENT_NOT_FOUND; a missing eventSlug: 400', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ eventSlug: 'Nope' }),
    });
    expectError(res, 'POST', URL, 404, 'EVENT_NOT_FOUND');
    const missing = bodyA();
    delete missing.eventSlug;
    expectError(
      await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: missing }),
      'POST',
      URL,
      400,
      'VALIDATION_FAILED',
    );
  });

  test('ordering closed by each of its three conditions: 409 ORDERING_CLOSED with the reason', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const post = () => app.inject({ method: 'POST', url: URL, payload: bodyA() });
    const booth = () => app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyA() });
    const past = new Date(Date.now() - 60_000).toISOString();
    const cases = [
      [{ isArchived: true }, 'archived'],
      [{ orderingEnabled: false }, 'disabled'],
      [{ deadline: past }, 'deadline'],
    ] as const;
    for (const [patch, reason] of cases) {
      await app.events.update(EVENT, patch);
      const { parsed, error } = expectError(await post(), 'POST', URL, 409, 'ORDERING_CLOSED');
      expect(parsed).toMatchObject({ eventSlug: EVENT, reason });
      expect(error).toContain('Anime Expo 2026');
      // At the booth the photographer still sells, unless the event is archived.
      if (reason === 'archived') expectError(await booth(), 'POST', URL, 409, 'ORDERING_CLOSED');
      else expect((await booth()).statusCode, reason).toBe(201);
      await app.events.update(EVENT, { isArchived: false, orderingEnabled: true, deadline: null });
    }
    expect((await post()).statusCode).toBe(201);
  });

  test('a booth order may leave the email out (no receipt then); an order online may not', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const walkIn = { customerInfo: { name: 'Walk-in Customer' } };
    const online = await app.inject({ method: 'POST', url: URL, payload: bodyA(walkIn) });
    const { parsed } = expectError(online, 'POST', URL, 400, 'VALIDATION_FAILED');
    expect(parsed).toEqual([expect.objectContaining({ field: 'customerInfo.email' })]);
    const blank = await app.inject({
      method: 'POST',
      url: URL,
      payload: bodyA({ customerInfo: { name: 'Walk-in Customer', email: '' } }),
    });
    expectError(blank, 'POST', URL, 400, 'VALIDATION_FAILED');

    const res = await app.inject({ method: 'POST', url: URL, headers: adminHeaders, payload: bodyA(walkIn) });
    expect(res.statusCode).toBe(201);
    expectMatchesOpenApi('POST', URL, res);
    expect(res.json().message).toBe(
      `Order ${res.json().orderNumber} is placed; no email was given, so no receipt is sent.`,
    );
    expect(await app.store.orders.get(res.json().orderNumber)).toMatchObject({ customerEmail: '', channel: 'booth' });
    // The receipt job is done without sending anything (no customer, no OPERATOR_EMAIL).
    await app.notifier.flush();
    expect(await app.store.outbox.pendingCount()).toBe(0);
    expect((await outbox(app.dataDir)).filter((m) => m.name.includes(res.json().orderNumber))).toEqual([]);
    // Its order can't be looked up or followed by an empty email.
    const lookup = await app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { orderNumber: res.json().orderNumber, email: '' },
    });
    expect(lookup.statusCode).toBeGreaterThanOrEqual(400);

    // With OPERATOR_EMAIL set, the operator still gets the receipt (with the labels).
    const withOperator = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off', OPERATOR_EMAIL: 'booth@example.com' } });
    const second = await withOperator.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA(walkIn),
    });
    await withOperator.notifier.flush();
    const mails = (await outbox(withOperator.dataDir)).filter((m) => m.name.includes(second.json().orderNumber));
    expect(mails.map((m) => m.to)).toEqual([['booth@example.com']]);
    expect(mails[0]?.attachments).toHaveLength(2);
  });

  test('an undeliverable address: 400 ADDRESS_INVALID naming the field', async (t) => {
    const app = await ordersApp(t);
    const cases = [
      [{ ...GOOD_ADDRESS, state: 'ZZ' }, 'shippingAddress.state'],
      [{ ...GOOD_ADDRESS, state: 'CA', zip: '12345' }, 'shippingAddress.zip'],
      [{ ...GOOD_ADDRESS, zip: 'ABCDE' }, 'shippingAddress.zip'],
      [{ ...GOOD_ADDRESS, line1: 'Main Street' }, 'shippingAddress.line1'],
    ] as const;
    for (const [shippingAddress, field] of cases) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: adminHeaders,
        payload: bodyA({ shippingAddress }),
      });
      const { parsed } = expectError(res, 'POST', URL, 400, 'ADDRESS_INVALID');
      expect(parsed).toMatchObject({ field, reason: expect.any(String) });
    }
    expect(await app.store.orders.list({ includeHeld: true })).toEqual([]);
  });

  test('a verifier that is slow lets the order through, flagged addressVerified: false', async (t) => {
    const usps = await startUspsStub(t);
    usps.failWith.address = 'hang';
    const app = await ordersApp(t, {
      env: {
        ADDRESS_VERIFIER: 'usps',
        USPS_BASE_URL: usps.url,
        USPS_CLIENT_ID: USPS_CLIENT.id,
        USPS_CLIENT_SECRET: USPS_CLIENT.secret,
        ADDRESS_VERIFY_TIMEOUT_MS: '1000',
      },
    });
    // The stub never answers the address request, so a 201 at all shows the budget let the
    // order through; no clock is read here (under load the token fetch alone may use the
    // budget, so the verifier is only required to have been asked).
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ shippingAddress: GOOD_ADDRESS }),
    });
    expect(res.statusCode).toBe(201);
    expect(usps.requests.length).toBeGreaterThan(0);
    expect(await app.store.orders.get(res.json().orderNumber)).toMatchObject({
      fulfillmentType: 'ship',
      shippingAddress: '123 Main St',
      addressVerified: false,
    });
  });

  test('with the verifier off, shipping orders are stored unchecked (addressVerified: null)', async (t) => {
    const app = await ordersApp(t, { env: { ADDRESS_VERIFIER: 'off' } });
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: adminHeaders,
      payload: bodyA({ shippingAddress: { ...GOOD_ADDRESS, state: 'ZZ' } }),
    });
    expect(res.statusCode).toBe(201);
    expect((await app.store.orders.get(res.json().orderNumber))?.addressVerified).toBeNull();
  });
});
