/**
 * Event configuration and discovery (docs/contract.md, "Events"): GET/PUT /api/event-config, /api/proxy-events,
 * /api/event-prefix, and the cached active-event list.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createActiveEventList } from '../../../src/routes/events/active-list.js';
import type { EffectiveEvent } from '../../../src/services/events/catalog.js';
import { build } from '../../helpers/build.js';
import { AX, appWithEvents, BX, call, errorBody, expectError } from '../admin/fixtures.js';

const config = (slug: string) => `/api/event-config?eventSlug=${encodeURIComponent(slug)}`;
const put = (payload: unknown) => ({ method: 'PUT' as const, url: '/api/event-config', payload });

describe('GET /api/event-config', () => {
  test('the event.json defaults, money as dollar numbers; public', async (t) => {
    const app = await appWithEvents(t);
    const res = await call(app, { url: config(AX), admin: false });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({
      eventSlug: AX,
      eventName: 'Anime Expo 2025',
      eventPrefix: 'AX25',
      date: '2025-07-03',
      isArchived: false,
      orderingEnabled: true,
      deadline: null,
      prices: { '4x6': 5, '5x7': 10, '8x10': 20 },
      defaultSize: '4x6',
      shippingFee: 5,
      packages: [],
      earlyBird: null,
      active: true,
      autoPrint: 'off',
      closedReason: null,
      printSizes: { '4x6': [4, 6], '5x7': [5, 7], '8x10': [8, 10] },
      faceSearch: false,
      selfieSearch: false,
      showRejected: false,
      minRating: 0,
      featuredRating: 4,
    });
    expect((await call(app, { url: config(BX), admin: false })).json()).toMatchObject({
      prices: { '4x6': 4.5 },
      shippingFee: 3.25,
    });
  });

  test("printSizes: the inches of every priced size that has them, from the fixed table, event.json's printSizes or the name", async (t) => {
    const app = await appWithEvents(t, {
      events: {
        [AX]: {
          prices: { '4x6': 5, Wallet: 3, '11x14': 30, Poster: 40 },
          printSizes: { Wallet: [2.5, 3.5], Unpriced: [1, 1] },
        },
      },
    });
    expect((await call(app, { url: config(AX), admin: false })).json().printSizes).toEqual({
      '4x6': [4, 6],
      Wallet: [2.5, 3.5],
      '11x14': [11, 14],
    });
  });

  test('missing eventSlug is 400; unknown (or differently cased) is 404 EVENT_NOT_FOUND', async (t) => {
    const app = await appWithEvents(t);
    expectError(await call(app, { url: '/api/event-config', admin: false }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: '/api/event-config?eventSlug=', admin: false }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: config('Nope'), admin: false }), 404, 'EVENT_NOT_FOUND');
    expectError(await call(app, { url: config('ax2025'), admin: false }), 404, 'EVENT_NOT_FOUND');
  });

  test('an event.json deadline in the past or archived closes the event', async (t) => {
    const app = await appWithEvents(t, {
      events: {
        Past: { deadline: '2020-01-01T00:00:00Z' },
        Old: { isArchived: true },
        Off: { orderingEnabled: false },
      },
    });
    expect((await call(app, { url: config('Past') })).json()).toMatchObject({
      deadline: '2020-01-01T00:00:00.000Z',
      active: false,
      closedReason: 'deadline',
    });
    expect((await call(app, { url: config('Old') })).json()).toMatchObject({ active: false, closedReason: 'archived' });
    expect((await call(app, { url: config('Off') })).json()).toMatchObject({ active: false, closedReason: 'disabled' });
  });
});

describe('PUT /api/event-config', () => {
  test('changes flags, deadline, prices and fee; visible at once in GET and proxy-events; survives a restart', async (t) => {
    const app = await appWithEvents(t);
    const list0 = (await call(app, { url: '/api/proxy-events', admin: false })).json();
    expect(list0).toContainEqual({
      eventSlug: AX,
      eventName: 'Anime Expo 2025',
      eventPrefix: 'AX25',
      date: '2025-07-03',
      active: true,
    });

    const res = await call(app, put({ eventSlug: AX, orderingEnabled: false }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      eventSlug: AX,
      orderingEnabled: false,
      active: false,
      closedReason: 'disabled',
    });
    expect((await call(app, { url: config(AX) })).json()).toMatchObject({ orderingEnabled: false, active: false });
    const list1 = (await call(app, { url: '/api/proxy-events' })).json();
    expect(list1.find((e: { eventSlug: string }) => e.eventSlug === AX).active).toBe(false);

    const second = await call(
      app,
      put({
        eventSlug: AX,
        orderingEnabled: true,
        deadline: '2099-12-31T18:00:00-06:00',
        prices: { '4x6': 6.5, Digital: 0, '11x14': 35.99 },
        shippingFee: 7.25,
      }),
    );
    expect(second.json()).toMatchObject({
      orderingEnabled: true,
      isArchived: false,
      deadline: '2100-01-01T00:00:00.000Z',
      prices: { '4x6': 6.5, Digital: 0, '11x14': 35.99 },
      defaultSize: '4x6',
      shippingFee: 7.25,
      active: true,
    });
    // Stored in cents in the store.
    expect(await app.store.eventSettings.get(AX)).toMatchObject({
      prices: { '4x6': 650, Digital: 0, '11x14': 3599 },
      shippingFeeCents: 725,
    });
    expect((await call(app, { url: '/api/proxy-events' })).json()).toContainEqual(
      expect.objectContaining({ eventSlug: AX, active: true }),
    );

    // Archive, then clear the deadline: other settings stay.
    await call(app, put({ eventSlug: AX, isArchived: true, deadline: null }));
    await app.close();
    const again = await build(t, { dataDir: app.dataDir });
    expect((await call(again, { url: config(AX) })).json()).toMatchObject({
      isArchived: true,
      deadline: null,
      shippingFee: 7.25,
      prices: { '4x6': 6.5, Digital: 0, '11x14': 35.99 },
      active: false,
      closedReason: 'archived',
    });
  });

  test('a deadline in the past closes ordering at once', async (t) => {
    const app = await appWithEvents(t);
    const res = await call(app, put({ eventSlug: AX, deadline: '2001-01-01T00:00:00Z' }));
    expect(res.json()).toMatchObject({ active: false, closedReason: 'deadline' });
    expect((await call(app, { url: '/api/proxy-events' })).json()).toContainEqual(
      expect.objectContaining({ eventSlug: AX, active: false }),
    );
  });

  test('a removed default size falls back to the first listed one', async (t) => {
    const app = await appWithEvents(t);
    const res = await call(app, put({ eventSlug: AX, prices: { '5x7': 9, '8x10': 18 } }));
    expect(res.json()).toMatchObject({ prices: { '5x7': 9, '8x10': 18 }, defaultSize: '5x7' });
  });

  test('packages and the early bird: set in dollars, stored in cents, shown, replaced and removed', async (t) => {
    const app = await appWithEvents(t);
    const res = await call(
      app,
      put({
        eventSlug: AX,
        packages: [
          { size: '4X6', count: 5, price: 20 },
          { size: '8x10', count: 3, price: 50.5 },
        ],
        earlyBird: { percent: 15, until: '2099-06-01T00:00:00+02:00' },
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      packages: [
        { size: '4X6', count: 5, price: 20 },
        { size: '8x10', count: 3, price: 50.5 },
      ],
      earlyBird: { percent: 15, until: '2099-05-31T22:00:00.000Z' },
    });
    expect(await app.store.eventSettings.get(AX)).toMatchObject({
      packages: [
        { size: '4X6', count: 5, priceCents: 2000 },
        { size: '8x10', count: 3, priceCents: 5050 },
      ],
      earlyBird: { percent: 15, until: '2099-05-31T22:00:00.000Z' },
    });
    // Another setting alone keeps them; [] and null remove them.
    expect((await call(app, put({ eventSlug: AX, shippingFee: 4 }))).json().packages).toHaveLength(2);
    expect((await call(app, put({ eventSlug: AX, packages: [], earlyBird: null }))).json()).toMatchObject({
      packages: [],
      earlyBird: null,
    });
  });

  test('packages must fit the price list in effect after the change', async (t) => {
    const app = await appWithEvents(t);
    const refused = [
      { packages: [{ size: '11x14', count: 2, price: 5 }] },
      { packages: [{ size: '4x6', count: 5, price: 25 }] },
      {
        packages: [
          { size: '4x6', count: 5, price: 20 },
          { size: '4 x 6', count: 10, price: 35 },
        ],
      },
      { prices: { '5x7': 10 }, packages: [{ size: '4x6', count: 5, price: 20 }] },
    ];
    for (const change of refused) {
      const res = await call(app, put({ eventSlug: AX, ...change }));
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(JSON.parse(res.json().details)[0].field).toMatch(/^packages\.\d$/);
    }
    expect(await app.store.eventSettings.get(AX)).toBeNull();
    // A price change that would leave a package saving nothing is refused, naming prices.
    await call(app, put({ eventSlug: AX, packages: [{ size: '4x6', count: 5, price: 20 }] }));
    const cheaper = await call(app, put({ eventSlug: AX, prices: { '4x6': 3, '5x7': 10 } }));
    expectError(cheaper, 400, 'VALIDATION_FAILED');
    expect(JSON.parse(cheaper.json().details)[0]).toMatchObject({ field: 'prices' });
  });

  test('bad packages and early birds are 400 VALIDATION_FAILED', async (t) => {
    const app = await appWithEvents(t);
    for (const change of [
      { packages: [{ size: '4x6', count: 1, price: 4 }] },
      { packages: [{ size: '4x6', count: 5, price: 20.001 }] },
      { packages: [{ size: '4x6', count: 5 }] },
      { packages: [{ size: '4x6', count: 5, price: 20, extra: 1 }] },
      { packages: { size: '4x6', count: 5, price: 20 } },
      { earlyBird: { percent: 0, until: '2099-01-01T00:00:00Z' } },
      { earlyBird: { percent: 101, until: '2099-01-01T00:00:00Z' } },
      { earlyBird: { percent: 12.5, until: '2099-01-01T00:00:00Z' } },
      { earlyBird: { percent: 10, until: '2099-01-01' } },
      { earlyBird: { percent: 10 } },
    ]) {
      expectError(await call(app, put({ eventSlug: AX, ...change })), 400, 'VALIDATION_FAILED');
    }
  });

  test('strict validation: every bad body is 400 and changes nothing; unknown event 404', async (t) => {
    const app = await appWithEvents(t);
    const bad: unknown[] = [
      {},
      { eventSlug: AX },
      { isArchived: true },
      { eventSlug: '', isArchived: true },
      { eventSlug: AX, isArchived: 'yes' },
      { eventSlug: AX, orderingEnabled: 1 },
      { eventSlug: AX, deadline: 'tomorrow' },
      { eventSlug: AX, deadline: '2026-08-01' },
      { eventSlug: AX, deadline: '2026-08-01T00:00:00' },
      { eventSlug: AX, deadline: 1767225600000 },
      { eventSlug: AX, prices: {} },
      { eventSlug: AX, prices: { '4x6': -1 } },
      { eventSlug: AX, prices: { '4x6': 5.001 } },
      { eventSlug: AX, prices: { '4x6': '5.00' } },
      { eventSlug: AX, prices: { '4x6': 100_000.01 } },
      { eventSlug: AX, prices: { '4x6': null } },
      { eventSlug: AX, prices: { '4x6 (glossy)': 5 } },
      { eventSlug: AX, prices: { '4x6; 5x7': 5 } },
      { eventSlug: AX, prices: { ' 4x6': 5 } },
      { eventSlug: AX, prices: { '4x6': 5, '4X6': 6 } },
      { eventSlug: AX, prices: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`s${i}`, 1])) },
      { eventSlug: AX, prices: [5, 10] },
      { eventSlug: AX, shippingFee: -0.01 },
      { eventSlug: AX, shippingFee: Number.NaN },
      { eventSlug: AX, shippingFee: '5' },
      { eventSlug: AX, isArchived: true, name: 'Renamed' },
      { eventSlug: AX, isArchived: true, prefix: 'ZZ' },
      { eventSlug: AX, isArchived: true, active: true },
      '{"eventSlug":"AX2025","__proto__":{"isArchived":true}}',
    ];
    for (const payload of bad) {
      const res = await call(app, put(payload));
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    expect(await app.store.eventSettings.get(AX)).toBeNull();
    expectError(await call(app, put({ eventSlug: 'Nope', isArchived: true })), 404, 'EVENT_NOT_FOUND');
    expect(await app.store.eventSettings.get('Nope')).toBeNull();
  });

  test('any body: never a 5xx, every 4xx has the error body (docs/contract.md, "Hosts and formats")', async (t) => {
    const app = await appWithEvents(t);
    const key = fc.constantFrom('eventSlug', 'isArchived', 'orderingEnabled', 'deadline', 'prices', 'shippingFee', 'x');
    const value = fc.oneof(
      fc.constantFrom(AX, BX, true, false, null, '2030-01-01T00:00:00Z', 0, 5.5, -1),
      fc.string({ maxLength: 40 }),
      fc.double(),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.double(), fc.integer(), fc.string()), { maxKeys: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.dictionary(key, value, { maxKeys: 6 }), fc.jsonValue()), async (payload) => {
        const res = await app.inject({
          method: 'PUT',
          url: '/api/event-config',
          headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json()).toEqual(errorBody);
      }),
      { numRuns: 150 },
    );
  });
});

describe('GET /api/proxy-events', () => {
  test('every event with its active flag, newest first; the same bytes until something changes', async (t) => {
    const app = await appWithEvents(t, {
      events: {
        [AX]: { name: 'Anime Expo 2025', date: '2025-07-03', prefix: 'AX25' },
        [BX]: { date: '2024-05-01', isArchived: true },
      },
    });
    const res = await call(app, { url: '/api/proxy-events', admin: false });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual([
      { eventSlug: AX, eventName: 'Anime Expo 2025', eventPrefix: 'AX25', date: '2025-07-03', active: true },
      { eventSlug: BX, eventName: BX, eventPrefix: 'BENCHEXP', date: '2024-05-01', active: false },
    ]);
    expect((await call(app, { url: '/api/proxy-events' })).body).toBe(res.body);
  });

  test('the cache is rebuilt when a generation changes or an open event reaches its deadline', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    let deadline: string | null = '2026-01-01T00:00:10Z';
    const catalog = { generation: 1, calls: 0 };
    const photos = { generation: 1 };
    const ev = (): EffectiveEvent => ({
      code: 'E',
      name: 'E',
      date: null,
      prefix: 'E',
      prices: { '4x6': 500 },
      defaultSize: '4x6',
      shippingFeeCents: 500,
      packages: [],
      earlyBird: null,
      isArchived: false,
      orderingEnabled: true,
      deadline,
      printSizes: {},
      showRejected: false,
      minRating: 0,
      featuredRating: 4,
      photoCount: 1,
      autoPrint: 'off',
      autoPrintSince: null,
      open: deadline === null || Date.parse(deadline) > now,
      faceSearch: false,
    });
    const list = createActiveEventList({
      events: {
        get generation() {
          return catalog.generation;
        },
        list: async () => {
          catalog.calls++;
          return [ev()];
        },
      },
      photos,
      now: () => now,
    });
    const a = await list.bytes();
    expect(JSON.parse(a.toString())).toEqual([
      { eventSlug: 'E', eventName: 'E', eventPrefix: 'E', date: null, active: true },
    ]);
    expect(await list.bytes()).toBe(a);
    expect(catalog.calls).toBe(2); // asked every time, so the catalog can refresh its generation

    now += 10_000; // the deadline
    const b = await list.bytes();
    expect(b).not.toBe(a);
    expect(JSON.parse(b.toString())[0].active).toBe(false);
    expect(await list.bytes()).toBe(b);

    deadline = null;
    catalog.generation++;
    const c = await list.bytes();
    expect(JSON.parse(c.toString())[0].active).toBe(true);
    photos.generation++;
    expect(await list.bytes()).not.toBe(c);
  });
});

describe('GET /api/event-prefix', () => {
  test('the event of the gallery page in the Referer', async (t) => {
    const app = await appWithEvents(t);
    const referers = [
      'https://gallery.example/event/AX2025/Day%201/Morning',
      'https://gallery.example/event/AX2025',
      'http://localhost:5173/events/AX2025?page=2',
      'https://shop.example/checkout?eventSlug=AX2025',
    ];
    for (const referer of referers) {
      const res = await call(app, { url: '/api/event-prefix', admin: false, headers: { referer } });
      expect(res.statusCode, referer).toBe(200);
      expect(res.json()).toEqual({ eventSlug: AX, eventPrefix: 'AX25', eventName: 'Anime Expo 2025' });
    }
    const bx = await call(app, {
      url: '/api/event-prefix',
      admin: false,
      headers: { referer: `https://gallery.example/event/${encodeURIComponent(BX)}/Day%201` },
    });
    expect(bx.json()).toMatchObject({ eventSlug: BX, eventPrefix: 'BX24' });
  });

  test('no Referer, nothing recognisable, or an unknown event: 404 EVENT_NOT_FOUND', async (t) => {
    const app = await appWithEvents(t);
    expectError(await call(app, { url: '/api/event-prefix', admin: false }), 404, 'EVENT_NOT_FOUND');
    for (const referer of [
      'not a url',
      'https://gallery.example/',
      'https://gallery.example/event/',
      'https://gallery.example/event/Nope/Day%201',
      'https://gallery.example/event/%E0%A4%A',
      `https://gallery.example/event/${'A'.repeat(3000)}`,
    ]) {
      expectError(
        await call(app, { url: '/api/event-prefix', admin: false, headers: { referer } }),
        404,
        'EVENT_NOT_FOUND',
      );
    }
  });
});
