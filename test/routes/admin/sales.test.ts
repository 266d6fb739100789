/**
 * `GET /api/orders/summary/breakdown`: paid orders by day (UTC, or `?timeZone=`) and by event,
 * in dollars, agreeing with the summary; admin only.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { TestApp } from '../../helpers/build.js';
import { AX, appWithEvents, BX, call, expectError, orderIn } from './fixtures.js';

const URL = '/api/orders/summary/breakdown';

afterEach(() => {
  vi.useRealTimers();
});

/** Creates (and moves) an order as if it were `iso` now: the store stamps createdAt itself. */
async function orderAt(
  app: TestApp,
  iso: string,
  ...args: Parameters<typeof orderIn> extends [unknown, ...infer R] ? R : never
) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
  try {
    return await orderIn(app, ...args);
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Paid: AX 07-03 10:00Z ($35), AX 07-03 23:30Z ($35), AX 07-04 02:00Z ($35 + an 8x10: $55),
 * BX 07-04 12:00Z ($35), an event no longer in the library 07-05 ($35).
 * Not paid: pending, void, cancelled, held.
 */
async function salesApp(t: Parameters<typeof appWithEvents>[0]): Promise<TestApp> {
  const app = await appWithEvents(t);
  await orderAt(app, '2026-07-03T10:00:00Z', 'paid');
  await orderAt(app, '2026-07-03T23:30:00Z', 'paid', { shipped: true });
  await orderAt(app, '2026-07-04T02:00:00Z', 'paid', {
    items: [
      { photoNumber: '1', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
      { photoNumber: '2', size: '8x10', quantity: 2, unitCents: 2000, lineCents: 4000 },
    ],
  });
  await orderAt(app, '2026-07-04T12:00:00Z', 'paid', { eventSlug: BX, prefix: 'BX24' });
  await orderAt(app, '2026-07-05T12:00:00Z', 'paid', { eventSlug: 'Gone Con', prefix: 'GONE' });
  await orderAt(app, '2026-07-03T11:00:00Z', 'pending');
  await orderAt(app, '2026-07-03T12:00:00Z', 'void');
  await orderAt(app, '2026-07-03T13:00:00Z', 'cancelled');
  await orderAt(app, '2026-07-03T14:00:00Z', 'pending', {
    held: true,
    holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  return app;
}

describe('GET /api/orders/summary/breakdown', () => {
  test('paid orders by UTC day and by event, in dollars; totals agree with the summary', async (t) => {
    const app = await salesApp(t);
    const res = await call(app, { url: URL });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({
      eventSlug: null,
      timeZone: 'UTC',
      byDay: [
        { date: '2026-07-03', orders: 2, revenue: 70 },
        { date: '2026-07-04', orders: 2, revenue: 90 },
        { date: '2026-07-05', orders: 1, revenue: 35 },
      ],
      byEvent: [
        { eventSlug: AX, eventName: 'Anime Expo 2025', orders: 3, revenue: 125 },
        // Equal revenue: by code.
        { eventSlug: BX, eventName: 'Bench Expo', orders: 1, revenue: 35 },
        { eventSlug: 'Gone Con', eventName: null, orders: 1, revenue: 35 },
      ],
    });
    const summary = (await call(app, { url: '/api/orders/summary' })).json();
    const body = res.json() as { byDay: { orders: number; revenue: number }[]; byEvent: { revenue: number }[] };
    expect(body.byDay.reduce((n, d) => n + d.orders, 0)).toBe(summary.completedCount);
    expect(body.byDay.reduce((n, d) => n + d.revenue, 0)).toBe(summary.totalRevenue);
    expect(body.byEvent.reduce((n, d) => n + d.revenue, 0)).toBe(summary.totalRevenue);
  });

  test('?timeZone= counts each order on its local calendar day', async (t) => {
    const app = await salesApp(t);
    const la = (await call(app, { url: `${URL}?timeZone=America/Los_Angeles` })).json();
    expect(la.timeZone).toBe('America/Los_Angeles');
    // 07-03 23:30Z and 07-04 02:00Z are still the 3rd in Los Angeles (UTC-7); 07-04 12:00Z is the 4th.
    expect(la.byDay).toEqual([
      { date: '2026-07-03', orders: 3, revenue: 125 },
      { date: '2026-07-04', orders: 1, revenue: 35 },
      { date: '2026-07-05', orders: 1, revenue: 35 },
    ]);
    const tokyo = (await call(app, { url: `${URL}?timeZone=asia/tokyo` })).json();
    expect(tokyo.timeZone).toBe('Asia/Tokyo');
    expect(tokyo.byDay.map((d: { date: string }) => d.date)).toEqual(['2026-07-03', '2026-07-04', '2026-07-05']);
    expect(tokyo.byDay[0]).toEqual({ date: '2026-07-03', orders: 1, revenue: 35 });
    expect((await call(app, { url: `${URL}?timeZone=utc` })).json().timeZone).toBe('UTC');
  });

  test('?eventSlug= keeps one event; an event without sales gives empty lists', async (t) => {
    const app = await salesApp(t);
    const bx = (await call(app, { url: `${URL}?eventSlug=${encodeURIComponent(BX)}` })).json();
    expect(bx).toEqual({
      eventSlug: BX,
      timeZone: 'UTC',
      byDay: [{ date: '2026-07-04', orders: 1, revenue: 35 }],
      byEvent: [{ eventSlug: BX, eventName: 'Bench Expo', orders: 1, revenue: 35 }],
    });
    const none = (await call(app, { url: `${URL}?eventSlug=Nothing` })).json();
    expect(none).toMatchObject({ eventSlug: 'Nothing', byDay: [], byEvent: [] });
  });

  test('admin only: 401 with WWW-Authenticate; a bad time zone or event filter: 400', async (t) => {
    const app = await appWithEvents(t);
    const anonymous = await call(app, { url: URL, admin: false });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer realm="admin"/);
    const wrong = await call(app, { url: URL, admin: false, headers: { authorization: `Bearer ${'x'.repeat(32)}` } });
    expectError(wrong, 401, 'UNAUTHORIZED');
    for (const q of ['timeZone=Mars/Olympus', 'timeZone=', `timeZone=${'A'.repeat(65)}`, 'eventSlug=']) {
      expectError(await call(app, { url: `${URL}?${q}` }), 400, 'VALIDATION_FAILED');
    }
    const empty = await call(app, { url: URL });
    expect(empty.json()).toEqual({ eventSlug: null, timeZone: 'UTC', byDay: [], byEvent: [] });
  });
});
