/**
 * The admin order lists, the sales summary and the single-order route (docs/contract.md, "Status and shipping").
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { AdminOrder } from '../../../src/schemas/order.js';
import { build } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';
import { adminHeaders, appWithEvents, BX, call, expectError, orderIn } from './fixtures.js';

const numbers = (body: { orderNumber: string }[]) => body.map((o) => o.orderNumber);

describe('GET /api/orders/pending | completed | cancelled', () => {
  test('each list holds its statuses, newest first; held orders are in none', async (t) => {
    const app = await appWithEvents(t);
    const p1 = await orderIn(app, 'pending');
    const paid1 = await orderIn(app, 'paid');
    const v = await orderIn(app, 'void');
    const p2 = await orderIn(app, 'pending');
    const c = await orderIn(app, 'cancelled');
    const paid2 = await orderIn(app, 'paid', { shipped: true });
    const voidAfterPaid = await orderIn(app, 'void', { shipped: true });
    await app.store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
      { by: 'customer' },
    );

    const pending = await call(app, { url: '/api/orders/pending' });
    expect(pending.statusCode).toBe(200);
    expect(pending.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(pending.headers['cache-control']).toBe('no-cache');
    expect(numbers(pending.json())).toEqual([p2.orderNumber, p1.orderNumber]);

    const completed = await call(app, { url: '/api/orders/completed' });
    expect(numbers(completed.json())).toEqual([paid2.orderNumber, paid1.orderNumber]);
    expect(completed.json()[0]).toMatchObject({ shippingStatus: 'shipped', trackingNumber: '1Z999' });

    const cancelled = await call(app, { url: '/api/orders/cancelled' });
    expect(numbers(cancelled.json())).toEqual([voidAfterPaid.orderNumber, c.orderNumber, v.orderNumber]);
    expect(cancelled.json().map((o: { status: string }) => o.status)).toEqual(['void', 'cancelled', 'void']);
  });

  test('an Order in a list is exactly the admin allow-list (with its history), money as text', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const [item] = (await call(app, { url: '/api/orders/pending' })).json();
    expect(AdminOrder.strict().parse(item)).toEqual(item);
    expect(item.history).toEqual([{ at: order.createdAt, action: 'create', to: 'pending', by: 'customer' }]);
    expect(item).toMatchObject({
      id: order.id,
      orderNumber: order.orderNumber,
      items: 'Photo #12 (4x6) x2 = $10.00; Photo #0007 (8x10) x1 = $20.00',
      subtotal: '$30.00',
      shippingFee: '$5.00',
      total: '$35.00',
      status: 'pending',
      shippingStatus: 'ship',
      verificationRequired: false,
    });
    expect(Object.keys(item)).not.toContain('held');
    expect(Object.keys(item)).not.toContain('totalCents');
  });

  test('?eventSlug= keeps one event; an event without orders gives []', async (t) => {
    const app = await appWithEvents(t);
    const ax = await orderIn(app, 'pending');
    const bx = await orderIn(app, 'pending', { eventSlug: BX, prefix: 'BX24' });
    expect(numbers((await call(app, { url: '/api/orders/pending?eventSlug=AX2025' })).json())).toEqual([
      ax.orderNumber,
    ]);
    const enc = encodeURIComponent(BX);
    expect(numbers((await call(app, { url: `/api/orders/pending?eventSlug=${enc}` })).json())).toEqual([
      bx.orderNumber,
    ]);
    expect((await call(app, { url: '/api/orders/pending?eventSlug=Nothing' })).json()).toEqual([]);
    expectError(await call(app, { url: '/api/orders/pending?eventSlug=' }), 400, 'VALIDATION_FAILED');
  });

  test('a change through the API shows in the next list at once (the cached bytes are rebuilt)', async (t) => {
    const app = await appWithEvents(t);
    const a = await orderIn(app, 'pending');
    const b = await orderIn(app, 'pending');
    const first = await call(app, { url: '/api/orders/pending' });
    const again = await call(app, { url: '/api/orders/pending' });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(numbers(first.json())).toEqual([b.orderNumber, a.orderNumber]);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"ol-/);
    const notModified = await call(app, { url: '/api/orders/pending', headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);

    await call(app, { method: 'POST', url: `/api/orders/${a.id}/update-status`, payload: { status: 'paid' } });
    await call(app, { method: 'PUT', url: `/api/orders/${b.id}`, payload: { customerName: 'Grace Hopper' } });
    const changed = await call(app, { url: '/api/orders/pending', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const pending = changed.json();
    expect(numbers(pending)).toEqual([b.orderNumber]);
    expect(pending[0].customerName).toBe('Grace Hopper');
    expect(numbers((await call(app, { url: '/api/orders/completed' })).json())).toEqual([a.orderNumber]);

    await app.store.orders.appendFeedback(b.id, 'Lovely photos', new Date('2026-01-01T00:00:00Z'), {
      by: 'customer',
      proof: 'email',
    });
    expect((await call(app, { url: '/api/orders/pending' })).json()[0].feedback).toBe(
      '[2026-01-01T00:00:00.000Z] Lovely photos',
    );
  });

  test('an unchanged list keeps its ETag across a restart: the tag is a hash of the bytes', async (t) => {
    const app = await appWithEvents(t);
    await orderIn(app, 'pending');
    const before = await call(app, { url: '/api/orders/pending' });
    await app.close();
    const restarted = await build(t, { dataDir: app.config.dataDir });
    const after = await call(restarted, {
      url: '/api/orders/pending',
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(304);
    expect(after.headers.etag).toBe(before.headers.etag);
  });
});

describe('gzip', () => {
  test('a large list goes out gzipped when the client accepts it, with its own ETag; a small one never', async (t) => {
    const app = await appWithEvents(t);
    await Promise.all(Array.from({ length: 40 }, () => orderIn(app, 'pending')));
    const plain = await call(app, { url: '/api/orders/pending' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.rawPayload.length).toBeGreaterThan(16 * 1024);

    const headers = { ...adminHeaders, 'accept-encoding': 'br;q=1, gzip;q=0.8, deflate' };
    const gz = await app.inject({ url: '/api/orders/pending', headers });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(gz.headers.vary).toContain('Accept-Encoding');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(gz.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-gz"`);

    const again = await app.inject({ url: '/api/orders/pending', headers });
    expect(again.rawPayload.equals(gz.rawPayload)).toBe(true);
    // The ETag follows the bytes: a rebuild in between (the intake finishing a photo in the
    // background changes the library) gives the same bytes, so the unchanged ETag gets 304.
    const notModified = await app.inject({
      url: '/api/orders/pending',
      headers: { ...headers, 'if-none-match': again.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    // The plain ETag does not validate the gzipped representation, nor the other way round.
    const cross = await app.inject({
      url: '/api/orders/pending',
      headers: { ...headers, 'if-none-match': plain.headers.etag as string },
    });
    expect(cross.statusCode).toBe(200);

    const small = await app.inject({ url: '/api/orders/completed', headers });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual([]);
  });
});

describe('GET /api/orders/summary', () => {
  test('counts the three lists and sums in cents; held orders are left out; ?eventSlug=', async (t) => {
    const app = await appWithEvents(t);
    const empty = await call(app, { url: '/api/orders/summary' });
    expect(empty.json()).toEqual({
      totalOrders: 0,
      pendingCount: 0,
      completedCount: 0,
      cancelledCount: 0,
      totalRevenue: 0,
      pendingRevenue: 0,
      averageOrderValue: 0,
      totalDiscounts: 0,
    });
    const line = (cents: number) => [
      { photoNumber: '1', size: '4x6', quantity: 1, unitCents: cents, lineCents: cents },
    ];
    await orderIn(app, 'paid', { items: line(1000), shippingFeeCents: 1 }); // 10.01
    await orderIn(app, 'paid', { items: line(2000), shippingFeeCents: 1 }); // 20.01
    await orderIn(app, 'paid', { items: line(10), shippingFeeCents: 0 }); // 0.10
    await orderIn(app, 'pending', { items: line(333), shippingFeeCents: 0 }); // 3.33
    await orderIn(app, 'void');
    await orderIn(app, 'cancelled');
    await orderIn(app, 'pending', { eventSlug: BX, prefix: 'BX24', items: line(450), shippingFeeCents: 0 });
    await app.store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
      { by: 'customer' },
    );

    const all = await call(app, { url: '/api/orders/summary' });
    expect(all.json()).toEqual({
      totalOrders: 7,
      pendingCount: 2,
      completedCount: 3,
      cancelledCount: 2,
      totalRevenue: 30.12,
      pendingRevenue: 7.83,
      averageOrderValue: 10.04,
      totalDiscounts: 0,
    });
    const bx = await call(app, { url: `/api/orders/summary?eventSlug=${encodeURIComponent(BX)}` });
    expect(bx.json()).toMatchObject({ totalOrders: 1, pendingCount: 1, pendingRevenue: 4.5, totalRevenue: 0 });
  });
});

describe('GET /api/orders/{orderNumber}', () => {
  test('by order number (any case) or id; unknown is 404 ORDER_NOT_FOUND; held orders are shown', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    for (const ref of [order.orderNumber, order.orderNumber.toLowerCase(), order.id]) {
      const res = await call(app, { url: `/api/orders/${encodeURIComponent(ref)}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: order.id, orderNumber: order.orderNumber, total: '$35.00' });
    }
    expectError(await call(app, { url: '/api/orders/AX25-9999' }), 404, 'ORDER_NOT_FOUND');
    expectError(await call(app, { url: '/api/orders/%20' }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: `/api/orders/${'x'.repeat(101)}` }), 400, 'VALIDATION_FAILED');

    const held = await app.store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
      { by: 'customer' },
    );
    const res = await call(app, { url: `/api/orders/${held.orderNumber}` });
    expect(res.json()).toMatchObject({ orderNumber: held.orderNumber, verificationRequired: true });
  });
});
