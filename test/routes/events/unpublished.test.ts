/**
 * A new event folder copied in without event.json (docs/contract.md, "Finding one's photos,
 * and intake"): listed with ordering off until an admin publishes it with the price list the
 * dashboard shows; what the admin saved then outranks an event.json written later.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { bodyA, expectError, ordersApp } from '../../support/orders-fixtures.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

const NEW = 'Fresh Con';
const CREATE = '/api/orders/create';

describe('an event folder without event.json', () => {
  test('listed, not on sale; published with the prices shown, it sells; a later event.json does not close it', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const root = path.join(app.dataDir, 'photos');
    const img = await makeImage({ width: 24, height: 16 });
    for (const n of [1, 2]) await writePhoto(root, [NEW, 'Sat', 'Hall', `IMG_000${n}.jpg`], img);
    await app.photos.rescan();

    // Listed in the gallery, with its photos, but closed.
    const listed = (await app.inject({ url: '/event' })).json() as { code: string; status: Record<string, unknown> }[];
    expect(listed.find((e) => e.code === NEW)?.status).toEqual({
      isArchived: false,
      orderingEnabled: false,
      deadline: null,
      active: false,
      closedReason: 'disabled',
    });
    expect((await app.inject({ url: `/event/${encodeURIComponent(NEW)}` })).json().totalCount).toBe(2);

    const order = () =>
      app.inject({ method: 'POST', url: CREATE, payload: bodyA({ eventSlug: NEW, photos: ['1', '2'] }) });
    const { parsed } = expectError(await order(), 'POST', CREATE, 409, 'ORDERING_CLOSED');
    expect(parsed).toMatchObject({ eventSlug: NEW, reason: 'disabled' });

    // The dashboard shows the default price list; "Publish with these prices" saves it with ordering on.
    const configUrl = `/api/event-config?eventSlug=${encodeURIComponent(NEW)}`;
    const shown = (await app.inject({ url: configUrl })).json() as { prices: Record<string, number> };
    expect(Object.keys(shown.prices).length).toBeGreaterThan(0);
    const published = await app.inject({
      method: 'PUT',
      url: '/api/event-config',
      headers: adminHeaders,
      payload: { eventSlug: NEW, orderingEnabled: true, prices: shown.prices },
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ orderingEnabled: true, active: true, prices: shown.prices });

    const sold = await order();
    expect(sold.statusCode, sold.body).toBe(201);
    // Priced from the list the admin saw.
    const record = await app.store.orders.get(sold.json().orderNumber);
    for (const line of record?.items ?? [])
      expect(line.unitCents).toBe(Math.round((shown.prices[line.size] ?? 0) * 100));
    expect(record?.items).toHaveLength(2);

    // An event.json copied in afterwards, saying ordering is off: the admin's decision stands.
    await writeEventJson(root, NEW, { name: 'Fresh Con 2026', orderingEnabled: false });
    await app.photos.rescan();
    const after = (await app.inject({ url: configUrl })).json();
    expect(after).toMatchObject({ eventName: 'Fresh Con 2026', orderingEnabled: true, active: true });
    expect((await order()).statusCode).toBe(201);
  });

  test('an event.json that omits orderingEnabled opens ordering at once', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const root = path.join(app.dataDir, 'photos');
    await writePhoto(root, [NEW, 'Sat', 'Hall', 'IMG_0001.jpg'], await makeImage({ width: 24, height: 16 }));
    await writeEventJson(root, NEW, { name: 'Fresh Con', prices: { '4x6': 6 } });
    await app.photos.rescan();
    const res = await app.inject({ method: 'POST', url: CREATE, payload: bodyA({ eventSlug: NEW, photos: ['1'] }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().total).toBe('$6.00');
  });
});
