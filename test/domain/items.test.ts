import fc from 'fast-check';
import { expect, test } from 'vitest';
import { formatItems, parseItems } from '../../src/domain/items.js';
import { formatCents, parseMoney } from '../../src/domain/money.js';

test('items text round-trips through format and parse', () => {
  const line = fc.record({
    photoNumber: fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
    size: fc.constantFrom('4x6', '5x7', '8x10', 'Wallet'),
    quantity: fc.integer({ min: 1, max: 99 }),
    unitCents: fc.integer({ min: 0, max: 100_000 }),
  });
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 50 }), (ls) => {
      const lines = ls.map((l) => ({ ...l, lineCents: l.unitCents * l.quantity }));
      const parsed = parseItems(formatItems(lines));
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.lines).toEqual(
        lines.map((l) => ({
          photoNumber: l.photoNumber,
          size: l.size,
          quantity: l.quantity,
          amountCents: l.lineCents,
        })),
      );
    }),
  );
});

test('the documented example parses; amounts are optional; bad lines are reported', () => {
  expect(parseItems('Photo #12 (4x6) x2 = $10.00; Photo #7 (8x10) x1')).toEqual({
    ok: true,
    lines: [
      { photoNumber: '12', size: '4x6', quantity: 2, amountCents: 1000 },
      { photoNumber: '7', size: '8x10', quantity: 1, amountCents: null },
    ],
  });
  const bad = parseItems('Photo #12 (4x6) x0; hello; Photo #3 (4x6) x1 = $abc');
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.errors.map((e) => e.line)).toEqual([1, 2, 3]);
  expect(parseItems(' ; ').ok).toBe(false);
});

test('money is exact cents', () => {
  expect(formatCents(1250)).toBe('$12.50');
  expect(formatCents(5)).toBe('$0.05');
  expect(parseMoney('$1,234.5')).toBe(123450);
  expect(parseMoney('0.1')).toBe(10);
  expect(parseMoney('12.345')).toBeNull();
  expect(parseMoney('1e3')).toBeNull();
  fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (c) => parseMoney(formatCents(c)) === c));
});
