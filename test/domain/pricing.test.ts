import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { closedReason, isOpenForOrders, matchSize, priceOrder } from '../../src/domain/pricing.js';
import { isAppError } from '../../src/errors/catalogue.js';

const list = { prices: { '4x6': 500, '5x7': 1000, '8x10': 2000 }, defaultSize: '4x6', shippingFeeCents: 500 };

describe('priceOrder', () => {
  test('prices lines in cents with the default size and the shipping fee', () => {
    const p = priceOrder(
      list,
      [
        { photoNumber: '12', quantity: 2 },
        { photoNumber: '7', size: '8X10', quantity: 1 },
      ],
      'ship',
    );
    expect(p.lines).toEqual([
      { photoNumber: '12', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
      { photoNumber: '7', size: '8x10', quantity: 1, unitCents: 2000, lineCents: 2000 },
    ]);
    expect([p.subtotalCents, p.shippingFeeCents, p.totalCents]).toEqual([3000, 500, 3500]);
  });

  test('pickup has no shipping fee', () => {
    expect(priceOrder(list, [{ photoNumber: '1', quantity: 1 }], 'pickup').totalCents).toBe(500);
  });

  test.each([
    [[{ photoNumber: '1', size: '11x14', quantity: 1 }]],
    [[{ photoNumber: '1', quantity: 0 }]],
    [[{ photoNumber: '1', quantity: 100 }]],
    [[]],
    [Array.from({ length: 201 }, () => ({ photoNumber: '1', quantity: 1 }))],
  ])('refuses invalid lines with VALIDATION_FAILED', (lines) => {
    try {
      priceOrder(list, lines, 'ship');
      expect.unreachable();
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('VALIDATION_FAILED');
    }
  });

  test('totals are exact integer sums for any valid order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            photoNumber: fc.constantFrom('1', '2'),
            size: fc.constantFrom('4x6', '5x7', '8x10'),
            quantity: fc.integer({ min: 1, max: 99 }),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        fc.constantFrom('ship' as const, 'pickup' as const),
        (lines, f) => {
          const p = priceOrder(list, lines, f);
          const expected = lines.reduce(
            (s, l) => s + (list.prices[l.size as keyof typeof list.prices] ?? 0) * l.quantity,
            0,
          );
          return p.subtotalCents === expected && p.totalCents === expected + (f === 'ship' ? 500 : 0);
        },
      ),
    );
  });
});

test('matchSize ignores case, spaces and ×', () => {
  expect(matchSize(list.prices, ' 5 X 7 ')).toBe('5x7');
  expect(matchSize(list.prices, '5×7')).toBe('5x7');
  expect(matchSize(list.prices, '6x9')).toBeUndefined();
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
