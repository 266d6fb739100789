/**
 * Selling fixtures: the orders app (test/support/orders-fixtures.ts) with offers set through
 * the admin API, and coupons put into the app's coupon book.
 *
 * `sellingApp`: event `Anime Expo` with a `digital` size ($8.00), a package of 5 × 4x6 for
 * $20.00, and an early bird of 10 % running until tomorrow.
 */
import type { TestContext } from 'vitest';
import type { CouponRecord } from '../../src/domain/coupons.js';
import { adminHeaders, type TestApp } from '../helpers/build.js';
import { EVENT, type OrdersAppOptions, ordersApp, PRICES } from './orders-fixtures.js';

export const DIGITAL_PRICE = 8;

export async function setOffers(app: TestApp, body: Record<string, unknown>): Promise<void> {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: adminHeaders,
    payload: { eventSlug: EVENT, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`event-config: ${res.statusCode} ${res.body}`);
}

export async function sellingApp(
  t: TestContext,
  opts: OrdersAppOptions & { earlyBird?: boolean } = {},
): Promise<TestApp> {
  const app = await ordersApp(t, opts);
  await setOffers(app, {
    prices: { ...PRICES, digital: DIGITAL_PRICE },
    packages: [{ size: '4x6', count: 5, price: 20 }],
    earlyBird:
      opts.earlyBird === false ? null : { percent: 10, until: new Date(Date.now() + 86_400_000).toISOString() },
  });
  return app;
}

export function coupon(over: Partial<CouponRecord> = {}): CouponRecord {
  return {
    code: 'SAVE20',
    eventSlug: EVENT,
    kind: 'percent',
    value: 20,
    expiresAt: null,
    maxUses: null,
    uses: 0,
    minSubtotalCents: 0,
    createdAt: new Date().toISOString(),
    ...over,
  };
}
