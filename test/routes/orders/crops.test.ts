/**
 * Crop centres chosen in the cart (docs/contract.md, "Fulfilment"): variant A carries `crop`
 * on a `photos` item, variant B a `crops` list naming lines by photo number and size. The
 * server keeps them on the order's lines; lines without one print around the middle.
 */
import { describe, expect, test } from 'vitest';
import { adminHeaders, build } from '../../helpers/build.js';
import { bodyA, bodyB, expectError, ordersApp, PREFIX } from '../../support/orders-fixtures.js';

describe('crop centres on order lines', () => {
  test('variant A: `crop` on a photos item is kept on that line, and only there', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({
        photos: ['1', { number: 2, size: '8x10', quantity: 1, crop: { x: 0.1, y: 0.9 } }, { number: '3', size: '5x7' }],
      }),
    });
    expect(res.statusCode).toBe(201);
    const order = await app.store.orders.get(`${PREFIX}-0001`);
    expect(order?.items.map((l) => l.crop)).toEqual([undefined, { x: 0.1, y: 0.9 }, undefined]);
    // The items text and the amounts are untouched by it.
    expect(order?.totalCents).toBe(500 + 2000 + 1000);
  });

  test('variant B: each `crops` entry goes to the line with its photo number and size (spelling aside)', async (t) => {
    const app = await ordersApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({
        crops: [
          { number: '2', size: '5X7', x: 0, y: 0.25 },
          { number: 1, size: '4x6', x: 1, y: 1 },
        ],
      }),
    });
    expect(res.statusCode).toBe(201);
    const order = await app.store.orders.get(res.json().orderNumber);
    expect(order?.items).toEqual([
      expect.objectContaining({ photoNumber: '1', size: '4x6', crop: { x: 1, y: 1 } }),
      expect.objectContaining({ photoNumber: '2', size: '5x7', crop: { x: 0, y: 0.25 } }),
    ]);
  });

  test('the crop survives a restart: it is stored with the order lines', async (t) => {
    const app = await ordersApp(t);
    await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ photos: [{ number: '4', size: '4x6', crop: { x: 0.3, y: 0.7 } }] }),
    });
    await app.close();
    const again = await build(t, { dataDir: app.dataDir });
    expect((await again.store.orders.get(`${PREFIX}-0001`))?.items[0]?.crop).toEqual({ x: 0.3, y: 0.7 });
  });

  test('a crop entry that names no line, or a centre outside the photo, is 400 VALIDATION_FAILED', async (t) => {
    const app = await ordersApp(t);
    const stray = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: adminHeaders,
      payload: bodyB({ crops: [{ number: '2', size: '4x6', x: 0.5, y: 0.5 }] }),
    });
    const { parsed } = expectError(stray, 'POST', '/api/orders', 400, 'VALIDATION_FAILED');
    expect(parsed).toEqual([
      expect.objectContaining({ field: 'crops.0', message: expect.stringContaining('#2 (4x6)') }),
    ]);

    for (const crop of [
      { x: 1.5, y: 0.5 },
      { x: 0.5, y: -0.1 },
      { x: '0.5', y: 0.5 },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: adminHeaders,
        payload: bodyA({ photos: [{ number: '1', crop }] }),
      });
      expectError(res, 'POST', '/api/orders/create', 400, 'VALIDATION_FAILED');
    }
    expect(await app.store.orders.list({ includeHeld: true })).toEqual([]);
  });
});
