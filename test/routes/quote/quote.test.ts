/**
 * `POST /api/quote`: the figures the cart shows are the figures an order gets, with
 * packages, the early bird, coupons and digital files.
 */
import { describe, expect, test } from 'vitest';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { EVENT, expectError, OTHER_EVENT } from '../../support/orders-fixtures.js';
import { addCoupon, sellingApp } from '../../support/selling-fixtures.js';

const URL = '/api/quote';

describe('POST /api/quote', () => {
  test('packages and the early bird, line by line', async (t) => {
    const app = await sellingApp(t);
    const res = await app.inject({
      method: 'POST',
      url: URL,
      payload: {
        eventSlug: EVENT,
        lines: [
          { photo: 1, size: '4x6', quantity: 3 },
          { photo: '2', quantity: 3 },
          { photo: '3', size: 'Digital' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expectMatchesOpenApi('POST', URL, res);
    const q = res.json();
    // 6 × 4x6 = $30 (one package of 5: $20 + $5 = $25, saving $5); digital $8. Goods $33; 10 % = $3.30.
    expect(q).toMatchObject({
      eventSlug: EVENT,
      fulfillmentType: 'ship',
      items: 'Photo #1 (4x6) x3 = $15.00; Photo #2 (4x6) x3 = $15.00; Photo #3 (digital) x1 = $8.00',
      subtotal: '$38.00',
      packages: [{ size: '4x6', count: 5, price: '$20.00', sets: 1, saving: '$5.00' }],
      packageSavings: '$5.00',
      earlyBird: { percent: 10, discount: '$3.30', applied: true },
      coupon: null,
      discount: '$8.30',
      shippingFee: '$5.00',
      total: '$34.70',
    });
    expect(q.lines[2]).toEqual({
      line: 3,
      photoNumber: '3',
      size: 'digital',
      quantity: 1,
      unitPrice: '$8.00',
      amount: '$8.00',
    });
  });

  test('a digital file alone ships for nothing', async (t) => {
    const app = await sellingApp(t, { earlyBird: false });
    const res = await app.inject({
      method: 'POST',
      url: URL,
      payload: { eventSlug: EVENT, lines: [{ photo: '1', size: 'digital', quantity: 1 }], fulfillmentType: 'ship' },
    });
    expect(res.json()).toMatchObject({ shippingFee: '$0.00', total: '$8.00', earlyBird: null });
  });

  test('a coupon larger than the early bird applies instead; a smaller one is shown unapplied', async (t) => {
    const app = await sellingApp(t);
    await addCoupon(app);
    await addCoupon(app, { code: 'FIVE', kind: 'percent', value: 5 });
    const lines = [{ photo: '1', size: '8x10', quantity: 2 }]; // $40
    const big = (
      await app.inject({ method: 'POST', url: URL, payload: { eventSlug: EVENT, lines, couponCode: ' save20 ' } })
    ).json();
    expect(big).toMatchObject({
      earlyBird: { discount: '$4.00', applied: false },
      coupon: { code: 'SAVE20', kind: 'percent', percent: 20, amount: null, discount: '$8.00', applied: true },
      discount: '$8.00',
      total: '$37.00',
    });
    const small = (
      await app.inject({ method: 'POST', url: URL, payload: { eventSlug: EVENT, lines, couponCode: 'five' } })
    ).json();
    expect(small).toMatchObject({ earlyBird: { applied: true }, coupon: { applied: false }, total: '$41.00' });
  });

  test('refused coupons: 400 COUPON_INVALID with the reason', async (t) => {
    const app = await sellingApp(t);
    await addCoupon(app, { code: 'OLD', expiresAt: '2020-01-01T00:00:00.000Z' });
    await addCoupon(app, { code: 'GONE', maxUses: 3, uses: 3 });
    await addCoupon(app, { code: 'ELSEWHERE', eventSlug: OTHER_EVENT });
    await addCoupon(app, { code: 'BIGSPEND', minSubtotalCents: 10_000 });
    const cases = [
      ['NOSUCH', 'unknown'],
      ['old', 'expired'],
      ['GONE', 'exhausted'],
      ['ELSEWHERE', 'otherEvent'],
      ['BIGSPEND', 'belowMinimum'],
    ];
    for (const [code, reason] of cases) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        payload: { eventSlug: EVENT, lines: [{ photo: '1' }], couponCode: code },
      });
      const { parsed, error } = expectError(res, 'POST', URL, 400, 'COUPON_INVALID');
      expect(parsed).toMatchObject({ couponCode: code?.toUpperCase(), reason });
      expect(error).toContain(code?.toUpperCase());
    }
  });

  test('unknown event 404, unknown photo 400 UNKNOWN_PHOTO, size off the list 400', async (t) => {
    const app = await sellingApp(t);
    const post = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: URL, payload });
    expectError(await post({ eventSlug: 'Nope', lines: [{ photo: '1' }] }), 'POST', URL, 404, 'EVENT_NOT_FOUND');
    expectError(await post({ eventSlug: EVENT, lines: [{ photo: '99' }] }), 'POST', URL, 400, 'UNKNOWN_PHOTO');
    expectError(
      await post({ eventSlug: EVENT, lines: [{ photo: '1', size: '11x14' }] }),
      'POST',
      URL,
      400,
      'VALIDATION_FAILED',
    );
    expectError(await post({ eventSlug: EVENT, lines: [] }), 'POST', URL, 400, 'VALIDATION_FAILED');
  });

  test('rate limited per client address', async (t) => {
    const app = await sellingApp(t, { env: { RATE_LIMIT_QUOTE_PER_MIN: '2' } });
    const post = () => app.inject({ method: 'POST', url: URL, payload: { eventSlug: EVENT, lines: [{ photo: '1' }] } });
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    const limited = await post();
    expectError(limited, 'POST', URL, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
