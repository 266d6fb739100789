/**
 * The gallery shows the admin's overrides: a PUT /api/event-config change is visible at once
 * in `GET /event` (status) and `GET /event/{code}` (event.status), despite the page cache.
 */
import { describe, expect, test } from 'vitest';
import { catalogSettings } from '../../../src/routes/gallery/event-settings.js';
import type { EffectiveEvent } from '../../../src/services/events/catalog.js';
import { AX, appWithEvents, call } from '../admin/fixtures.js';

type GalleryEvent = { code: string; status: Record<string, unknown> };

describe('gallery status follows PUT /api/event-config', () => {
  test('GET /event and GET /event/{code} reflect flags and deadline at once', async (t) => {
    const app = await appWithEvents(t);
    const statusIn = async () => {
      const list = (await app.inject({ url: '/event' })).json() as GalleryEvent[];
      const page = (await app.inject({ url: `/event/${AX}` })).json() as { event: GalleryEvent };
      expect(page.event.status).toEqual(list.find((e) => e.code === AX)?.status);
      return page.event.status;
    };
    expect(await statusIn()).toEqual({
      isArchived: false,
      orderingEnabled: true,
      deadline: null,
      active: true,
      closedReason: null,
    });

    await call(app, { method: 'PUT', url: '/api/event-config', payload: { eventSlug: AX, orderingEnabled: false } });
    expect(await statusIn()).toEqual({
      isArchived: false,
      orderingEnabled: false,
      deadline: null,
      active: false,
      closedReason: 'disabled',
    });

    await call(app, {
      method: 'PUT',
      url: '/api/event-config',
      payload: { eventSlug: AX, orderingEnabled: true, deadline: '2099-01-01T00:00:00Z' },
    });
    expect(await statusIn()).toEqual({
      isArchived: false,
      orderingEnabled: true,
      deadline: '2099-01-01T00:00:00.000Z',
      active: true,
      closedReason: null,
    });

    // A deadline in the past: closed because of it, in the list and on the (cached) page alike.
    await call(app, {
      method: 'PUT',
      url: '/api/event-config',
      payload: { eventSlug: AX, deadline: '2001-01-01T00:00:00Z' },
    });
    expect(await statusIn()).toMatchObject({ active: false, closedReason: 'deadline' });

    await call(app, {
      method: 'PUT',
      url: '/api/event-config',
      payload: { eventSlug: AX, isArchived: true, deadline: '2000-01-01T00:00:00Z' },
    });
    expect(await statusIn()).toMatchObject({
      isArchived: true,
      deadline: '2000-01-01T00:00:00.000Z',
      active: false,
      closedReason: 'archived',
    });
  });
});

describe('catalogSettings', () => {
  const effective = (over: Partial<EffectiveEvent>): EffectiveEvent => ({
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
    deadline: null,
    printSizes: {},
    showRejected: false,
    minRating: 0,
    featuredRating: 4,
    photoCount: 1,
    autoPrint: 'off',
    autoPrintSince: null,
    open: true,
    faceSearch: false,
    ...over,
  });
  const libraryEvent = effective({}) as unknown as Parameters<ReturnType<typeof catalogSettings>['settingsOf']>[0];

  test('asks the catalog only when a generation moved or a second passed; keeps the last settings when it fails', async () => {
    let now = 0;
    let calls = 0;
    let fail = false;
    let current = effective({ orderingEnabled: false });
    const catalog = {
      generation: 1,
      list: async () => {
        calls++;
        if (fail) throw new Error('store down');
        return [current];
      },
    };
    const library = { generation: 1 };
    const errors: unknown[] = [];
    const settings = catalogSettings(catalog, library, { now: () => now, onError: (e) => errors.push(e) });

    await settings.refresh();
    expect(settings.settingsOf(libraryEvent)).toMatchObject({ orderingEnabled: false });
    expect(settings.generation).toBe(1);
    await settings.refresh();
    expect(calls).toBe(1);

    current = effective({ isArchived: true });
    catalog.generation = 2;
    await settings.refresh();
    expect(calls).toBe(2);
    expect(settings.settingsOf(libraryEvent)).toMatchObject({ isArchived: true });
    expect(settings.generation).toBe(2);

    library.generation = 2;
    await settings.refresh();
    expect(calls).toBe(3);
    now += 1000;
    await settings.refresh();
    expect(calls).toBe(4);

    fail = true;
    now += 1000;
    await settings.refresh();
    await settings.refresh();
    catalog.generation = 3;
    await settings.refresh();
    expect(calls).toBe(5); // one failed attempt, then a second's pause
    expect(errors).toHaveLength(1);
    expect(settings.settingsOf(libraryEvent)).toMatchObject({ isArchived: true });
    expect(settings.generation).toBe(2);

    fail = false;
    now += 1000;
    await settings.refresh();
    expect(settings.generation).toBe(3);
  });
});
