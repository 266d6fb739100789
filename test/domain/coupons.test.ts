import { describe, expect, test } from 'vitest';
import { CouponRecord, couponInvalid, normalizeCouponCode, validateCoupon } from '../../src/domain/coupons.js';

const NOW = new Date('2026-07-10T12:00:00Z');
const base: CouponRecord = {
  code: 'SUMMER10',
  eventSlug: 'AX26',
  kind: 'percent',
  value: 10,
  expiresAt: '2026-08-01T00:00:00.000Z',
  maxUses: 5,
  uses: 0,
  minSubtotalCents: 2000,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const ctx = { code: ' summer10 ', eventSlug: 'AX26', goodsCents: 2500, now: NOW };

describe('validateCoupon', () => {
  test('accepts a coupon that fits the order', () => {
    expect(validateCoupon(base, ctx)).toEqual({ ok: true, coupon: base });
    expect(
      validateCoupon({ ...base, eventSlug: null, expiresAt: null, maxUses: null }, { ...ctx, eventSlug: 'X' }).ok,
    ).toBe(true);
  });

  test.each([
    ['unknown', undefined, ctx],
    ['otherEvent', base, { ...ctx, eventSlug: 'BX26' }],
    ['expired', { ...base, expiresAt: '2026-07-10T12:00:00.000Z' }, ctx],
    ['exhausted', { ...base, uses: 5 }, ctx],
    ['belowMinimum', base, { ...ctx, goodsCents: 1999 }],
  ] as const)('refuses with reason %s', (reason, coupon, context) => {
    const check = validateCoupon(coupon, context);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toBe(reason);
  });

  test('the most basic reason wins: another event before expired before used up', () => {
    const everything = { ...base, expiresAt: '2000-01-01T00:00:00.000Z', uses: 9 };
    expect(validateCoupon(everything, { ...ctx, eventSlug: 'BX26' })).toMatchObject({ reason: 'otherEvent' });
    expect(validateCoupon(everything, ctx)).toMatchObject({ reason: 'expired' });
  });

  test('COUPON_INVALID carries the code and the reason (and the minimum) in details', () => {
    const check = validateCoupon(base, { ...ctx, goodsCents: 500 });
    if (check.ok) throw new Error('expected a refusal');
    const err = couponInvalid(ctx.code, check);
    expect([err.code, err.statusCode]).toEqual(['COUPON_INVALID', 400]);
    expect(err.message).toBe('Coupon SUMMER10 needs an order of at least $20.00 (this one is $5.00)');
    expect(JSON.parse(err.details)).toEqual({ couponCode: 'SUMMER10', reason: 'belowMinimum', minSubtotal: '$20.00' });
  });
});

describe('CouponRecord', () => {
  test.each([
    [{ kind: 'percent', value: 101 }],
    [{ kind: 'percent', value: null }],
    [{ kind: 'amount', value: null }],
    [{ kind: 'freeShipping', value: 100 }],
    [{ code: 'summer10' }],
    [{ code: 'a b' }],
    [{ uses: -1 }],
  ])('refuses %j', (over) => {
    expect(CouponRecord.safeParse({ ...base, ...over }).success).toBe(false);
  });

  test('accepts each kind with its value', () => {
    for (const over of [
      { kind: 'percent', value: 100 },
      { kind: 'amount', value: 500 },
      { kind: 'freeShipping', value: null },
    ]) {
      expect(CouponRecord.safeParse({ ...base, ...over }).success).toBe(true);
    }
  });

  test('codes are matched upper-case and trimmed', () => {
    expect(normalizeCouponCode('  early-Bird_2 ')).toBe('EARLY-BIRD_2');
  });
});
