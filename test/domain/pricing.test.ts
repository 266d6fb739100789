import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CouponRecord } from '../../src/domain/coupons.js';
import {
  closedReason,
  isOpenForOrders,
  matchSize,
  orderDiscountCents,
  type PriceRules,
  percentOf,
  priceOrder,
  type RequestedLine,
} from '../../src/domain/pricing.js';
import { isAppError } from '../../src/errors/catalogue.js';

const NOW = new Date('2026-07-10T12:00:00Z');
const rules: PriceRules = {
  prices: { '4x6': 500, '5x7': 1000, '8x10': 2000, digital: 800 },
  defaultSize: '4x6',
  shippingFeeCents: 500,
  packages: [],
  earlyBird: null,
};
const opts = { now: NOW, eventSlug: 'AX26' };

const coupon = (over: Partial<CouponRecord> = {}): CouponRecord => ({
  code: 'SAVE',
  eventSlug: null,
  kind: 'percent',
  value: 10,
  expiresAt: null,
  maxUses: null,
  uses: 0,
  minSubtotalCents: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isAppError(err) ? err.code : 'not an AppError';
  }
  return undefined;
}

describe('lines, subtotal and shipping', () => {
  test('prices lines in cents with the default size and the shipping fee', () => {
    const p = priceOrder(
      rules,
      [
        { photoNumber: '12', quantity: 2 },
        { photoNumber: '7', size: '8X10', quantity: 1 },
      ],
      'ship',
      opts,
    );
    expect(p.lines).toEqual([
      { photoNumber: '12', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
      { photoNumber: '7', size: '8x10', quantity: 1, unitCents: 2000, lineCents: 2000 },
    ]);
    expect([p.subtotalCents, p.discountCents, p.shippingFeeCents, p.totalCents]).toEqual([3000, 0, 500, 3500]);
    expect([p.packages, p.earlyBird, p.coupon]).toEqual([[], null, null]);
  });

  test('pickup has no shipping fee', () => {
    expect(priceOrder(rules, [{ photoNumber: '1', quantity: 1 }], 'pickup', opts).totalCents).toBe(500);
  });

  test('digital files alone never ship; one print with them does', () => {
    const digital = priceOrder(rules, [{ photoNumber: '1', size: 'Digital', quantity: 1 }], 'ship', opts);
    expect([digital.lines[0]?.size, digital.shippingFeeCents, digital.totalCents]).toEqual(['digital', 0, 800]);
    const mixed = priceOrder(
      rules,
      [
        { photoNumber: '1', size: 'digital', quantity: 1 },
        { photoNumber: '1', size: '4x6', quantity: 1 },
      ],
      'ship',
      opts,
    );
    expect([mixed.shippingFeeCents, mixed.totalCents]).toEqual([500, 1800]);
  });

  test.each([
    [[{ photoNumber: '1', size: '11x14', quantity: 1 }]],
    [[{ photoNumber: '1', quantity: 0 }]],
    [[{ photoNumber: '1', quantity: 100 }]],
    [[]],
    [Array.from({ length: 201 }, () => ({ photoNumber: '1', quantity: 1 }))],
  ])('refuses invalid lines with VALIDATION_FAILED', (lines) => {
    expect(codeOf(() => priceOrder(rules, lines, 'ship', opts))).toBe('VALIDATION_FAILED');
  });
});

describe('packages', () => {
  const withPackages: PriceRules = {
    ...rules,
    packages: [
      { size: '4x6', count: 5, priceCents: 2000 },
      { size: '5X7', count: 3, priceCents: 2500 },
    ],
  };

  test('every full count of copies of a size, across lines, costs the package price', () => {
    const p = priceOrder(
      withPackages,
      [
        { photoNumber: '1', size: '4x6', quantity: 3 },
        { photoNumber: '2', size: '4x6', quantity: 4 },
        { photoNumber: '3', size: '5x7', quantity: 2 },
      ],
      'pickup',
      opts,
    );
    // 7 × 4x6: one package ($20) + 2 × $5 = $30 instead of $35; 2 × 5x7: no full package.
    expect(p.subtotalCents).toBe(5500);
    expect(p.packages).toEqual([{ size: '4x6', count: 5, priceCents: 2000, sets: 1, savingCents: 500 }]);
    expect([p.packageSavingsCents, p.discountCents, p.totalCents]).toEqual([500, 500, 5000]);
    // The lines keep their unit prices: the items text is what was picked.
    expect(p.lines.map((l) => l.lineCents)).toEqual([1500, 2000, 2000]);
  });

  test('several full packages, and two sizes at once', () => {
    const p = priceOrder(
      withPackages,
      [
        { photoNumber: '1', size: '4x6', quantity: 10 },
        { photoNumber: '2', size: '5x7', quantity: 7 },
      ],
      'pickup',
      opts,
    );
    expect(p.packages.map((u) => [u.size, u.sets, u.savingCents])).toEqual([
      ['4x6', 2, 1000],
      ['5x7', 2, 1000],
    ]);
    expect(p.totalCents).toBe(5000 + 7000 - 2000);
  });

  test('a package that would cost more than its copies (the unit price dropped) is not applied', () => {
    const cheap = { ...withPackages, prices: { ...rules.prices, '4x6': 300 } };
    const p = priceOrder(cheap, [{ photoNumber: '1', size: '4x6', quantity: 5 }], 'pickup', opts);
    expect([p.packages, p.totalCents]).toEqual([[], 1500]);
  });
});

describe('early bird and coupons', () => {
  const earlyRules: PriceRules = { ...rules, earlyBird: { percent: 10, until: '2026-07-11T00:00:00.000Z' } };
  const lines: RequestedLine[] = [{ photoNumber: '1', size: '8x10', quantity: 2 }]; // $40.00

  test('the early bird takes its percentage off the goods before `until`, not after', () => {
    const before = priceOrder(earlyRules, lines, 'ship', opts);
    expect(before.earlyBird).toEqual({
      percent: 10,
      until: earlyRules.earlyBird?.until,
      discountCents: 400,
      applied: true,
    });
    expect([before.discountCents, before.totalCents]).toEqual([400, 4000 - 400 + 500]);
    const after = priceOrder(earlyRules, lines, 'ship', { ...opts, now: new Date('2026-07-11T00:00:00Z') });
    expect([after.earlyBird, after.totalCents]).toEqual([null, 4500]);
  });

  test('the early bird counts after packages', () => {
    const both = { ...earlyRules, packages: [{ size: '8x10', count: 2, priceCents: 3000 }] };
    const p = priceOrder(both, lines, 'pickup', opts);
    expect([p.packageSavingsCents, p.earlyBird?.discountCents, p.discountCents, p.totalCents]).toEqual([
      1000, 300, 1300, 2700,
    ]);
  });

  test.each([
    ['percent', 25, 1000],
    ['amount', 750, 750],
    ['amount', 99_999, 4000],
    ['freeShipping', null, 500],
  ] as const)('a %s coupon (%s) takes %i cents off', (kind, value, expected) => {
    const p = priceOrder(rules, lines, 'ship', { ...opts, coupon: { code: 'save', record: coupon({ kind, value }) } });
    expect(p.coupon).toMatchObject({ code: 'SAVE', kind, discountCents: expected, applied: true });
    expect(p.totalCents).toBe(4000 - expected + 500);
  });

  test('the larger of early bird and coupon applies, never both; a tie goes to the early bird', () => {
    const small = priceOrder(earlyRules, lines, 'ship', {
      ...opts,
      coupon: { code: 'SAVE', record: coupon({ value: 5 }) },
    });
    expect([small.earlyBird?.applied, small.coupon?.applied, small.discountCents]).toEqual([true, false, 400]);
    const large = priceOrder(earlyRules, lines, 'ship', {
      ...opts,
      coupon: { code: 'SAVE', record: coupon({ value: 20 }) },
    });
    expect([large.earlyBird?.applied, large.coupon?.applied, large.discountCents]).toEqual([false, true, 800]);
    const tie = priceOrder(earlyRules, lines, 'ship', { ...opts, coupon: { code: 'SAVE', record: coupon() } });
    expect([tie.earlyBird?.applied, tie.coupon?.applied, tie.discountCents]).toEqual([true, false, 400]);
  });

  test('free shipping on a pickup order is worth nothing, so an early bird beats it', () => {
    const p = priceOrder(earlyRules, lines, 'pickup', {
      ...opts,
      coupon: { code: 'SHIP', record: coupon({ code: 'SHIP', kind: 'freeShipping', value: null }) },
    });
    expect([p.coupon?.discountCents, p.coupon?.applied, p.earlyBird?.applied]).toEqual([0, false, true]);
  });

  test('a refused coupon is 400 COUPON_INVALID', () => {
    expect(
      codeOf(() => priceOrder(rules, lines, 'ship', { ...opts, coupon: { code: 'NOPE', record: undefined } })),
    ).toBe('COUPON_INVALID');
    const minimum = coupon({ minSubtotalCents: 5000 });
    expect(codeOf(() => priceOrder(rules, lines, 'ship', { ...opts, coupon: { code: 'SAVE', record: minimum } }))).toBe(
      'COUPON_INVALID',
    );
  });

  test('percentages round to the nearest cent, halves up', () => {
    expect([percentOf(1005, 10), percentOf(1015, 10), percentOf(1, 50), percentOf(1, 49)]).toEqual([101, 102, 1, 0]);
  });
});

describe('invariants for any order', () => {
  const size = fc.constantFrom('4x6', '5x7', '8x10', 'digital');
  const line = fc.record({ photoNumber: fc.constantFrom('1', '2'), size, quantity: fc.integer({ min: 1, max: 99 }) });
  const anyRules = fc.record({
    packages: fc.uniqueArray(
      fc.record({ size, count: fc.integer({ min: 2, max: 12 }), priceCents: fc.integer({ min: 0, max: 30_000 }) }),
      { selector: (p) => p.size, maxLength: 4 },
    ),
    earlyBird: fc.option(
      fc.record({ percent: fc.integer({ min: 1, max: 100 }), until: fc.constant('2027-01-01T00:00:00Z') }),
      {
        nil: null,
      },
    ),
    shippingFeeCents: fc.integer({ min: 0, max: 5000 }),
  });
  const anyCoupon = fc.option(
    fc.oneof(
      fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant('amount' as const), value: fc.integer({ min: 1, max: 100_000 }) }),
      fc.record({ kind: fc.constant('freeShipping' as const), value: fc.constant(null) }),
    ),
    { nil: null },
  );

  test('total = subtotal − discount + shipping ≥ 0, the discount is packages plus the larger offer, integer cents', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 200 }),
        fc.constantFrom('ship' as const, 'pickup' as const),
        anyRules,
        anyCoupon,
        (ls, f, r, c) => {
          const p = priceOrder({ ...rules, ...r }, ls, f, {
            ...opts,
            coupon: c ? { code: 'SAVE', record: coupon(c) } : undefined,
          });
          const list = ls.reduce((s, l) => s + (rules.prices[l.size] ?? 0) * l.quantity, 0);
          const offers = [p.earlyBird?.discountCents ?? 0, p.coupon?.discountCents ?? 0];
          const figures = [p.subtotalCents, p.discountCents, p.shippingFeeCents, p.totalCents];
          return (
            figures.every(Number.isSafeInteger) &&
            p.subtotalCents === list &&
            p.totalCents === p.subtotalCents - p.discountCents + p.shippingFeeCents &&
            p.totalCents >= 0 &&
            p.packageSavingsCents >= 0 &&
            p.discountCents === p.packageSavingsCents + Math.max(...offers) &&
            (f === 'pickup' || ls.every((l) => l.size === 'digital') ? p.shippingFeeCents === 0 : true) &&
            orderDiscountCents(p) === p.discountCents
          );
        },
      ),
    );
  });

  test('one more copy never costs more than its unit price (it may complete a package and cost less)', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 50 }), anyRules, (ls, r) => {
        const base = { ...rules, ...r, earlyBird: null };
        const before = priceOrder(base, ls, 'pickup', opts).totalCents;
        const first = ls[0] as RequestedLine;
        const more = ls.map((l, i) => (i === 0 && l.quantity < 99 ? { ...l, quantity: l.quantity + 1 } : l));
        if (first.quantity >= 99) return true;
        const after = priceOrder(base, more, 'pickup', opts).totalCents;
        return after - before <= (rules.prices[first.size ?? '4x6'] ?? 0);
      }),
    );
  });
});

test('matchSize ignores case, spaces and ×', () => {
  expect(matchSize(rules.prices, ' 5 X 7 ')).toBe('5x7');
  expect(matchSize(rules.prices, '5×7')).toBe('5x7');
  expect(matchSize(rules.prices, '6x9')).toBeUndefined();
});

test('open for orders: archived, disabled and past deadline each close it', () => {
  const now = new Date('2026-07-10T00:00:00Z');
  const open = { isArchived: false, orderingEnabled: true, deadline: '2026-08-01T00:00:00Z' };
  expect(isOpenForOrders(open, now)).toBe(true);
  expect(isOpenForOrders({ ...open, deadline: null }, now)).toBe(true);
  expect(closedReason({ ...open, isArchived: true }, now)).toBe('archived');
  expect(closedReason({ ...open, orderingEnabled: false }, now)).toBe('disabled');
  expect(closedReason({ ...open, deadline: '2026-07-10T00:00:00Z' }, now)).toBe('deadline');
});
