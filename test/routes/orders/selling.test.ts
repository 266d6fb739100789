/**
 * Order submission with the selling rules: the order is charged what the quote said,
 * packages, early bird and coupons included; PRICE_MISMATCH details are the server's
 * breakdown; a refused coupon is 400 COUPON_INVALID before anything is stored.
 */
import { describe, expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { bodyA, bodyB, EVENT, expectError } from '../../support/orders-fixtures.js';
import { addCoupon, sellingApp } from '../../support/selling-fixtures.js';

describe('orders priced with packages, early bird and coupons', () => {
  test('variant B: the figures of POST /api/quote are accepted as they are, discount included', async (t) => {
    const app = await sellingApp(t);
    const quote = (
      await app.inject({
        method: 'POST',
        url: '/api/quote',
        payload: {
          eventSlug: EVENT,
          lines: [
            { photo: '1', size: '4x6', quantity: 5 },
            { photo: '2', size: 'digital', quantity: 1 },
          ],
        },
      })
    ).json();
    // 5 × 4x6 = $25 → package $20; + digital $8 = $28; early bird 10 % = $2.80.
    expect([quote.discount, quote.total]).toEqual(['$7.80', '$30.20']);
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({
        items: quote.items,
        subtotal: quote.subtotal,
        discount: quote.discount,
        shippingFee: quote.shippingFee,
        total: quote.total,
      }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      items: 'Photo #1 (4x6) x5 = $25.00; Photo #2 (digital) x1 = $8.00',
      subtotal: '$33.00',
      discount: '$7.80',
      shippingFee: '$5.00',
      total: '$30.20',
    });
    const stored = await app.store.orders.get(res.json().id);
    expect([stored?.subtotalCents, stored?.shippingFeeCents, stored?.totalCents]).toEqual([3300, 500, 3020]);
  });

  test('variant B: a client that ignores the discount gets PRICE_MISMATCH with the breakdown', async (t) => {
    const app = await sellingApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB(), // $20 + $5 shipping, as if there were no early bird
    });
    const { parsed } = expectError(res, 'POST', '/api/orders', 400, 'PRICE_MISMATCH');
    expect(parsed).toMatchObject({
      subtotal: '$20.00',
      earlyBird: { percent: 10, discount: '$2.00', applied: true },
      discount: '$2.00',
      total: '$23.00',
      mismatches: [{ field: 'total', expected: '$23.00', received: '$25.00' }],
    });
    // A wrong claimed discount is named as such.
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({ discount: '$5.00', total: '$23.00' }),
    });
    const w = expectError(wrong, 'POST', '/api/orders', 400, 'PRICE_MISMATCH').parsed as { mismatches: unknown[] };
    expect(w.mismatches).toEqual([{ field: 'discount', expected: '$2.00', received: '$5.00' }]);
  });

  test('variant A: a coupon is applied to the stored total; its code is matched in any case', async (t) => {
    const app = await sellingApp(t, { earlyBird: false });
    await addCoupon(app, { code: 'TENOFF', kind: 'amount', value: 1000 });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ couponCode: 'tenoff' }), // $50.00, pickup
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ total: '$40.00' });
  });

  test('a refused coupon: 400 COUPON_INVALID, nothing stored', async (t) => {
    const app = await sellingApp(t);
    await addCoupon(app, { code: 'USEDUP', maxUses: 1, uses: 1 });
    const before = await app.store.orders.list({ includeHeld: true });
    for (const [couponCode, reason] of [
      ['WHAT', 'unknown'],
      ['usedup', 'exhausted'],
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: adminHeaders,
        payload: bodyA({ couponCode }),
      });
      const { parsed } = expectError(res, 'POST', '/api/orders/create', 400, 'COUPON_INVALID');
      expect(parsed).toMatchObject({ reason });
    }
    expect(await app.store.orders.list({ includeHeld: true })).toEqual(before);
  });

  test('free shipping: the fee is shown and taken off', async (t) => {
    const app = await sellingApp(t, { earlyBird: false });
    await addCoupon(app, { code: 'SHIPFREE', kind: 'freeShipping', value: null });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({ couponCode: 'SHIPFREE', discount: '$5.00', total: '$20.00' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ subtotal: '$20.00', discount: '$5.00', shippingFee: '$5.00', total: '$20.00' });
  });
});
