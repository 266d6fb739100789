/**
 * The orders port's conformance suite (src/services/store/ports/orders.ts), on SQLite and on
 * PostgreSQL: numbering, round trips, lists and summary, the status/shipping/edit rules,
 * holds, feedback and its cap, history and versions, mail and Idempotency-Keys committed
 * with the order.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import {
  appendFeedbackText,
  MAX_FEEDBACK_ENTRIES,
  ORDER_STATUSES,
  type OrderRecord,
  type OrderStatus,
} from '../../../../src/domain/order.js';
import { canTransition } from '../../../../src/domain/transitions.js';
import type { MailJobInput } from '../../../../src/services/store/ports/mail-outbox.js';
import { describeOnEngines } from '../../../support/store-engines.js';
import { ADMIN, newOrder, orderIn, printedOrder } from '../../../support/store-fixtures.js';

const TRICKY_TEXT = {
  customerName: 'Zoë Ñúñez 山田 太郎 👩🏽‍💻 عربي e\u0301',
  customerEmail: 'zoe+photos@例え.example',
  customerPhone: '+1 (555) 010-0000',
  shippingAddress: '=HYPERLINK("x")\nApt. 4',
  city: '+1',
  state: '-1',
  zipCode: '@x',
} as const;

const by = { by: ADMIN } as const;
const customer = { by: 'customer' } as const;
/** How the customer's feedback shows it is theirs (the route's check: the order's email). */
const byEmail = { by: 'customer', proof: 'email' } as const;

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'AppError', code });
}

const mail = (kind: MailJobInput['kind'], payload: Record<string, unknown> = {}): MailJobInput => ({
  kind,
  orderId: null,
  payload,
});

const sequenceOf = (o: OrderRecord) => Number(o.orderNumber.split('-')[1]);

/** What a change leaves: the order as before with `changes`, one more version and `entries` appended. */
function changed(before: OrderRecord, after: OrderRecord, changes: Partial<OrderRecord>, entries: object[]) {
  expect(after).toEqual({
    ...before,
    ...changes,
    updatedAt: after.updatedAt,
    version: before.version + 1,
    history: [...before.history, ...entries.map((e) => ({ at: expect.any(String), ...e }))],
  });
  expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
}

describeOnEngines('orders port', (open) => {
  // ------------------------------------------------------------ create and read

  test('a new order: first number of its prefix, pending/ship, version 1, created in its history; every field round-trips', async (t) => {
    const { orders } = await open(t);
    const input = newOrder({
      ...TRICKY_TEXT,
      items: [
        { photoNumber: '0042', size: '4x6', quantity: 3, unitCents: 500, lineCents: 1500 },
        { photoNumber: '7', size: '8x10', quantity: 99, unitCents: 2000, lineCents: 198_000 },
      ],
      addressVerified: false,
      channel: 'booth',
    });
    const created = await orders.create(input, by);
    expect(created).toMatchObject({
      ...TRICKY_TEXT,
      orderNumber: 'AX25-0001',
      eventSlug: 'AX2025',
      status: 'pending',
      shippingStatus: 'ship',
      trackingNumber: '',
      feedback: '',
      fulfillmentType: 'ship',
      items: input.items,
      subtotalCents: 199_500,
      shippingFeeCents: 500,
      totalCents: 200_000,
      held: false,
      holdExpiresAt: null,
      addressVerified: false,
      channel: 'booth',
      version: 1,
      history: [{ at: created.createdAt, action: 'create', to: 'pending', by: ADMIN }],
      pickupStatus: null,
      printed: [],
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBe(created.updatedAt);
    expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(60_000);

    expect(await orders.get(created.id)).toEqual(created);
    expect(await orders.get(created.orderNumber)).toEqual(created);
    expect(await orders.get('ax25-0001')).toEqual(created);
    expect(await orders.list()).toEqual([created]);
  });

  test('a pickup order reports shipping status pickup; text round-trips exactly', async (t) => {
    const { orders } = await open(t);
    const input = newOrder({
      customerName: '  \'quoted\' "double" <b>&amp;</b>  ',
      customerEmail: 'a@b.co',
      customerPhone: '',
      fulfillmentType: 'pickup',
      shippingAddress: '',
      city: '',
      state: '',
      zipCode: '02134',
      addressVerified: null,
      prefix: 'Z9',
      eventSlug: 'Zine Fest 2026',
    });
    const created = await orders.create(input, customer);
    expect(created).toMatchObject({
      orderNumber: 'Z9-0001',
      shippingFeeCents: 0,
      shippingStatus: 'pickup',
      pickupStatus: 'waiting',
    });
    const read = await orders.get(created.id);
    expect(read).toEqual(created);
    expect(read).toMatchObject({
      customerName: input.customerName,
      customerPhone: '',
      shippingAddress: '',
      zipCode: '02134',
      addressVerified: null,
      fulfillmentType: 'pickup',
      eventSlug: 'Zine Fest 2026',
      history: [{ action: 'create', by: 'customer' }],
    });
  });

  test('order numbers are per prefix, zero-padded and consecutive', async (t) => {
    const { orders } = await open(t);
    const a1 = await orders.create(newOrder({ prefix: 'AX25' }), by);
    const b1 = await orders.create(newOrder({ prefix: 'BB', eventSlug: 'BB' }), by);
    const a2 = await orders.create(newOrder({ prefix: 'AX25' }), by);
    expect([a1.orderNumber, b1.orderNumber, a2.orderNumber]).toEqual(['AX25-0001', 'BB-0001', 'AX25-0002']);
    expect(new Set([a1.id, b1.id, a2.id]).size).toBe(3);
  });

  test('creates arriving together: a refused one uses no number, the others stay consecutive per prefix', async (t) => {
    const { orders } = await open(t);
    const twin = randomUUID();
    const results = await Promise.allSettled([
      orders.create(newOrder({ prefix: 'AA' }), by),
      orders.create(newOrder({ id: twin, prefix: 'AA' }), by),
      orders.create(newOrder({ prefix: 'BB', eventSlug: 'BB' }), by),
      orders.create(newOrder({ id: twin, prefix: 'AA', customerName: 'Twin' }), by),
      orders.create(newOrder({ prefix: 'AA' }), by),
      orders.create(newOrder({ prefix: 'BB', eventSlug: 'BB' }), by),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(results[3]).toMatchObject({ reason: { code: 'INTERNAL', statusCode: 500 } });
    const numbers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.orderNumber] : []));
    expect(numbers).toEqual(['AA-0001', 'AA-0002', 'BB-0001', 'AA-0003', 'BB-0002']);
    const all = await orders.list({ includeHeld: true });
    expect(all.map((o) => o.orderNumber).sort()).toEqual(['AA-0001', 'AA-0002', 'AA-0003', 'BB-0001', 'BB-0002']);
    expect(all.find((o) => o.id === twin)?.customerName).not.toBe('Twin');
    expect((await orders.create(newOrder({ prefix: 'AA' }), by)).orderNumber).toBe('AA-0004');
  });

  test('a supplied id is used (mail jobs get it); a taken id is refused with nothing written and no number used', async (t) => {
    const { orders, outbox } = await open(t);
    const id = randomUUID();
    const created = await orders.create(newOrder({ id: id.toUpperCase() }), {
      ...customer,
      mail: [mail('verification', { verifyUrl: `https://x.example/verify?token=${id}` })],
    });
    expect(created.id).toBe(id); // stored lower-case
    expect(await orders.get(id)).toEqual(created);
    await expectCode(orders.create(newOrder({ id }), { ...customer, mail: [mail('receipt')] }), 'INTERNAL');
    expect(await orders.list({ includeHeld: true })).toHaveLength(1);
    const jobs = await outbox.claimDue(new Date(Date.now() + 1000), 10, 60_000);
    expect(jobs.map((j) => [j.kind, j.orderId])).toEqual([['verification', id]]);
    expect(jobs[0]?.payload).toEqual({ verifyUrl: `https://x.example/verify?token=${id}` });
    expect((await orders.create(newOrder(), by)).orderNumber).toBe('AX25-0002');
    // an id that is not a UUID is refused before anything happens
    await expect(orders.create(newOrder({ id: 'order-1' }), by)).rejects.toThrow();
  });

  test('200 concurrent creates get 200 distinct consecutive numbers and all are stored', async (t) => {
    const { orders } = await open(t);
    const n = 200;
    const created = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        orders.create(newOrder({ customerName: `Customer ${i}`, customerEmail: `c${i}@example.com` }), customer),
      ),
    );
    expect(created.map(sequenceOf).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const listed = await orders.list();
    expect(listed).toHaveLength(n);
    const byId = new Map(listed.map((o) => [o.id, o]));
    for (const o of created) expect(byId.get(o.id)).toEqual(o);
    expect((await orders.create(newOrder(), by)).orderNumber).toBe(`AX25-0${n + 1}`);
  });

  test('no write is lost: concurrent feedback on one order and concurrent edits of many orders all land', async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder(), customer);
    const others = await Promise.all(Array.from({ length: 10 }, () => orders.create(newOrder(), customer)));
    const base = Date.parse('2026-07-04T10:00:00.000Z');
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => orders.appendFeedback(order.id, `note ${i}`, new Date(base + i), byEmail)),
      ...others.map((o, i) => orders.update(o.id, { fields: { city: `City ${i}` } }, by)),
      ...others.map((o) => orders.update(o.id, { status: 'paid' }, by)),
    ]);
    const after = await orders.get(order.id);
    for (let i = 0; i < 8; i++) expect(after?.feedback).toContain(`] note ${i}`);
    expect(after?.version).toBe(9);
    expect(after?.history.filter((h) => h.action === 'feedback')).toHaveLength(8);
    for (const [i, o] of others.entries()) {
      expect(await orders.get(o.id)).toMatchObject({ city: `City ${i}`, status: 'paid', version: 3 });
    }
  });

  test('lookups: by id, by order number in any case; unknown refs give null or ORDER_NOT_FOUND', async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder({ prefix: 'AB12' }), by);
    expect((await orders.get(order.id.toUpperCase()))?.id).toBe(order.id);
    expect((await orders.get(' ab12-0001 '))?.id).toBe(order.id);
    expect(await orders.get('AB12-0002')).toBeNull();
    expect(await orders.get('AB12-1')).toBeNull();
    expect(await orders.get('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await orders.get('nonsense')).toBeNull();
    const unknown = 'AB12-9999';
    await expectCode(orders.update(unknown, { status: 'paid' }, by), 'ORDER_NOT_FOUND');
    await expectCode(orders.setShipping(unknown, { shipped: true }, by), 'ORDER_NOT_FOUND');
    await expectCode(orders.appendFeedback(unknown, 'hi', new Date(), byEmail), 'ORDER_NOT_FOUND');
    await expectCode(orders.releaseHold(unknown, customer), 'ORDER_NOT_FOUND');
  });

  // ------------------------------------------------------------ lists and summary

  test('lists filter by status and event, newest first, held orders only when asked', async (t) => {
    const { orders } = await open(t);
    const p1 = await orderIn(orders, 'pending');
    const paid = await orderIn(orders, 'paid');
    const voided = await orderIn(orders, 'void');
    const cancelled = await orderIn(orders, 'cancelled');
    const other = await orderIn(orders, 'pending', { eventSlug: 'OTHER', prefix: 'OT' });
    const held = await orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), totalCents: 15_000 }),
      customer,
    );
    const p2 = await orderIn(orders, 'pending');

    const ids = (list: OrderRecord[]) => list.map((o) => o.id);
    expect(ids(await orders.list())).toEqual(ids([p2, other, cancelled, voided, paid, p1]));
    expect(ids(await orders.list({ statuses: ['pending'] }))).toEqual(ids([p2, other, p1]));
    expect(ids(await orders.list({ statuses: ['paid'] }))).toEqual([paid.id]);
    expect(ids(await orders.list({ statuses: ['cancelled', 'void'] }))).toEqual(ids([cancelled, voided]));
    expect(ids(await orders.list({ statuses: ['pending'], eventSlug: 'AX2025' }))).toEqual(ids([p2, p1]));
    expect(ids(await orders.list({ eventSlug: 'OTHER' }))).toEqual([other.id]);
    expect(await orders.list({ eventSlug: 'NOPE' })).toEqual([]);
    expect(await orders.list({ statuses: [] })).toEqual([]);
    expect(ids(await orders.list({ statuses: ['pending'], includeHeld: true }))).toEqual(ids([p2, held, other, p1]));
    expect(ids(await orders.list({ includeHeld: true }))).toHaveLength(7);
    expect((await orders.list({ statuses: ['paid'] }))[0]).toEqual(paid);
  });

  test('lists hand out the same frozen record while an order is unchanged, and a new one once it changed', async (t) => {
    const { orders } = await open(t);
    const a = await orders.create(newOrder(), customer);
    const b = await orders.create(newOrder(), customer);
    const first = await orders.list();
    const again = await orders.list();
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(Object.isFrozen(first[0]?.items)).toBe(true);
    await orders.update(a.id, { fields: { city: 'Elsewhere' } }, by);
    const later = await orders.list();
    expect(later.map((o) => o.id)).toEqual([b.id, a.id]);
    expect(later[0]).toBe(first[0]);
    expect(later[1]).not.toBe(first[1]);
    expect(later[1]).toMatchObject({ city: 'Elsewhere', version: 2 });
  });

  test('summary figures (held orders excluded), overall and per event', async (t) => {
    const { orders } = await open(t);
    expect(await orders.summary()).toEqual({
      totalOrders: 0,
      pendingCount: 0,
      completedCount: 0,
      cancelledCount: 0,
      totalRevenueCents: 0,
      pendingRevenueCents: 0,
      averageOrderValueCents: 0,
      totalDiscountsCents: 0,
    });
    await orderIn(orders, 'pending', { totalCents: 1250, discountCents: 50 });
    await orderIn(orders, 'pending', { totalCents: 750 });
    await orderIn(orders, 'paid', { totalCents: 1000, discountCents: 200 });
    await orderIn(orders, 'paid', { totalCents: 1001 });
    await orderIn(orders, 'paid', { totalCents: 1001 });
    await orderIn(orders, 'void', { totalCents: 9999, discountCents: 300 });
    await orderIn(orders, 'cancelled', { totalCents: 5555 });
    await orders.create(
      newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z', totalCents: 50_000 }),
      customer,
    );
    await orderIn(orders, 'paid', { totalCents: 4000, discountCents: 25, eventSlug: 'OTHER', prefix: 'OT' });

    expect(await orders.summary({ eventSlug: 'AX2025' })).toEqual({
      totalOrders: 7,
      pendingCount: 2,
      completedCount: 3,
      cancelledCount: 2,
      totalRevenueCents: 3002,
      pendingRevenueCents: 2000,
      averageOrderValueCents: 1001, // 3002 / 3 = 1000.67, rounded to cents
      totalDiscountsCents: 200, // paid orders only
    });
    expect(await orders.summary()).toEqual({
      totalOrders: 8,
      pendingCount: 2,
      completedCount: 4,
      cancelledCount: 2,
      totalRevenueCents: 7002,
      pendingRevenueCents: 2000,
      averageOrderValueCents: 1751, // 7002 / 4 = 1750.5
      totalDiscountsCents: 225,
    });
    expect((await orders.summary({ eventSlug: 'NOPE' })).totalOrders).toBe(0);
  });

  // ------------------------------------------------------------ status, shipping, edits

  test('every status pair: allowed moves change it (with history), the same status is a no-op, others are INVALID_TRANSITION', async (t) => {
    const { orders } = await open(t);
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const pair = `${from} → ${to}`;
        const before = await orderIn(orders, from);
        if (from === to) {
          expect(await orders.update(before.orderNumber, { status: to }, by), pair).toEqual({
            order: before,
            changed: false,
          });
        } else if (canTransition(from, to) || (from === 'paid' && to === 'pending')) {
          // paid → pending: the undo of "Mark paid", allowed just after it (orders-fulfilment.test.ts)
          const res = await orders.update(before.id, { status: to }, by);
          expect(res.changed, pair).toBe(true);
          changed(before, res.order, { status: to }, [{ action: 'status', from, to, by: ADMIN }]);
          expect(await orders.get(before.id), pair).toEqual(res.order);
        } else {
          await expect(orders.update(before.id, { status: to }, by), pair).rejects.toMatchObject({
            code: 'INVALID_TRANSITION',
          });
          expect(await orders.get(before.id), pair).toEqual(before);
        }
      }
    }
    const allowed = ORDER_STATUSES.flatMap((f) =>
      ORDER_STATUSES.filter((x) => x !== f && canTransition(f, x)).map((x) => `${f}→${x}`),
    );
    expect(allowed).toEqual(['pending→paid', 'pending→void', 'pending→cancelled', 'paid→void']);
  });

  test('concurrent status moves on one order: exactly one wins, the losers are INVALID_TRANSITION', async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder(), customer);
    const targets: OrderStatus[] = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'paid' : 'cancelled'));
    const results = await Promise.allSettled(targets.map((status) => orders.update(order.id, { status }, by)));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.changed)).toHaveLength(1);
    const final = await orders.get(order.id);
    expect(final?.version).toBe(2);
    for (const [i, r] of results.entries()) {
      if (targets[i] === final?.status) expect(r.status).toBe('fulfilled');
      else expect(r).toMatchObject({ status: 'rejected', reason: { code: 'INVALID_TRANSITION' } });
    }
  });

  test('shipping: needs paid + ship; sets tracking; shipped:false undoes it; each change in the history', async (t) => {
    const { orders } = await open(t);
    const pending = await orderIn(orders, 'pending');
    await expectCode(orders.setShipping(pending.id, { shipped: true }, by), 'ORDER_NOT_SHIPPABLE');
    await expectCode(
      orders.setShipping(pending.id, { shipped: false, trackingNumber: '1Z' }, by),
      'ORDER_NOT_SHIPPABLE',
    );
    const pickup = await orderIn(orders, 'paid', { fulfillmentType: 'pickup' });
    await expectCode(orders.setShipping(pickup.id, { shipped: true }, by), 'ORDER_NOT_SHIPPABLE');
    expect(await orders.setShipping(pickup.id, { shipped: false }, by)).toEqual({ order: pickup, changed: false });
    for (const s of ['void', 'cancelled'] as const) {
      const o = await orderIn(orders, s);
      await expectCode(orders.setShipping(o.id, { shipped: true, trackingNumber: 'X' }, by), 'ORDER_NOT_SHIPPABLE');
    }
    expect(await orders.get(pending.id)).toEqual(pending);

    const paid = await printedOrder(orders);
    const shipped = await orders.setShipping(
      paid.orderNumber,
      { shipped: true, trackingNumber: '1Z999AA10123456784' },
      by,
    );
    expect(shipped.changed).toBe(true);
    changed(paid, shipped.order, { shippingStatus: 'shipped', trackingNumber: '1Z999AA10123456784' }, [
      { action: 'shipping', from: 'ship', to: 'shipped', by: ADMIN },
      { action: 'edit', field: 'trackingNumber', from: '', to: '1Z999AA10123456784', by: ADMIN },
    ]);
    expect(await orders.get(paid.id)).toEqual(shipped.order);
    expect(await orders.setShipping(paid.id, { shipped: true }, by)).toEqual({ order: shipped.order, changed: false });
    expect(
      (await orders.setShipping(paid.id, { shipped: true, trackingNumber: '+1 940' }, by)).order.trackingNumber,
    ).toBe('+1 940');
    const undone = await orders.setShipping(paid.id, { shipped: false }, by);
    expect(undone.order).toMatchObject({ shippingStatus: 'ship', trackingNumber: '' });
    expect(undone.order.history.at(-2)).toMatchObject({ action: 'shipping', from: 'shipped', to: 'ship' });
    expect((await orders.setShipping(paid.id, { shipped: false }, by)).changed).toBe(false);

    // a refund after shipping keeps the shipping state; undoing it is still possible
    await orders.setShipping(paid.id, { shipped: true, trackingNumber: 'T1' }, by);
    expect((await orders.update(paid.id, { status: 'void' }, by)).order).toMatchObject({
      status: 'void',
      shippingStatus: 'shipped',
    });
    expect((await orders.setShipping(paid.id, { shipped: false }, by)).order.shippingStatus).toBe('ship');
  });

  test('edits: allowed while pending or paid and not shipped, else ORDER_FULFILLED; same values change nothing; fulfilment sets the shipping status', async (t) => {
    const { orders } = await open(t);
    const fields = {
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
      customerPhone: '555-0100',
      fulfillmentType: 'pickup' as const,
      shippingAddress: '=1+1',
      city: 'Arlington',
      state: 'VA',
      zipCode: '22201',
    };
    for (const s of ['pending', 'paid'] as const) {
      const o = await orderIn(orders, s);
      const res = await orders.update(o.id, { fields }, by);
      changed(
        o,
        res.order,
        { ...fields, shippingStatus: 'pickup', pickupStatus: 'waiting' },
        Object.entries(fields).map(([field, to]) => ({
          action: 'edit',
          field,
          from: String(o[field as keyof typeof fields]),
          to,
          by: ADMIN,
        })),
      );
      expect(await orders.get(o.id)).toEqual(res.order);
      expect(await orders.update(o.id, { fields }, by)).toEqual({ order: res.order, changed: false });
      const back = await orders.update(o.id, { fields: { fulfillmentType: 'ship' } }, by);
      expect(back.order).toMatchObject({ fulfillmentType: 'ship', shippingStatus: 'ship' });
    }
    const partial = await orderIn(orders, 'pending');
    const res = await orders.update(partial.id, { fields: { city: 'Tokyo 東京', addressVerified: null } }, by);
    expect(res.order).toMatchObject({ city: 'Tokyo 東京', addressVerified: null, version: partial.version + 1 });

    for (const s of ['void', 'cancelled'] as const) {
      const o = await orderIn(orders, s);
      await expectCode(orders.update(o.id, { fields: { city: 'X' } }, by), 'ORDER_FULFILLED');
      expect(await orders.get(o.id)).toEqual(o);
    }
    const shipped = await printedOrder(orders);
    await orders.setShipping(shipped.id, { shipped: true }, by);
    await expectCode(orders.update(shipped.id, { fields: { customerName: 'Late' } }, by), 'ORDER_FULFILLED');
    await expectCode(orders.update(shipped.id, { status: 'pending' }, by), 'INVALID_TRANSITION');
    // status first: a forbidden move is INVALID_TRANSITION even with a valid edit in the same patch
    const p = await orderIn(orders, 'cancelled');
    await expectCode(orders.update(p.id, { status: 'paid', fields: { city: 'Y' } }, by), 'INVALID_TRANSITION');
    // move and edit at once: both land, one version
    const q = await orderIn(orders, 'pending');
    const both = await orders.update(q.id, { status: 'paid', fields: { city: 'Z' } }, by);
    changed(q, both.order, { status: 'paid', city: 'Z' }, [
      { action: 'status', from: 'pending', to: 'paid', by: ADMIN },
      { action: 'edit', field: 'city', from: q.city, to: 'Z', by: ADMIN },
    ]);
  });

  // ------------------------------------------------------------ feedback

  test('feedback: appended with its time, earlier kept, in the history; 2,000 unicode characters kept exactly', async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder(), customer);
    const long = '=SUM(A1) 写真 😀 +1 @x '.repeat(200).slice(0, 2000);
    const at1 = new Date('2026-07-04T10:00:00.000Z');
    const at2 = new Date('2026-07-04T11:30:00.000Z');
    const first = await orders.appendFeedback(order.id, long, at1, byEmail);
    expect(first.feedback).toBe(`[2026-07-04T10:00:00.000Z] ${long}`);
    const second = await orders.appendFeedback(order.orderNumber.toLowerCase(), '-1 second note', at2, byEmail);
    expect(second.feedback).toBe(appendFeedbackText(appendFeedbackText('', long, at1), '-1 second note', at2));
    changed(first, second, { feedback: second.feedback }, [
      { action: 'feedback', field: 'proof', to: 'email', by: 'customer' },
    ]);
    expect(await orders.get(order.id)).toEqual(second);
  });

  test(`feedback: at most ${MAX_FEEDBACK_ENTRIES} entries per order, then FEEDBACK_LIMIT; concurrent posts never pass the cap`, async (t) => {
    const { orders } = await open(t);
    const order = await orders.create(newOrder(), customer);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => orders.appendFeedback(order.id, `note ${i}`, new Date(), byEmail)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_FEEDBACK_ENTRIES);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect(r).toMatchObject({ reason: { code: 'FEEDBACK_LIMIT', statusCode: 409 } });
    }
    const after = await orders.get(order.id);
    expect(after?.history.filter((h) => h.action === 'feedback')).toHaveLength(MAX_FEEDBACK_ENTRIES);
    await expectCode(orders.appendFeedback(order.id, 'one more', new Date(), byEmail), 'FEEDBACK_LIMIT');
    expect(await orders.get(order.id)).toEqual(after);
  });

  // ------------------------------------------------------------ holds

  test('held orders: in no list and no summary until released (by the customer, in the history); release is a no-op after', async (t) => {
    const { orders } = await open(t);
    const held = await orders.create(
      newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z', totalCents: 20_000 }),
      customer,
    );
    expect(held).toMatchObject({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z', status: 'pending' });
    expect(await orders.get(held.orderNumber)).toEqual(held);
    expect(await orders.list()).toEqual([]);
    expect((await orders.summary()).totalOrders).toBe(0);

    const released = await orders.releaseHold(held.orderNumber, customer);
    expect(released.changed).toBe(true);
    changed(held, released.order, { held: false, holdExpiresAt: null }, [{ action: 'hold-release', by: 'customer' }]);
    expect(await orders.list()).toEqual([released.order]);
    expect(await orders.summary()).toMatchObject({ totalOrders: 1, pendingCount: 1, pendingRevenueCents: 20_000 });
    expect(await orders.releaseHold(held.id, customer)).toEqual({ order: released.order, changed: false });
  });

  test('expired holds become cancelled by the system; live holds and confirmed orders stay', async (t) => {
    const { orders } = await open(t);
    const now = new Date();
    const lapsed = await orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(now.getTime() - 1000).toISOString() }),
      customer,
    );
    const live = await orders.create(
      newOrder({ held: true, holdExpiresAt: new Date(now.getTime() + 60_000).toISOString() }),
      customer,
    );
    const normal = await orders.create(newOrder(), customer);
    const expired = await orders.expireHolds(now);
    expect(expired.map((o) => o.id)).toEqual([lapsed.id]);
    changed(lapsed, expired[0] as OrderRecord, { status: 'cancelled', held: false, holdExpiresAt: null }, [
      { action: 'hold-expiry', from: 'pending', to: 'cancelled', by: 'system' },
    ]);
    expect(await orders.get(lapsed.id)).toEqual(expired[0]);
    expect(await orders.get(live.id)).toEqual(live);
    expect(await orders.get(normal.id)).toEqual(normal);
    expect(await orders.expireHolds(now)).toEqual([]);
    expect((await orders.list({ statuses: ['cancelled'] })).map((o) => o.id)).toEqual([lapsed.id]);
    expect((await orders.expireHolds(new Date(now.getTime() + 60_000))).map((o) => o.id)).toEqual([live.id]);
  });

  // ------------------------------------------------------------ what commits with the order

  test('mail is enqueued with the change that causes it, atomically; nothing on a failed or no-op change', async (t) => {
    const { orders, outbox } = await open(t);
    const bad = { kind: 'not-a-kind', orderId: null, payload: {} } as unknown as MailJobInput;
    await expect(orders.create(newOrder(), { ...customer, mail: [mail('receipt'), bad] })).rejects.toThrow();
    expect(await orders.list({ includeHeld: true })).toEqual([]);
    expect(await outbox.pendingCount()).toBe(0);
    const order = await orders.create(newOrder(), { ...customer, mail: [mail('receipt')] });
    expect(order.orderNumber).toBe('AX25-0001');
    expect(await outbox.pendingCount()).toBe(1);

    expect((await orders.update(order.id, { status: 'pending' }, { ...by, mail: [mail('operator')] })).changed).toBe(
      false,
    );
    await expectCode(
      orders.setShipping(order.id, { shipped: true }, { ...by, mail: [mail('shipped')] }),
      'ORDER_NOT_SHIPPABLE',
    );
    expect(await outbox.pendingCount()).toBe(1);

    await orders.update(order.id, { status: 'paid' }, { ...by, mail: [mail('operator')] });
    // Refused (its prints are not marked printed): nothing is enqueued.
    await expectCode(
      orders.setShipping(order.id, { shipped: true, trackingNumber: 'T' }, { ...by, mail: [mail('shipped')] }),
      'NOT_PRINTED',
    );
    expect(await outbox.pendingCount()).toBe(2);
    await orders.setShipping(
      order.id,
      { shipped: true, trackingNumber: 'T', printAll: true },
      { ...by, mail: [mail('shipped')] },
    );
    const held = await orders.create(newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z' }), {
      ...customer,
      mail: [mail('verification')],
    });
    await orders.releaseHold(held.id, { ...customer, mail: [mail('receipt')] });
    await orders.releaseHold(held.id, { ...customer, mail: [mail('receipt')] }); // no-op: no second receipt
    expect(await outbox.pendingCount()).toBe(5);
    const jobs = await outbox.claimDue(new Date(Date.now() + 1000), 10, 1000);
    const kinds = (id: string) =>
      jobs
        .filter((j) => j.orderId === id)
        .map((j) => j.kind)
        .sort();
    expect(kinds(held.id)).toEqual(['receipt', 'verification']);
    expect(kinds(order.id)).toEqual(['operator', 'receipt', 'shipped']);
  });

  test('an Idempotency-Key given with a create is completed in its transaction, with the order and its response', async (t) => {
    const { orders, idempotencyKeys } = await open(t);
    const now = new Date();
    const rec = {
      key: 'k-1',
      fingerprint: 'f',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
    };
    expect(await idempotencyKeys.reserve(rec)).toEqual({ reserved: true });
    const order = await orders.create(newOrder(), {
      ...customer,
      idempotency: {
        key: 'k-1',
        reservedAt: rec.createdAt,
        respond: (o) => ({ statusCode: 201, body: JSON.stringify({ orderNumber: o.orderNumber }) }),
      },
    });
    expect(await idempotencyKeys.reserve({ ...rec, createdAt: new Date().toISOString() })).toEqual({
      reserved: false,
      existing: {
        ...rec,
        state: 'done',
        statusCode: 201,
        responseBody: JSON.stringify({ orderNumber: order.orderNumber }),
        orderId: order.id,
      },
    });
  });

  test('a create whose Idempotency-Key reservation was taken over (as stale) is refused, and writes nothing', async (t) => {
    const { orders, idempotencyKeys, outbox } = await open(t);
    const t0 = new Date(Date.now() - 120_000);
    const rec = {
      key: 'k-2',
      fingerprint: 'f',
      createdAt: t0.toISOString(),
      expiresAt: new Date(t0.getTime() + 86_400_000).toISOString(),
    };
    await idempotencyKeys.reserve(rec);
    const later = new Date();
    expect(
      await idempotencyKeys.reserve(
        { ...rec, createdAt: later.toISOString() },
        { staleBefore: new Date(later.getTime() - 60_000) },
      ),
    ).toEqual({ reserved: true });
    const respond = () => ({ statusCode: 201, body: '{}' });
    const stale = orders.create(newOrder(), {
      ...customer,
      mail: [mail('receipt')],
      idempotency: { key: 'k-2', reservedAt: rec.createdAt, respond },
    });
    await expectCode(stale, 'IDEMPOTENCY_IN_PROGRESS');
    expect(await orders.list({ includeHeld: true })).toEqual([]);
    expect(await outbox.pendingCount()).toBe(0);
    // the request that took it over creates its order, numbered first
    const order = await orders.create(newOrder(), {
      ...customer,
      idempotency: { key: 'k-2', reservedAt: later.toISOString(), respond },
    });
    expect(order.orderNumber).toBe('AX25-0001');
  });
});
