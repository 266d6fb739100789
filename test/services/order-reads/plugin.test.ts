/**
 * `fastify.orderReads` (src/services/order-reads/plugin.ts): the admin's reads of orders. The
 * routes' tests (test/routes/admin/lists.test.ts, test/routes/fulfilment/orders-export.test.ts,
 * test/routes/labels/labels.test.ts) cover the answers; these cover the service's edges.
 */
import { expect, test } from 'vitest';
import { appWithEvents, orderIn } from '../../routes/admin/fixtures.js';
import { newOrder } from '../../support/store-fixtures.js';

test('one order by id or number, held ones too; an unknown one is ORDER_NOT_FOUND', async (t) => {
  const app = await appWithEvents(t);
  const order = await orderIn(app, 'pending');
  const held = await app.store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    { by: 'customer' },
  );
  expect((await app.orderReads.get(order.orderNumber.toLowerCase())).id).toBe(order.id);
  expect((await app.orderReads.get(held.id)).orderNumber).toBe(held.orderNumber);
  await expect(app.orderReads.get('AX25-9999')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND' });
});

test('the orders for the books: within [from, to] both ends included, by status, no held ones, oldest first', async (t) => {
  const app = await appWithEvents(t);
  const first = await orderIn(app, 'pending');
  const paid = await orderIn(app, 'paid');
  const last = await orderIn(app, 'pending');
  await app.store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    { by: 'customer' },
  );
  const at = (o: { createdAt: string }) => Date.parse(o.createdAt);
  const ids = (orders: { id: string }[]) => orders.map((o) => o.id);
  const all = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };

  expect(ids(await app.orderReads.booked(all))).toEqual([first.id, paid.id, last.id]);
  expect(ids(await app.orderReads.booked({ ...all, statuses: ['pending'] }))).toEqual([first.id, last.id]);
  expect(ids(await app.orderReads.booked({ ...all, eventSlug: 'Nothing' }))).toEqual([]);
  expect(ids(await app.orderReads.booked({ from: at(last), to: at(last) }))).toContain(last.id);
  expect(ids(await app.orderReads.booked({ from: at(last) + 1, to: Number.POSITIVE_INFINITY }))).toEqual([]);
  expect(ids(await app.orderReads.booked({ from: Number.NEGATIVE_INFINITY, to: at(first) - 1 }))).toEqual([]);
});

test('an admin list: the same ready bytes and ETag while nothing changed, others after a change', async (t) => {
  const app = await appWithEvents(t);
  const order = await orderIn(app, 'pending');
  const first = await app.orderReads.list(['pending'], undefined);
  expect(JSON.parse(first.bytes.toString()).map((o: { id: string }) => o.id)).toEqual([order.id]);
  const again = await app.orderReads.list(['pending'], undefined);
  expect(again.bytes).toBe(first.bytes);
  expect(again.etag).toBe(first.etag);
  expect((await app.orderReads.list(['paid'], undefined)).bytes.toString()).toBe('[]');

  await app.store.orders.update(order.id, { status: 'paid' }, { by: 'admin' });
  const changed = await app.orderReads.list(['pending'], undefined);
  expect(changed.bytes.toString()).toBe('[]');
  expect(changed.etag).not.toBe(first.etag);
});
