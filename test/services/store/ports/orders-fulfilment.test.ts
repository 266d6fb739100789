/**
 * The orders port's fulfilment changes (src/services/store/ports/orders.ts; docs/contract.md,
 * "Fulfilment"), on SQLite and on PostgreSQL: pickup status, lines marked printed (all or
 * nothing, across orders and processes), the undo of "Mark paid", each in the history.
 */
import { expect, test } from 'vitest';
import type { OrderRecord } from '../../../../src/domain/order.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';
import { ADMIN, newOrder, orderIn, printedOrder } from '../../../support/store-fixtures.js';

const by = { by: ADMIN } as const;

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'AppError', code });
}

/** Moves the order's "paid" history entry back in time, as if it was marked paid `ms` ago. */
function paidAgo(order: OrderRecord, ms: number): OrderRecord {
  const at = new Date(Date.now() - ms).toISOString();
  return { ...order, history: order.history.map((h) => (h.to === 'paid' ? { ...h, at } : h)) };
}

describeOnEngines('orders port: fulfilment', (open) => {
  test('pickup: waiting → ready → collected for a paid pickup order, each in the history; the same again is a no-op', async (t) => {
    const { orders } = await open(t);
    const o = await printedOrder(orders, { fulfillmentType: 'pickup' });
    expect(o.pickupStatus).toBe('waiting');
    const ready = await orders.setPickup(o.orderNumber, 'ready', by);
    expect(ready).toMatchObject({ changed: true, order: { pickupStatus: 'ready', version: o.version + 1 } });
    expect(ready.order.history.at(-1)).toEqual({
      at: expect.any(String),
      action: 'pickup',
      from: 'waiting',
      to: 'ready',
      by: ADMIN,
    });
    expect(await orders.setPickup(o.id, 'ready', by)).toEqual({ order: ready.order, changed: false });
    const collected = await orders.setPickup(o.id, 'collected', by);
    expect(collected.order.pickupStatus).toBe('collected');
    expect(await orders.get(o.id)).toEqual(collected.order);
    // collected orders are fulfilled: no more edits
    await expectCode(orders.update(o.id, { fields: { customerName: 'X' } }, by), 'ORDER_FULFILLED');
    // one step back undoes a slip; two steps is not a move
    await expectCode(orders.setPickup(o.id, 'waiting', by), 'INVALID_TRANSITION');
    expect((await orders.setPickup(o.id, 'ready', by)).order.pickupStatus).toBe('ready');
  });

  test('fulfilment follows the prints: shipped, ready and collected are NOT_PRINTED until every print line is printed; printAll marks them in the same change, also across processes', async (t) => {
    const store = await open(t);
    const { orders } = store;
    const digitalLine = { photoNumber: '9', size: 'digital', quantity: 1, unitCents: 800, lineCents: 800 };
    const ship = await orderIn(orders, 'paid', {
      items: [...newOrder().items, digitalLine],
    });
    // The digital file is never printed: only the two prints are named.
    const refused = await orders.setShipping(ship.id, { shipped: true }, by).catch((err: unknown) => err);
    expect(refused).toMatchObject({ name: 'AppError', code: 'NOT_PRINTED' });
    const named = JSON.parse((refused as { details: string }).details).notPrinted.map(
      (l: { itemId: string }) => l.itemId,
    );
    expect(named).toEqual([`${ship.orderNumber}.1`, `${ship.orderNumber}.2`]);
    expect(await orders.get(ship.id)).toEqual(ship);
    const other = await reopenStore(t, store);
    const shipped = await other.orders.setShipping(
      ship.id,
      { shipped: true, trackingNumber: 'T1', printAll: true },
      by,
    );
    expect(shipped.order.printed.map((p) => p.line)).toEqual([0, 1]);
    expect(shipped.order.history.slice(-4).map((h) => h.action)).toEqual(['printed', 'printed', 'shipping', 'edit']);
    // Printed already: printAll adds nothing; undoing shipping keeps the prints.
    const undone = await orders.setShipping(ship.id, { shipped: false }, by);
    expect(undone.order.printed).toEqual(shipped.order.printed);

    const pickup = await orderIn(orders, 'paid', { fulfillmentType: 'pickup' });
    await expectCode(orders.setPickup(pickup.id, 'ready', by), 'NOT_PRINTED');
    await expectCode(orders.setPickup(pickup.id, 'collected', by), 'NOT_PRINTED');
    await orders.markPrinted(new Map([[pickup.id, [0, 1]]]), by);
    expect((await orders.setPickup(pickup.id, 'ready', by)).order.pickupStatus).toBe('ready');
  });

  test('pickup: an order that ships is ORDER_NOT_PICKUP; an unpaid one INVALID_TRANSITION; unknown ORDER_NOT_FOUND', async (t) => {
    const { orders } = await open(t);
    const ship = await orderIn(orders, 'paid');
    expect(ship.pickupStatus).toBeNull();
    await expectCode(orders.setPickup(ship.id, 'ready', by), 'ORDER_NOT_PICKUP');
    const pending = await orderIn(orders, 'pending', { fulfillmentType: 'pickup' });
    await expectCode(orders.setPickup(pending.id, 'ready', by), 'INVALID_TRANSITION');
    await expectCode(orders.setPickup('AX25-9999', 'ready', by), 'ORDER_NOT_FOUND');
    expect(await orders.get(pending.id)).toEqual(pending);
    // a change of fulfilment sets (or clears) the pickup status
    const switched = await orders.update(pending.id, { fields: { fulfillmentType: 'ship' } }, by);
    expect(switched.order).toMatchObject({ pickupStatus: null, shippingStatus: 'ship' });
    const back = await orders.update(pending.id, { fields: { fulfillmentType: 'pickup' } }, by);
    expect(back.order).toMatchObject({ pickupStatus: 'waiting', shippingStatus: 'pickup' });
  });

  test('markPrinted: across orders in one call, a history entry per line, marks kept; again changes nothing', async (t) => {
    const { orders } = await open(t);
    const a = await orderIn(orders, 'paid');
    const b = await orderIn(orders, 'paid', { fulfillmentType: 'pickup' });
    const results = await orders.markPrinted(
      new Map([
        [a.orderNumber, [1, 0]],
        [b.id, [0]],
      ]),
      by,
    );
    const byNumber = new Map(results.map((r) => [r.order.orderNumber, r]));
    expect(byNumber.get(a.orderNumber)).toMatchObject({ changed: true, marked: [0, 1] });
    expect(byNumber.get(b.orderNumber)).toMatchObject({ changed: true, marked: [0] });
    const readA = (await orders.get(a.id)) as OrderRecord;
    expect(readA.printed).toEqual([
      { line: 0, at: expect.any(String), by: ADMIN },
      { line: 1, at: expect.any(String), by: ADMIN },
    ]);
    expect(readA.version).toBe(a.version + 1);
    expect(readA.history.slice(-2)).toEqual([
      {
        at: expect.any(String),
        action: 'printed',
        field: `${a.orderNumber}.1`,
        to: 'Photo #12 (4x6) x2 = $10.00',
        by: ADMIN,
      },
      {
        at: expect.any(String),
        action: 'printed',
        field: `${a.orderNumber}.2`,
        to: 'Photo #0007 (8x10) x1 = $20.00',
        by: ADMIN,
      },
    ]);
    const again = await orders.markPrinted(new Map([[a.id, [0]]]), { by: 'admin:ffffffff' });
    expect(again).toEqual([{ order: readA, changed: false, marked: [] }]);
  });

  test('markPrinted is all or nothing: an unknown order, a missing line or an unpaid order writes no mark', async (t) => {
    const { orders } = await open(t);
    const a = await orderIn(orders, 'paid');
    const pending = await orderIn(orders, 'pending');
    await expectCode(
      orders.markPrinted(
        new Map([
          [a.id, [0]],
          ['AX25-9999', [0]],
        ]),
        by,
      ),
      'ORDER_NOT_FOUND',
    );
    await expectCode(orders.markPrinted(new Map([[a.id, [0, 2]]]), by), 'VALIDATION_FAILED');
    await expectCode(
      orders.markPrinted(
        new Map([
          [a.id, [0]],
          [pending.id, [0]],
        ]),
        by,
      ),
      'INVALID_TRANSITION',
    );
    expect(await orders.get(a.id)).toEqual(a);
    expect(await orders.get(pending.id)).toEqual(pending);
  });

  test('two processes marking overlapping lines at once: every line marked once, no deadlock', async (t) => {
    const store = await open(t);
    const other = await reopenStore(t, store);
    const list = await Promise.all(Array.from({ length: 6 }, () => orderIn(store.orders, 'paid')));
    const forward = new Map(list.map((o) => [o.orderNumber, [0, 1]]));
    const backward = new Map([...list].reverse().map((o) => [o.id, [1, 0]]));
    const [r1, r2] = await Promise.all([
      store.orders.markPrinted(forward, by),
      other.orders.markPrinted(backward, { by: 'admin:ffffffff' }),
    ]);
    const marked = [...r1, ...r2].reduce((n, r) => n + r.marked.length, 0);
    expect(marked).toBe(12);
    for (const o of list) {
      const read = (await store.orders.get(o.id)) as OrderRecord;
      expect(read.printed.map((p) => p.line).sort()).toEqual([0, 1]);
      expect(read.history.filter((h) => h.action === 'printed')).toHaveLength(2);
    }
  });

  test('undo of "Mark paid": an admin, within 15 minutes, while nothing is printed, shipped or handed over', async (t) => {
    const { orders } = await open(t);
    const paid = await orderIn(orders, 'paid');
    // the customer or the system can't undo it
    await expectCode(orders.update(paid.id, { status: 'pending' }, { by: 'customer' }), 'INVALID_TRANSITION');
    const undone = await orders.update(paid.id, { status: 'pending' }, by);
    expect(undone.order.status).toBe('pending');
    expect(undone.order.history.at(-1)).toMatchObject({ action: 'status', from: 'paid', to: 'pending', by: ADMIN });
    // paid again: the window starts again
    await orders.update(paid.id, { status: 'paid' }, by);

    const printed = await orderIn(orders, 'paid');
    await orders.markPrinted(new Map([[printed.id, [1]]]), by);
    await expectCode(orders.update(printed.id, { status: 'pending' }, by), 'INVALID_TRANSITION');

    const shipped = await orderIn(orders, 'paid');
    await orders.setShipping(shipped.id, { shipped: true, printAll: true }, by);
    await expectCode(orders.update(shipped.id, { status: 'pending' }, by), 'INVALID_TRANSITION');

    const ready = await orderIn(orders, 'paid', { fulfillmentType: 'pickup' });
    await orders.setPickup(ready.id, 'ready', by, true);
    await expectCode(orders.update(ready.id, { status: 'pending' }, by), 'INVALID_TRANSITION');
    const voided = await orderIn(orders, 'void');
    await expectCode(orders.update(voided.id, { status: 'pending' }, by), 'INVALID_TRANSITION');
  });
});

test('undo of "Mark paid" after 15 minutes is refused (the rule, on the clock)', async () => {
  const { undoPaidRefusal } = await import('../../../../src/domain/transitions.js');
  const { buildNewOrder } = await import('../../../../src/domain/order-changes.js');
  const { newOrder } = await import('../../../support/store-fixtures.js');
  const created = buildNewOrder(newOrder(), 1, new Date(), '00000000-0000-4000-8000-000000000001', 'customer');
  const paid: OrderRecord = {
    ...created,
    status: 'paid',
    history: [
      ...created.history,
      { at: new Date().toISOString(), action: 'status', from: 'pending', to: 'paid', by: ADMIN },
    ],
  };
  expect(undoPaidRefusal(paidAgo(paid, 14 * 60_000), new Date(), ADMIN)).toBeNull();
  expect(undoPaidRefusal(paidAgo(paid, 16 * 60_000), new Date(), ADMIN)).toMatch(/15 minutes/);
});
