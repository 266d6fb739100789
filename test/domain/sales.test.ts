import { expect, test } from 'vitest';
import { dayKeyer, isTimeZone, salesBreakdown } from '../../src/domain/sales.js';

const paid = (createdAt: string, eventSlug: string, totalCents: number) =>
  ({ status: 'paid', createdAt, eventSlug, totalCents }) as const;

test('groups paid orders by UTC day (oldest first) and by event (highest revenue first), in cents', () => {
  const result = salesBreakdown([
    paid('2026-07-04T00:00:00Z', 'B', 1999),
    paid('2026-07-03T23:59:59.999Z', 'A', 500),
    paid('2026-07-03T08:00:00+09:00', 'A', 501), // 2026-07-02T23:00Z
    paid('2026-07-04T10:00:00Z', 'C', 1999),
    { status: 'pending', createdAt: '2026-07-04T10:00:00Z', eventSlug: 'A', totalCents: 100_000 },
    { status: 'void', createdAt: '2026-07-01T10:00:00Z', eventSlug: 'D', totalCents: 100_000 },
  ]);
  expect(result.byDay).toEqual([
    { date: '2026-07-02', orders: 1, revenueCents: 501 },
    { date: '2026-07-03', orders: 1, revenueCents: 500 },
    { date: '2026-07-04', orders: 2, revenueCents: 3998 },
  ]);
  // Ties in revenue: by code.
  expect(result.byEvent).toEqual([
    { eventSlug: 'B', orders: 1, revenueCents: 1999 },
    { eventSlug: 'C', orders: 1, revenueCents: 1999 },
    { eventSlug: 'A', orders: 2, revenueCents: 1001 },
  ]);
  expect(salesBreakdown([])).toEqual({ byDay: [], byEvent: [] });
});

test('days in a named time zone, across daylight saving time and the date line', () => {
  const la = dayKeyer('America/Los_Angeles');
  expect(la('2026-07-04T06:59:59Z')).toBe('2026-07-03'); // PDT, UTC-7
  expect(la('2026-07-04T07:00:00Z')).toBe('2026-07-04');
  expect(la('2026-01-04T07:59:59Z')).toBe('2026-01-03'); // PST, UTC-8
  expect(dayKeyer('Pacific/Kiritimati')('2026-07-03T10:00:00Z')).toBe('2026-07-04'); // UTC+14
  expect(dayKeyer('UTC')('2026-07-03T23:59:59.999-01:00')).toBe('2026-07-04');
  const byDay = salesBreakdown([paid('2026-07-04T03:00:00Z', 'A', 100)], { timeZone: 'America/New_York' }).byDay;
  expect(byDay).toEqual([{ date: '2026-07-03', orders: 1, revenueCents: 100 }]);
});

test('isTimeZone knows IANA names and refuses the rest', () => {
  for (const z of ['UTC', 'utc', 'Europe/Paris', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(z)).toBe(true);
  for (const z of ['Mars/Olympus', '', 'UTC+25', '../etc']) expect(isTimeZone(z)).toBe(false);
});
