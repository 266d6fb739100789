/**
 * Status moves (every from × to pair of docs/contract.md, "Status and shipping", through update-status and PUT), field edits
 * and their rules, held orders, and a property-based run over the PUT body.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { OrderStatus } from '../../../src/domain/order.js';
import { withPushService } from '../../support/push-service.js';
import { newOrder } from '../../support/store-fixtures.js';
import { appWithEvents, call, errorBody, expectError, orderIn } from './fixtures.js';

const STATUSES: OrderStatus[] = ['pending', 'paid', 'void', 'cancelled'];

/**
 * The moves an admin may make, written out (docs/contract.md, "Status and shipping"); paid →
 * pending is the undo of "Mark paid", allowed here because each order was just marked paid
 * (its limits: test/routes/fulfilment/pickup.test.ts).
 */
const ALLOWED: Record<OrderStatus, OrderStatus[]> = {
  pending: ['paid', 'void', 'cancelled'],
  paid: ['void', 'pending'],
  void: [],
  cancelled: [],
};

describe('every from × to status pair (docs/contract.md, "Status and shipping")', () => {
  for (const via of ['update-status', 'PUT'] as const) {
    test(`through ${via}`, async (t) => {
      const app = await appWithEvents(t);
      for (const from of STATUSES) {
        for (const to of STATUSES) {
          const order = await orderIn(app, from);
          const res =
            via === 'PUT'
              ? await call(app, { method: 'PUT', url: `/api/orders/${order.orderNumber}`, payload: { status: to } })
              : await call(app, {
                  method: 'POST',
                  url: `/api/orders/${order.id}/update-status`,
                  payload: { status: to },
                });
          const stored = await app.store.orders.get(order.id);
          const what = `${from} → ${to}`;
          if (from === to || ALLOWED[from].includes(to)) {
            expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
            const order2 = via === 'PUT' ? res.json() : res.json().order;
            expect(order2.status, what).toBe(to);
            expect(stored?.status, what).toBe(to);
            if (via === 'update-status') {
              expect(res.json()).toMatchObject({ success: true, changed: from !== to });
              expect(res.json().message, what).toMatch(from === to ? /nothing changed/ : new RegExp(`is now ${to}`));
            }
            if (from === to) expect(stored?.updatedAt, `${what} changes nothing`).toBe(order.updatedAt);
          } else {
            expectError(res, 409, 'INVALID_TRANSITION');
            expect(stored?.status, what).toBe(from);
          }
        }
      }
    });
  }

  test('update-status accepts only a status; unknown order 404', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const url = `/api/orders/${order.id}/update-status`;
    for (const payload of [
      {},
      { status: 'shipped' },
      { status: 'PAID' },
      { status: 'paid', note: 'x' },
      [],
      '"paid"',
      'status=paid',
    ]) {
      expectError(await call(app, { method: 'POST', url, payload }), 400, 'VALIDATION_FAILED');
    }
    const text = await call(app, {
      method: 'POST',
      url,
      payload: 'status=paid',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const big = await call(app, { method: 'POST', url, payload: JSON.stringify({ status: 'x'.repeat(70_000) }) });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
    expectError(
      await call(app, { method: 'POST', url: '/api/orders/AX25-4242/update-status', payload: { status: 'paid' } }),
      404,
      'ORDER_NOT_FOUND',
    );
    expect((await app.store.orders.get(order.id))?.status).toBe('pending');
  });

  test('a status change pushes a notification; setting the same status again pushes nothing', async (t) => {
    const app = await appWithEvents(t);
    const push = await withPushService(t, app);
    const order = await orderIn(app, 'pending');
    const url = `/api/orders/${order.id}/update-status`;
    await call(app, { method: 'POST', url, payload: { status: 'paid' } });
    await app.push.drain();
    expect(push.received).toHaveLength(1);
    expect(push.received[0]?.payload).toMatchObject({
      event: 'status',
      status: 'paid',
      orderNumber: order.orderNumber,
    });

    await call(app, { method: 'POST', url, payload: { status: 'paid' } });
    await call(app, { method: 'PUT', url: `/api/orders/${order.id}`, payload: { customerName: 'Grace Hopper' } });
    await app.push.drain();
    expect(push.received).toHaveLength(1);

    await call(app, { method: 'PUT', url: `/api/orders/${order.id}`, payload: { status: 'void' } });
    await app.push.drain();
    expect(push.received.map((p) => (p.payload as { status: string }).status)).toEqual(['paid', 'void']);
  });
});

describe('PUT /api/orders/{id}: field edits', () => {
  test('edits the editable fields of a pending or paid order and returns the Order', async (t) => {
    const app = await appWithEvents(t);
    for (const status of ['pending', 'paid'] as const) {
      const order = await orderIn(app, status);
      const res = await call(app, {
        method: 'PUT',
        url: `/api/orders/${order.orderNumber.toLowerCase()}`,
        payload: {
          customerName: '  Grace Hopper ',
          customerEmail: 'grace@example.com',
          customerPhone: '+1 (555) 010-9999',
          shippingAddress: '200 N Spring St',
          city: 'Los Angeles',
          state: 'ca',
          zipCode: '90012',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        id: order.id,
        status,
        customerName: 'Grace Hopper',
        customerEmail: 'grace@example.com',
        customerPhone: '+1 (555) 010-9999',
        shippingAddress: '200 N Spring St',
        city: 'Los Angeles',
        state: 'CA',
        zipCode: '90012',
        addressVerified: true,
        total: '$35.00',
      });
      expect(await app.store.orders.get(order.id)).toMatchObject({ customerName: 'Grace Hopper', state: 'CA' });
    }
  });

  test('after fulfilment (shipped, void, cancelled) edits are 409 ORDER_FULFILLED; a status alone still follows the allowed moves', async (t) => {
    const app = await appWithEvents(t);
    const cases = [
      await orderIn(app, 'paid', { shipped: true }),
      await orderIn(app, 'void'),
      await orderIn(app, 'void', { shipped: true }),
      await orderIn(app, 'cancelled'),
    ];
    for (const order of cases) {
      const res = await call(app, { method: 'PUT', url: `/api/orders/${order.id}`, payload: { city: 'Chicago' } });
      expectError(res, 409, 'ORDER_FULFILLED');
      expect((await app.store.orders.get(order.id))?.city).toBe('Springfield');
    }
    const shipped = cases[0]!;
    const voided = await call(app, { method: 'PUT', url: `/api/orders/${shipped.id}`, payload: { status: 'void' } });
    expect(voided.json()).toMatchObject({ status: 'void', shippingStatus: 'shipped' });
  });

  test('unknown or read-only fields, an empty body and bad values are 400; nothing is written', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const url = `/api/orders/${order.id}`;
    const bad: unknown[] = [
      {},
      { total: '$1.00' },
      { items: 'Photo #1 (4x6) x1 = $0.01' },
      { shippingStatus: 'shipped' },
      { trackingNumber: '1Z' },
      { feedback: 'x' },
      { id: 'other' },
      { orderNumber: 'AX25-0009' },
      { eventSlug: 'Other' },
      { verificationRequired: false },
      { customerName: 'Grace', admin: true },
      { customerName: '' },
      { customerName: '   ' },
      { customerName: 'x'.repeat(101) },
      { customerName: 'Line\nbreak' },
      { city: 'Line\u2028separator' },
      { customerName: 'lone \ud800 surrogate' },
      { customerName: 42 },
      { customerEmail: 'not-an-email' },
      { customerEmail: `${'a'.repeat(250)}@example.com` },
      { customerPhone: '12345' },
      { customerPhone: '555-CALL-NOW' },
      { customerPhone: '1'.repeat(21) },
      { fulfillmentType: 'drone' },
      { state: 'S'.repeat(51) },
      { zipCode: '1'.repeat(21) },
      { status: 'shipped' },
      { status: null },
      null,
      [],
      'customerName=Grace',
    ];
    for (const payload of bad) {
      const res = await call(app, { method: 'PUT', url, payload });
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    expect((await app.store.orders.get(order.id))?.updatedAt).toBe(order.updatedAt);
  });

  test('text is cleaned as in a new order: controls and bidi overrides removed, a tab made a space, trimmed', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const res = await call(app, {
      method: 'PUT',
      url: `/api/orders/${order.id}`,
      payload: { customerName: ' \u202eBell\u0007\tRinger ', city: 'Spring\u0000field' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ customerName: 'Bell Ringer', city: 'Springfield' });
  });

  test('an undeliverable address is 400 ADDRESS_INVALID; an order that ships needs the whole address', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const url = `/api/orders/${order.id}`;
    expectError(await call(app, { method: 'PUT', url, payload: { state: 'ZZ' } }), 400, 'ADDRESS_INVALID');
    // State and ZIP are the address check's to judge, as for a new order.
    expectError(await call(app, { method: 'PUT', url, payload: { state: 'California' } }), 400, 'ADDRESS_INVALID');
    expectError(await call(app, { method: 'PUT', url, payload: { zipCode: '1234' } }), 400, 'ADDRESS_INVALID');
    expectError(
      await call(app, { method: 'PUT', url, payload: { state: 'CA', zipCode: '12345' } }),
      400,
      'ADDRESS_INVALID',
    );
    const missing = await call(app, { method: 'PUT', url, payload: { city: '' } });
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.json().details).toContain('city');
    expect((await app.store.orders.get(order.id))?.state).toBe('IL');
  });

  test('switching to pickup drops the address check; back to ship checks it again', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending', { addressVerified: true });
    const url = `/api/orders/${order.id}`;
    const pickup = await call(app, { method: 'PUT', url, payload: { fulfillmentType: 'pickup', shippingAddress: '' } });
    expect(pickup.json()).toMatchObject({ fulfillmentType: 'pickup', shippingAddress: '', addressVerified: null });
    expect(pickup.json().shippingFee).toBe('$5.00'); // amounts are never repriced by an edit

    expectError(
      await call(app, { method: 'PUT', url, payload: { fulfillmentType: 'ship' } }),
      400,
      'VALIDATION_FAILED',
    );
    const ship = await call(app, {
      method: 'PUT',
      url,
      payload: { fulfillmentType: 'ship', shippingAddress: '1 Main St' },
    });
    expect(ship.json()).toMatchObject({ fulfillmentType: 'ship', shippingAddress: '1 Main St', addressVerified: true });
  });

  test('an order waiting for email confirmation: status and edits are 409 ORDER_HELD', async (t) => {
    const app = await appWithEvents(t);
    const held = await app.store.orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
      { by: 'customer' },
    );
    expectError(
      await call(app, { method: 'POST', url: `/api/orders/${held.id}/update-status`, payload: { status: 'paid' } }),
      409,
      'ORDER_HELD',
    );
    expectError(
      await call(app, { method: 'PUT', url: `/api/orders/${held.id}`, payload: { customerName: 'X' } }),
      409,
      'ORDER_HELD',
    );
    expect(await app.store.orders.get(held.id)).toMatchObject({
      status: 'pending',
      held: true,
      customerName: 'Ada Lovelace',
    });
  });
});

describe('PUT /api/orders/{id}: any body', () => {
  test('no input yields a 5xx; every 4xx has the error body (docs/contract.md, "Hosts and formats"); every 200 is an Order', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'pending');
    const editable = [
      'status',
      'customerName',
      'customerEmail',
      'customerPhone',
      'fulfillmentType',
      'shippingAddress',
      'city',
      'state',
      'zipCode',
    ];
    const key = fc.oneof(fc.constantFrom(...editable, 'total', 'items', '__proto__', 'constructor'), fc.string());
    const value = fc.oneof(
      fc.constantFrom('pending', 'paid', 'void', 'cancelled', 'ship', 'pickup', 'CA', '90012', 'a@b.co', ''),
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 50 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.dictionary(key, value, { maxKeys: 5 }) },
      { weight: 1, arbitrary: fc.jsonValue() },
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await app.inject({
          method: 'PUT',
          url: `/api/orders/${order.id}`,
          headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.json()).toEqual(errorBody);
          expect([400, 409]).toContain(res.statusCode);
        } else {
          expect(res.statusCode).toBe(200);
          expect(res.json().id).toBe(order.id);
        }
      }),
      { numRuns: 200 },
    );
  });
});
