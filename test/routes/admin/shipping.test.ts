/**
 * `POST /api/orders/{id}/update-shipping` (docs/contract.md, "Status and shipping"): both body forms, the undo, the cases
 * that cannot ship, and what it sets off (the "shipped" mail through the outbox, a push).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { withPushService } from '../../support/push-service.js';
import { appWithEvents, call, expectError, orderIn } from './fixtures.js';

const shipping = (ref: string) => `/api/orders/${ref}/update-shipping`;

async function outbox(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, 'outbox'))).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
}

describe('POST /api/orders/{id}/update-shipping', () => {
  test('{ shipped: true } marks a paid order shipped; repeating it changes nothing', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid', { printed: true });
    const res = await call(app, { method: 'POST', url: shipping(order.orderNumber), payload: { shipped: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      changed: true,
      message: `Order ${order.orderNumber} marked shipped; the customer is notified`,
      order: { id: order.id, status: 'paid', shippingStatus: 'shipped', trackingNumber: '' },
    });
    const again = await call(app, { method: 'POST', url: shipping(order.id), payload: { shipped: true } });
    expect(again.json()).toMatchObject({ success: true, changed: false, order: { shippingStatus: 'shipped' } });
    expect(again.json().message).toMatch(/nothing changed/);
  });

  test('{ trackingNumber } implies shipped and stores it; both fields together work too', async (t) => {
    const app = await appWithEvents(t);
    const a = await orderIn(app, 'paid', { printed: true });
    const ra = await call(app, {
      method: 'POST',
      url: shipping(a.id),
      payload: { trackingNumber: ' 1Z999AA10123456784 ' },
    });
    expect(ra.json()).toMatchObject({
      changed: true,
      order: { shippingStatus: 'shipped', trackingNumber: '1Z999AA10123456784' },
    });
    expect(ra.json().message).toContain('tracking 1Z999AA10123456784');

    const b = await orderIn(app, 'paid', { printed: true });
    const rb = await call(app, {
      method: 'POST',
      url: shipping(b.id),
      payload: { shipped: true, trackingNumber: '9400 1000 0000 0000 0000 00' },
    });
    expect(rb.json().order).toMatchObject({ shippingStatus: 'shipped', trackingNumber: '9400 1000 0000 0000 0000 00' });

    // A new tracking number on a shipped order replaces the old one.
    const rc = await call(app, { method: 'POST', url: shipping(a.id), payload: { trackingNumber: 'NEW-1' } });
    expect(rc.json()).toMatchObject({ changed: true, order: { trackingNumber: 'NEW-1' } });
    expect((await app.store.orders.get(a.id))?.trackingNumber).toBe('NEW-1');
  });

  test('a parcel goes out with its prints: 409 NOT_PRINTED naming the lines, unless printAll marks them printed (history); it leaves the print queue', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid');
    await app.store.orders.markPrinted(new Map([[order.id, [0]]]), { by: 'admin' });
    const refused = await call(app, { method: 'POST', url: shipping(order.id), payload: { trackingNumber: '1Z9' } });
    expectError(refused, 409, 'NOT_PRINTED');
    expect(JSON.parse(refused.json().details)).toEqual({
      orderNumber: order.orderNumber,
      notPrinted: [{ itemId: `${order.orderNumber}.2`, photoNumber: '0007', size: '8x10', quantity: 1 }],
    });
    expect(refused.json().error).toContain(`${order.orderNumber}.2`);
    const stored = await app.store.orders.get(order.id);
    expect([stored?.shippingStatus, stored?.trackingNumber]).toEqual(['ship', '']);
    const queue = async () =>
      (await call(app, { url: '/api/print-queue' })).json().items.map((i: { itemId: string }) => i.itemId);
    expect(await queue()).toEqual([`${order.orderNumber}.2`]);

    const res = await call(app, {
      method: 'POST',
      url: shipping(order.id),
      payload: { trackingNumber: '1Z9', printAll: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order).toMatchObject({ shippingStatus: 'shipped', trackingNumber: '1Z9' });
    const view = (await call(app, { url: `/api/orders/${order.id}` })).json();
    expect(view.lines.map((l: { printedAt: string | null }) => l.printedAt !== null)).toEqual([true, true]);
    expect(view.history.slice(-3).map((h: { action: string; field?: string }) => [h.action, h.field])).toEqual([
      ['printed', `${order.orderNumber}.2`],
      ['shipping', undefined],
      ['edit', 'trackingNumber'],
    ]);
    expect(await queue()).toEqual([]);
  });

  test('{ shipped: false } undoes shipping and clears the tracking number', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid', { shipped: true });
    expect(order.trackingNumber).toBe('1Z999');
    const res = await call(app, { method: 'POST', url: shipping(order.id), payload: { shipped: false } });
    expect(res.json()).toMatchObject({
      changed: true,
      message: `Order ${order.orderNumber} is no longer marked shipped`,
      order: { shippingStatus: 'ship', trackingNumber: '' },
    });
    const again = await call(app, { method: 'POST', url: shipping(order.id), payload: { shipped: false } });
    expect(again.json()).toMatchObject({ changed: false, order: { shippingStatus: 'ship' } });
    // An edit is possible again once it is no longer shipped.
    const edit = await call(app, { method: 'PUT', url: `/api/orders/${order.id}`, payload: { customerName: 'Grace' } });
    expect(edit.statusCode).toBe(200);
  });

  test('only a paid order that ships can ship: 409 ORDER_NOT_SHIPPABLE otherwise', async (t) => {
    const app = await appWithEvents(t);
    const cases = [
      await orderIn(app, 'pending'),
      await orderIn(app, 'void'),
      await orderIn(app, 'cancelled'),
      await orderIn(app, 'paid', { fulfillmentType: 'pickup', shippingAddress: '', city: '', state: '', zipCode: '' }),
    ];
    for (const order of cases) {
      for (const payload of [{ shipped: true }, { trackingNumber: '1Z1' }]) {
        expectError(await call(app, { method: 'POST', url: shipping(order.id), payload }), 409, 'ORDER_NOT_SHIPPABLE');
      }
      expect(await app.store.orders.get(order.id)).toEqual(order);
    }
    // A shipped order voided afterwards (refund) cannot be shipped again, but can be un-shipped.
    const voided = await orderIn(app, 'void', { shipped: true });
    expectError(
      await call(app, { method: 'POST', url: shipping(voided.id), payload: { trackingNumber: 'X1' } }),
      409,
      'ORDER_NOT_SHIPPABLE',
    );
    const undo = await call(app, { method: 'POST', url: shipping(voided.id), payload: { shipped: false } });
    expect(undo.json().order).toMatchObject({ status: 'void', shippingStatus: 'ship' });
  });

  test('bad bodies are 400; an unknown order is 404', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid');
    for (const payload of [
      {},
      { shipped: 'yes' },
      { shipped: false, trackingNumber: '1Z' },
      { trackingNumber: '' },
      { trackingNumber: '   ' },
      { trackingNumber: 'x'.repeat(65) },
      { trackingNumber: '<script>' },
      { trackingNumber: 'line\nbreak' },
      { shipped: true, carrier: 'UPS' },
    ]) {
      expectError(await call(app, { method: 'POST', url: shipping(order.id), payload }), 400, 'VALIDATION_FAILED');
    }
    expect((await app.store.orders.get(order.id))?.shippingStatus).toBe('ship');
    expectError(
      await call(app, { method: 'POST', url: shipping('AX25-7777'), payload: { shipped: true } }),
      404,
      'ORDER_NOT_FOUND',
    );
  });

  test('marking shipped queues the customer’s "shipped" mail (with the tracking number) and pushes; undo pushes too', async (t) => {
    const app = await appWithEvents(t);
    const push = await withPushService(t, app);
    const order = await orderIn(app, 'paid', { customerEmail: 'ada@example.com', printed: true });
    await app.notifier.flush();
    const before = await outbox(app.dataDir);

    await call(app, { method: 'POST', url: shipping(order.id), payload: { trackingNumber: '1Z999AA10123456784' } });
    await app.notifier.flush();
    const sent = (await outbox(app.dataDir)).filter((f) => !before.includes(f));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('shipped');
    const eml = await readFile(path.join(app.dataDir, 'outbox', sent[0] as string), 'utf8');
    expect(eml).toMatch(/^To: .*ada@example\.com/m);
    expect(eml).toContain('1Z999AA10123456784');
    // A UPS number: the mail links to UPS's tracking page (text and HTML).
    const unfolded = eml.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
    expect(unfolded).toContain('Track it with UPS: https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(unfolded).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');

    // Nothing changes, nothing is sent.
    await call(app, { method: 'POST', url: shipping(order.id), payload: { shipped: true } });
    await app.notifier.flush();
    expect(await outbox(app.dataDir)).toHaveLength(before.length + 1);
    expect(await app.store.outbox.pendingCount()).toBe(0);

    await call(app, { method: 'POST', url: shipping(order.id), payload: { shipped: false } });
    await app.push.drain();
    expect(push.received.map((p) => p.payload)).toEqual([
      expect.objectContaining({ event: 'shipping', shippingStatus: 'shipped', orderNumber: order.orderNumber }),
      expect.objectContaining({ event: 'shipping', shippingStatus: 'ship' }),
    ]);
    // Undoing sends no mail.
    await app.notifier.flush();
    expect(await outbox(app.dataDir)).toHaveLength(before.length + 1);
  });
});
