/**
 * Pickup at the booth, the undo of "Mark paid" and the admin order view's lines and history
 * (docs/contract.md, "Fulfilment"), on both store engines.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { actorFor } from '../../../src/domain/roles.js';
import { ADMIN_TOKEN } from '../../helpers/build.js';
import { forEachEngine, lineOf, photoNumber } from '../../support/fulfilment-apps.js';
import { saveSubscriber, withPushService } from '../../support/push-service.js';
import { AX, call, expectError, orderIn } from '../admin/fixtures.js';

const ADMIN = actorFor('owner', ADMIN_TOKEN);
const pickup = (ref: string, status: string, admin = true, printAll?: boolean) =>
  ({
    method: 'POST',
    url: `/api/orders/${ref}/pickup`,
    payload: printAll === undefined ? { status } : { status, printAll },
    admin,
  }) as const;

async function outbox(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, 'outbox'))).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
}

forEachEngine((_engine, makeApp) => {
  test('ready emails and pushes the customer; collected; each in the history; the same again notifies nobody', async (t) => {
    const app = await makeApp(t);
    const push = await withPushService(t, app);
    const order = await orderIn(app, 'paid', {
      fulfillmentType: 'pickup',
      customerEmail: 'ada@example.com',
      printed: true,
    });
    await saveSubscriber(app.store, push.subscriber(), 'order', order.id);
    await app.notifier.flush();
    const before = await outbox(app.dataDir);

    const ready = await call(app, pickup(order.orderNumber, 'ready'));
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toMatchObject({
      success: true,
      changed: true,
      message: `Order ${order.orderNumber} is ready for pickup; the customer is notified`,
      order: { pickupStatus: 'ready', shippingStatus: 'pickup' },
    });
    await app.notifier.flush();
    const sent = (await outbox(app.dataDir)).filter((f) => !before.includes(f));
    expect(sent).toHaveLength(1);
    const eml = await readFile(path.join(app.dataDir, 'outbox', sent[0] as string), 'utf8');
    expect(eml).toMatch(/^To: .*ada@example\.com/m);
    expect(eml).toMatch(/^Subject: .*ready for pickup/m);
    expect(eml.replace(/=\r?\n/g, '').replaceAll('=3D', '=')).toContain(`/order/${order.orderNumber}`);

    const again = await call(app, pickup(order.id, 'ready'));
    expect(again.json()).toMatchObject({ changed: false });
    const collected = await call(app, pickup(order.id, 'collected'));
    expect(collected.json().order.pickupStatus).toBe('collected');
    await app.push.drain();
    await app.notifier.flush();
    expect(await outbox(app.dataDir)).toHaveLength(before.length + 1);
    const payloads = push.received.map((p) => p.payload);
    expect(payloads).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'pickup', title: `Your order ${order.orderNumber} is ready for pickup` }),
        expect.objectContaining({ event: 'pickup', title: `Order ${order.orderNumber} ready` }),
        expect.objectContaining({ event: 'pickup', title: `Order ${order.orderNumber} collected` }),
      ]),
    );
    expect(payloads).toHaveLength(4); // ready and collected, each to the admin and the customer

    const view = (await call(app, { url: `/api/orders/${order.orderNumber}` })).json();
    expect(view.history.slice(-2)).toEqual([
      { at: expect.any(String), action: 'pickup', from: 'waiting', to: 'ready', by: ADMIN },
      { at: expect.any(String), action: 'pickup', from: 'ready', to: 'collected', by: ADMIN },
    ]);
    // the customer's own view says it too, without the history
    const lookup = await app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { orderNumber: order.orderNumber, email: 'ada@example.com' },
    });
    expect(lookup.json()).toMatchObject({ pickupStatus: 'collected' });
    expect(lookup.json()).not.toHaveProperty('history');
  });

  test('ready and collected wait for the prints: 409 NOT_PRINTED naming the lines, unless printAll marks them printed; a collected order leaves the print queue', async (t) => {
    const app = await makeApp(t);
    const order = await orderIn(app, 'paid', { fulfillmentType: 'pickup', customerEmail: 'ada@example.com' });
    const n = order.orderNumber;
    const queue = async () =>
      (await call(app, { url: '/api/print-queue' })).json().items.map((i: { itemId: string }) => i.itemId);
    expect(await queue()).toEqual([`${n}.1`, `${n}.2`]);
    for (const status of ['ready', 'collected']) {
      const refused = await call(app, pickup(n, status));
      expectError(refused, 409, 'NOT_PRINTED');
      expect(JSON.parse(refused.json().details).notPrinted.map((l: { itemId: string }) => l.itemId)).toEqual([
        `${n}.1`,
        `${n}.2`,
      ]);
    }
    expect((await app.store.orders.get(n))?.pickupStatus).toBe('waiting');
    // One line printed: still refused, naming the other.
    await call(app, { method: 'POST', url: '/api/print-queue/printed', payload: { itemIds: [`${n}.1`] } });
    const one = await call(app, pickup(n, 'ready'));
    expectError(one, 409, 'NOT_PRINTED');
    expect(JSON.parse(one.json().details).notPrinted).toEqual([
      { itemId: `${n}.2`, photoNumber: '0007', size: '8x10', quantity: 1 },
    ]);
    // "Mark all printed and collected": one change, the printed line in the history before the pickup.
    const res = await call(app, pickup(n, 'collected', true, true));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order.pickupStatus).toBe('collected');
    expect(res.json().order.lines.every((l: { printedAt: string | null }) => l.printedAt !== null)).toBe(true);
    expect(res.json().order.history.slice(-2)).toEqual([
      expect.objectContaining({ action: 'printed', field: `${n}.2`, by: ADMIN }),
      expect.objectContaining({ action: 'pickup', from: 'waiting', to: 'collected', by: ADMIN }),
    ]);
    expect(await queue()).toEqual([]);
  });

  test('409 ORDER_NOT_PICKUP for an order that ships, INVALID_TRANSITION unpaid or out of order; 404, 400, 401', async (t) => {
    const app = await makeApp(t);
    const ship = await orderIn(app, 'paid');
    const pending = await orderIn(app, 'pending', { fulfillmentType: 'pickup' });
    const paid = await orderIn(app, 'paid', { fulfillmentType: 'pickup', printed: true });
    expectError(await call(app, pickup(ship.id, 'ready')), 409, 'ORDER_NOT_PICKUP');
    expectError(await call(app, pickup(pending.id, 'ready')), 409, 'INVALID_TRANSITION');
    await call(app, pickup(paid.id, 'collected')); // the customer came first
    expectError(await call(app, pickup(paid.id, 'waiting')), 409, 'INVALID_TRANSITION');
    expectError(await call(app, pickup('AX25-9999', 'ready')), 404, 'ORDER_NOT_FOUND');
    expectError(await call(app, pickup(paid.id, 'lost')), 400, 'VALIDATION_FAILED');
    expectError(await call(app, pickup(paid.id, 'ready', false)), 401, 'UNAUTHORIZED');
  });

  test('the admin view: each line with its photo, crop and print state; undo of "Mark paid" until something is printed', async (t) => {
    const app = await makeApp(t);
    const n = photoNumber(app);
    const order = await orderIn(app, 'pending', {
      items: [{ ...lineOf(n, '8x10'), crop: { x: 0.2, y: 0.5 } }, lineOf('404', '4x6')],
    });
    const paid = await call(app, {
      method: 'POST',
      url: `/api/orders/${order.id}/update-status`,
      payload: { status: 'paid' },
    });
    const view = paid.json().order;
    const photo = app.photos.photosOf(AX)?.[0];
    expect(view.lines).toEqual([
      {
        itemId: `${order.orderNumber}.1`,
        photoNumber: n,
        size: '8x10',
        quantity: 1,
        unitPrice: '$20.00',
        lineTotal: '$20.00',
        crop: { x: 0.2, y: 0.5 },
        printedAt: null,
        photo: {
          id: photo?.id,
          number: n,
          file: `${AX}/Day 1/Morning/IMG_0001.jpg`,
          thumbnail: `http://photos.test/api/proxy-image/${AX}/${photo?.id}?v=${photo?.version}`,
        },
      },
      expect.objectContaining({ itemId: `${order.orderNumber}.2`, photo: null, crop: { x: 0.5, y: 0.5 } }),
    ]);
    const until = Date.parse(view.undoPaidUntil);
    expect(until - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const listed = (await call(app, { url: '/api/orders/completed' })).json();
    expect(listed[0].lines[0].photo.file).toBe(`${AX}/Day 1/Morning/IMG_0001.jpg`);

    const undo = await call(app, {
      method: 'POST',
      url: `/api/orders/${order.id}/update-status`,
      payload: { status: 'pending' },
    });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().order).toMatchObject({ status: 'pending', undoPaidUntil: null });
    expect(undo.json().order.history.at(-1)).toMatchObject({
      action: 'status',
      from: 'paid',
      to: 'pending',
      by: ADMIN,
    });

    await call(app, { method: 'POST', url: `/api/orders/${order.id}/update-status`, payload: { status: 'paid' } });
    await call(app, {
      method: 'POST',
      url: '/api/print-queue/printed',
      payload: { itemIds: [`${order.orderNumber}.1`] },
    });
    const after = (await call(app, { url: `/api/orders/${order.id}` })).json();
    expect(after.undoPaidUntil).toBeNull();
    expect(after.lines[0].printedAt).toEqual(expect.any(String));
    const refused = await call(app, {
      method: 'PUT',
      url: `/api/orders/${order.id}`,
      payload: { status: 'pending' },
    });
    expectError(refused, 409, 'INVALID_TRANSITION');
    expect(refused.json().details).toMatch(/printed/);
  });
});
