/** The mirror port's conformance suite (src/services/store/ports/mirror.ts), on both engines. */
import { expect, test } from 'vitest';
import type { OrderRecord } from '../../../../src/domain/order.js';
import { applyOrderPatch } from '../../../../src/domain/order-changes.js';
import { toCells } from '../../../../src/services/mirror/sheets/row-cells.js';
import { MAX_EVENT_PROBLEMS, type MirrorProblem } from '../../../../src/services/store/ports/mirror.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';
import { ADMIN, newOrder } from '../../../support/store-fixtures.js';

const written = (o: OrderRecord, sheetRow: number) => ({
  orderId: o.id,
  version: o.version,
  cells: toCells(o),
  sheetRow,
  removed: false,
});

const problem = (kind: MirrorProblem['kind'], message: string): MirrorProblem => ({
  kind,
  orderId: null,
  orderNumber: null,
  sheetRow: 3,
  message,
  at: new Date().toISOString(),
});

function imported(number: string, over: Partial<OrderRecord> = {}): OrderRecord {
  const at = '2025-07-01T10:00:00.000Z';
  const n = newOrder();
  return {
    ...n,
    id: crypto.randomUUID(),
    orderNumber: number,
    createdAt: at,
    updatedAt: at,
    status: 'paid',
    shippingStatus: 'ship',
    trackingNumber: '',
    feedback: '',
    version: 1,
    history: [{ at, action: 'create', to: 'paid', by: 'sheet' }],
    pickupStatus: n.fulfillmentType === 'pickup' ? 'waiting' : null,
    printed: [],
    discountCents: 0,
    couponCode: null,
    payment: null,
    ...over,
  } as OrderRecord;
}

describeOnEngines('mirror port', (open) => {
  test('pending: new and changed orders in number order; written ones leave it; removed ones never return', async (t) => {
    const { orders, mirror } = await open(t);
    const a = await orders.create(newOrder(), { by: 'customer' });
    const b = await orders.create(newOrder({ prefix: 'AB' }), { by: 'customer' });
    const c = await orders.create(newOrder(), { by: 'customer' });
    let pending = await mirror.pending(10);
    expect(pending.map((p) => p.order.orderNumber)).toEqual(['AB-0001', 'AX25-0001', 'AX25-0002']);
    expect(pending.every((p) => p.written === null)).toBe(true);
    expect(await mirror.pendingCount()).toBe(3);
    expect((await mirror.pending(2)).length).toBe(2);

    await mirror.recordWritten([written(a, 2), written(b, 3), written(c, 4)]);
    expect(await mirror.pendingCount()).toBe(0);

    const changed = (await orders.update(a.id, { status: 'paid' }, { by: ADMIN })).order;
    pending = await mirror.pending(10);
    expect(pending.map((p) => p.order.id)).toEqual([a.id]);
    expect(pending[0]?.written).toMatchObject({ orderId: a.id, version: 1, sheetRow: 2, removed: false });
    expect(pending[0]?.written?.cells.status).toBe('pending');
    expect(pending[0]?.order.version).toBe(changed.version);

    await mirror.recordWritten([{ ...written(changed, 2), removed: true }]);
    await orders.update(a.id, { fields: { city: 'Shelbyville' } }, { by: ADMIN });
    expect(await mirror.pendingCount()).toBe(0);
    // version 0: compare and write again
    await mirror.recordWritten([{ ...written(b, 3), version: 0 }]);
    expect((await mirror.pending(10)).map((p) => p.order.id)).toEqual([b.id]);
    const rows = await mirror.rows();
    expect(rows.size).toBe(3);
    expect(rows.get(a.id)?.removed).toBe(true);
  });

  test('importOrders keeps ids and numbers, numbering continues after them, and a taken id or number is skipped', async (t) => {
    const store = await open(t);
    const one = imported('AX25-0007');
    const again = imported('AX25-0007');
    const result = await store.mirror.importOrders([
      { order: one, prefix: 'AX25', seq: 7, cells: toCells(one), sheetRow: 2 },
      { order: again, prefix: 'AX25', seq: 7, cells: toCells(again), sheetRow: 3 },
    ]);
    expect(result.imported.map((o) => o.id)).toEqual([one.id]);
    expect(result.skipped[0]?.reason).toMatch(/belongs to another order/);
    const got = await store.orders.get('AX25-0007');
    expect(got).toMatchObject({ id: one.id, status: 'paid', version: 1 });
    expect(got?.history[0]?.by).toBe('sheet');
    // its mirror row is there with version 0: compared, not appended again
    expect((await store.mirror.rows()).get(one.id)).toMatchObject({ version: 0, sheetRow: 2 });
    const next = await store.orders.create(newOrder(), { by: 'customer' });
    expect(next.orderNumber).toBe('AX25-0008');
    const sameId = await store.mirror.importOrders([
      { order: { ...imported('AX25-0020'), id: one.id }, prefix: 'AX25', seq: 20, cells: {}, sheetRow: 9 },
    ]);
    expect(sameId.skipped[0]?.reason).toMatch(/its id is order AX25-0007/);
  });

  test('applyEdit writes the change and the new base in one transaction; a refused change writes nothing', async (t) => {
    const { orders, mirror } = await open(t);
    const o = await orders.create(newOrder(), { by: 'customer' });
    await mirror.recordWritten([written(o, 2)]);
    const base = { ...toCells(o), status: 'paid' };
    const applied = await mirror.applyEdit(
      o.id,
      (cur) => applyOrderPatch(cur, { status: 'paid' }, new Date(), 'sheet'),
      base,
    );
    expect(applied.changed).toBe(true);
    const now = await orders.get(o.id);
    expect(now).toMatchObject({ status: 'paid', version: 2 });
    expect(now?.history.at(-1)).toMatchObject({ action: 'status', to: 'paid', by: 'sheet' });
    const row = (await mirror.rows()).get(o.id);
    expect(row).toMatchObject({ version: 1, cells: base });
    expect(await mirror.pendingCount()).toBe(1);

    const refused = mirror.applyEdit(o.id, (cur) => applyOrderPatch(cur, { status: 'pending' }, new Date(), 'sheet'), {
      ...base,
      status: 'pending',
    });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    expect((await orders.get(o.id))?.status).toBe('paid');
    expect((await mirror.rows()).get(o.id)?.cells.status).toBe('paid');
  });

  test('state and problems: snapshot kinds are replaced, events kept up to the cap, newest first; another process sees them', async (t) => {
    const store = await open(t);
    const { mirror } = store;
    expect(await mirror.state()).toEqual({ lastSyncAt: null, lastError: null, lastErrorAt: null, importedAt: null });
    const at = new Date().toISOString();
    await mirror.setState({ lastError: 'Google Sheets could not be reached', lastErrorAt: at });
    await mirror.setState({ lastSyncAt: at });
    expect(await mirror.state()).toMatchObject({ lastSyncAt: at, lastError: 'Google Sheets could not be reached' });
    await mirror.setState({ lastError: null });
    expect((await mirror.state()).lastError).toBeNull();

    await mirror.replaceSnapshotProblems([problem('unreadable', 'row 3'), problem('removed', 'gone')]);
    await mirror.addEvents([problem('conflict', 'c1')]);
    await mirror.replaceSnapshotProblems([problem('unreadable', 'row 4')]);
    expect((await mirror.problems()).map((p) => p.message)).toEqual(['row 4', 'c1']);

    await mirror.addEvents(Array.from({ length: MAX_EVENT_PROBLEMS + 5 }, (_, i) => problem('rejected', `r${i}`)));
    const all = await mirror.problems();
    expect(all.filter((p) => p.kind !== 'unreadable')).toHaveLength(MAX_EVENT_PROBLEMS);
    expect(all[0]?.message).toBe(`r${MAX_EVENT_PROBLEMS + 4}`);
    const other = await reopenStore(t, store);
    expect((await other.mirror.problems()).length).toBe(all.length);
    expect((await other.mirror.state()).lastSyncAt).toBe(at);
  });
});
