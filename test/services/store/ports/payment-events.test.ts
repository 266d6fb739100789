/**
 * The payment events port's conformance suite (src/services/store/ports/payment-events.ts),
 * on both engines, with the orders port's `paymentEvent` option: an event is acted on once,
 * recorded in the transaction of the change it makes, across processes.
 */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';
import { newOrder } from '../../../support/store-fixtures.js';

describeOnEngines('payment events port', (open) => {
  test('record and seen: an event id is recorded once', async (t) => {
    const { paymentEvents } = await open(t);
    expect(await paymentEvents.seen('evt_1')).toBe(false);
    expect(await paymentEvents.record('evt_1', 'ignored', null)).toBe(true);
    expect(await paymentEvents.record('evt_1', 'ignored', null)).toBe(false);
    expect(await paymentEvents.seen('evt_1')).toBe(true);
  });

  test('a change made for an event: once; the same event from another process changes nothing', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const order = await a.orders.create(newOrder(), { by: 'customer' });
    const event = { id: 'evt_paid', kind: 'checkoutCompleted' };
    const results = await Promise.all([
      a.orders.update(order.id, { status: 'paid' }, { by: 'stripe', paymentEvent: event }),
      b.orders.update(order.id, { status: 'paid' }, { by: 'stripe', paymentEvent: event }),
    ]);
    expect(results.map((r) => r.duplicate).sort()).toEqual([false, true]);
    expect(await b.paymentEvents.seen('evt_paid')).toBe(true);
    const paid = await a.orders.get(order.id);
    expect(paid?.status).toBe('paid');
    expect(paid?.history.filter((h) => h.action === 'status')).toEqual([
      expect.objectContaining({ from: 'pending', to: 'paid', by: 'stripe' }),
    ]);
  });

  test('a change that fails records nothing: the retry runs it again', async (t) => {
    const { orders, paymentEvents } = await open(t);
    const order = await orders.create(newOrder(), { by: 'customer' });
    await orders.update(order.id, { status: 'cancelled' }, { by: 'customer' });
    await expect(
      orders.update(
        order.id,
        { status: 'paid' },
        { by: 'stripe', paymentEvent: { id: 'evt_x', kind: 'checkoutCompleted' } },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(await paymentEvents.seen('evt_x')).toBe(false);
  });

  test('attachPayment records the checkout with a history entry; the same session again changes nothing', async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder(), { by: 'customer' });
    const payment = { provider: 'stripe' as const, sessionId: 'cs_1', url: 'https://pay.example/cs_1' };
    const first = await orders.attachPayment(order.id, payment, { by: 'system' });
    expect(first.changed).toBe(true);
    expect((await orders.get(order.orderNumber))?.payment).toEqual(payment);
    expect((await orders.attachPayment(order.id, payment, { by: 'system' })).changed).toBe(false);
    expect(first.order.history.at(-1)).toMatchObject({ action: 'payment', to: 'cs_1', by: 'system' });
    expect(first.order.version).toBe(2);
  });
});
