/**
 * Coupons through the API, on both engines: the admin routes (create, list with uses,
 * delete), orders that use one (couponCode and discount kept, shown to admins and customers,
 * counted in the sales summary's discounts), refusals with their reason, a void or cancelled
 * order giving its use back, and 50 concurrent orders racing for the last 5 uses.
 */
import { expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { describeOnAppEngines } from '../../support/app-engines.js';
import { bodyA, EVENT, expectError } from '../../support/orders-fixtures.js';
import { sellingApp } from '../../support/selling-fixtures.js';

const post = (app: Awaited<ReturnType<typeof sellingApp>>, payload: Record<string, unknown>, headers = adminHeaders) =>
  app.inject({ method: 'POST', url: '/api/coupons', headers, payload });

describeOnAppEngines('coupons', (storeEnv) => {
  test('admin API: create (201), list with uses, delete; 409 on a taken code; 400 with the field; 401 without a token', async (t) => {
    const app = await sellingApp(t, { env: await storeEnv(t), earlyBird: false });
    const made = await post(app, {
      code: 'summer-10',
      eventSlug: EVENT,
      kind: 'amount',
      value: 2.5,
      maxUses: 3,
      minSubtotal: 10,
      expiresAt: '2099-01-01T00:00:00+02:00',
    });
    expect(made.statusCode).toBe(201);
    expectMatchesOpenApi('POST', '/api/coupons', made);
    expect(made.json()).toMatchObject({
      code: 'SUMMER-10',
      eventSlug: EVENT,
      kind: 'amount',
      value: 2.5,
      maxUses: 3,
      uses: 0,
      remaining: 3,
      minSubtotal: 10,
      expiresAt: '2098-12-31T22:00:00.000Z',
    });
    expectError(
      await post(app, { code: 'Summer-10', kind: 'percent', value: 5 }),
      'POST',
      '/api/coupons',
      409,
      'COUPON_EXISTS',
    );
    for (const [payload, field] of [
      [{ code: 'X', kind: 'percent', value: 5 }, 'code'],
      [{ code: 'HALF', kind: 'percent', value: 150 }, 'value'],
      [{ code: 'HALF', kind: 'percent' }, 'value'],
      [{ code: 'SHIP', kind: 'freeShipping', value: 3 }, 'value'],
      [{ code: 'CENTS', kind: 'amount', value: 1.234 }, 'value'],
      [{ code: 'TINY', kind: 'amount', value: 5e-324 }, 'value'], // rounds to no cent at all
      [{ code: 'ODD', kind: 'percent', value: 5, uses: 3 }, ''],
    ] as const) {
      const res = await post(app, payload);
      const { parsed } = expectError(res, 'POST', '/api/coupons', 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(parsed)).toContain(field);
    }
    expectError(
      await post(app, { code: 'ELSE', eventSlug: 'Nope', kind: 'freeShipping' }),
      'POST',
      '/api/coupons',
      404,
      'EVENT_NOT_FOUND',
    );
    expect((await post(app, { code: 'FREESHIP', kind: 'freeShipping' }, {} as typeof adminHeaders)).statusCode).toBe(
      401,
    );

    await post(app, { code: 'FREESHIP', kind: 'freeShipping' });
    const list = await app.inject({ url: '/api/coupons', headers: adminHeaders });
    expectMatchesOpenApi('GET', '/api/coupons', list);
    expect(
      list
        .json()
        .coupons.map((c: { code: string }) => c.code)
        .sort(),
    ).toEqual(['FREESHIP', 'SUMMER-10']);
    expect((await app.inject({ url: '/api/coupons' })).statusCode).toBe(401);

    const del = await app.inject({ method: 'DELETE', url: '/api/coupons/freeship', headers: adminHeaders });
    expect(del.json()).toEqual({ success: true, code: 'FREESHIP' });
    expectMatchesOpenApi('DELETE', '/api/coupons/{code}', del);
    const again = await app.inject({ method: 'DELETE', url: '/api/coupons/FREESHIP', headers: adminHeaders });
    expectError(again, 'DELETE', '/api/coupons/{code}', 404, 'COUPON_NOT_FOUND');
    // A deleted code is refused to orders as unknown.
    const order = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ couponCode: 'freeship' }),
    });
    expect(expectError(order, 'POST', '/api/orders/create', 400, 'COUPON_INVALID').parsed).toMatchObject({
      couponCode: 'FREESHIP',
      reason: 'unknown',
    });
  });

  test('an order with a coupon keeps its code and discount (admin view, customer view, summary); void gives the use back', async (t) => {
    const app = await sellingApp(t, { env: await storeEnv(t), earlyBird: false });
    await post(app, { code: 'TENOFF', kind: 'amount', value: 10, maxUses: 1 });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ couponCode: 'tenoff' }), // $50.00, pickup
    });
    expect(res.json()).toMatchObject({ total: '$40.00' });
    const { orderNumber } = res.json();
    const admin = await app.inject({ url: `/api/orders/${orderNumber}`, headers: adminHeaders });
    expect(admin.json()).toMatchObject({
      couponCode: 'TENOFF',
      discount: '$10.00',
      subtotal: '$50.00',
      total: '$40.00',
    });
    const customer = await app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { orderNumber, email: admin.json().customerEmail },
    });
    expect(customer.json()).toMatchObject({
      couponCode: 'TENOFF',
      discount: '$10.00',
      paymentUrl: null,
      downloads: [],
    });
    expectMatchesOpenApi('POST', '/api/orders/lookup', customer);

    // Used up: the next order is refused with the reason.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ couponCode: 'TENOFF' }),
    });
    expect(expectError(refused, 'POST', '/api/orders/create', 400, 'COUPON_INVALID').parsed).toMatchObject({
      reason: 'exhausted',
    });
    const uses = async () =>
      (await app.inject({ url: '/api/coupons', headers: adminHeaders })).json().coupons[0].uses as number;
    expect(await uses()).toBe(1);

    await app.inject({
      method: 'PUT',
      url: `/api/orders/${orderNumber}`,
      headers: adminHeaders,
      payload: { status: 'paid' },
    });
    const summary = (await app.inject({ url: '/api/orders/summary', headers: adminHeaders })).json();
    expect(summary).toMatchObject({ totalRevenue: 40, totalDiscounts: 10 });
    expectMatchesOpenApi(
      'GET',
      '/api/orders/summary',
      await app.inject({ url: '/api/orders/summary', headers: adminHeaders }),
    );

    const voided = await app.inject({
      method: 'PUT',
      url: `/api/orders/${orderNumber}`,
      headers: adminHeaders,
      payload: { status: 'void' },
    });
    expect(voided.json()).toMatchObject({ status: 'void', couponCode: 'TENOFF' });
    expect(await uses()).toBe(0);
    const next = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ couponCode: 'TENOFF' }),
    });
    expect(next.statusCode).toBe(201);
  });

  test('50 concurrent orders racing for a coupon’s last 5 uses: exactly 5 are placed', async (t) => {
    const app = await sellingApp(t, { env: await storeEnv(t), earlyBird: false });
    await post(app, { code: 'LAST5', kind: 'percent', value: 10, maxUses: 5 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/orders/create',
          headers: adminHeaders,
          payload: bodyA({ couponCode: 'LAST5' }),
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    for (const r of results.filter((r) => r.statusCode !== 201)) {
      expect(r.json()).toMatchObject({ code: 'COUPON_INVALID' });
      expect(JSON.parse(r.json().details)).toMatchObject({ reason: 'exhausted' });
    }
    const list = (await app.inject({ url: '/api/orders/pending', headers: adminHeaders })).json();
    expect(JSON.stringify(list).match(/"couponCode":"LAST5"/g)).toHaveLength(5);
    expect((await app.inject({ url: '/api/coupons', headers: adminHeaders })).json().coupons[0]).toMatchObject({
      uses: 5,
      remaining: 0,
    });
  }, 60_000);
});
