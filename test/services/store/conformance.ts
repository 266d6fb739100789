/**
 * The order store conformance suite: one set of behaviours every adapter (SQLite, PostgreSQL,
 * Google Sheets, and the cached wrapper over any of them) must show. An adapter's test file
 * calls it once:
 *
 *   describeStoreConformance('sqlite', async (t) => {
 *     const store = createSqliteStore(...);
 *     await store.init();
 *     t.onTestFinished(() => store.close());
 *     return store;
 *   });
 *
 * `makeStore` returns a fresh, initialised, empty store for one test and arranges its own
 * clean-up (`t.onTestFinished`). The suite never calls `init()` or `close()`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, type TestContext, test } from 'vitest';
import { appendFeedbackText, ORDER_STATUSES, type OrderRecord, type OrderStatus } from '../../../src/domain/order.js';
import { canTransition } from '../../../src/domain/transitions.js';
import type { MailJobInput, OrderStore, PushSubscriptionRecord } from '../../../src/services/store/port.js';
import { newOrder, orderIn } from '../../support/store-fixtures.js';

export type StoreFactory = (t: TestContext) => Promise<OrderStore>;

export type ConformanceOptions = {
  /** How many creates run at once in the concurrency test (default 200). */
  concurrentCreates?: number;
  /** Per-test timeout in ms for slow backends (default: vitest's). */
  timeout?: number;
};

const TRICKY_TEXT = {
  customerName: 'Zoë Ñúñez 山田 太郎 👩🏽‍💻 عربي e\u0301',
  customerEmail: 'zoe+photos@例え.example',
  customerPhone: '+1 (555) 010-0000',
  shippingAddress: '=HYPERLINK("x")\nApt. 4',
  city: '+1',
  state: '-1',
  zipCode: '@x',
} as const;

/** A rejected promise carrying the AppError code `code`. */
async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'AppError', code });
}

const mail = (kind: MailJobInput['kind'], payload: Record<string, unknown> = {}): MailJobInput => ({
  kind,
  orderId: null,
  payload,
});

const sequenceOf = (o: OrderRecord) => Number(o.orderNumber.split('-')[1]);

export function describeStoreConformance(
  name: string,
  makeStore: StoreFactory,
  options: ConformanceOptions = {},
): void {
  const concurrent = options.concurrentCreates ?? 200;
  const it = (title: string, fn: (t: TestContext) => Promise<void>) => test(title, fn, options.timeout);

  describe(`order store conformance: ${name}`, () => {
    // ------------------------------------------------------------ create and read

    it('a new order gets the first number of its prefix, pending/ship, and every field round-trips', async (t) => {
      const store = await makeStore(t);
      const input = newOrder({
        ...TRICKY_TEXT,
        items: [
          { photoNumber: '0042', size: '4x6', quantity: 3, unitCents: 500, lineCents: 1500 },
          { photoNumber: '7', size: '8x10', quantity: 99, unitCents: 2000, lineCents: 198_000 },
        ],
        addressVerified: false,
        channel: 'booth',
      });
      const created = await store.createOrder(input);
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
      });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.createdAt).toBe(created.updatedAt);
      expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(60_000);

      expect(await store.getOrder(created.id)).toEqual(created);
      expect(await store.getOrder(created.orderNumber)).toEqual(created);
      expect(await store.getOrder('ax25-0001')).toEqual(created);
      expect(await store.listOrders()).toEqual([created]);
    });

    it('more text round-trips exactly: padding, quotes, leading zeros, null address check, pickup', async (t) => {
      const store = await makeStore(t);
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
      const created = await store.createOrder(input);
      expect(created.orderNumber).toBe('Z9-0001');
      expect(created.shippingFeeCents).toBe(0);
      const read = await store.getOrder(created.id);
      expect(read).toEqual(created);
      expect(read).toMatchObject({
        customerName: input.customerName,
        customerPhone: '',
        shippingAddress: '',
        zipCode: '02134',
        addressVerified: null,
        fulfillmentType: 'pickup',
        eventSlug: 'Zine Fest 2026',
      });
    });

    it('2,000-character unicode feedback is appended and kept exactly, earlier feedback kept', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder());
      const long = '=SUM(A1) 写真 😀 +1 @x '.repeat(200).slice(0, 2000);
      expect(long).toHaveLength(2000);
      const at1 = new Date('2026-07-04T10:00:00.000Z');
      const at2 = new Date('2026-07-04T11:30:00.000Z');
      const first = await store.appendFeedback(order.id, long, at1);
      expect(first.feedback).toBe(`[2026-07-04T10:00:00.000Z] ${long}`);
      const second = await store.appendFeedback(order.orderNumber.toLowerCase(), '-1 second note', at2);
      expect(second.feedback).toBe(appendFeedbackText(appendFeedbackText('', long, at1), '-1 second note', at2));
      expect(second.feedback.startsWith(first.feedback)).toBe(true);
      expect(Date.parse(second.updatedAt)).toBeGreaterThanOrEqual(Date.parse(order.updatedAt));
      expect(await store.getOrder(order.id)).toEqual(second);
    });

    it('order numbers are per prefix, zero-padded and consecutive', async (t) => {
      const store = await makeStore(t);
      const a1 = await store.createOrder(newOrder({ prefix: 'AX25' }));
      const b1 = await store.createOrder(newOrder({ prefix: 'BB', eventSlug: 'BB' }));
      const a2 = await store.createOrder(newOrder({ prefix: 'AX25' }));
      expect([a1.orderNumber, b1.orderNumber, a2.orderNumber]).toEqual(['AX25-0001', 'BB-0001', 'AX25-0002']);
      expect(new Set([a1.id, b1.id, a2.id]).size).toBe(3);
    });

    it('creates arriving together without mail: a refused one uses no number, the others stay consecutive per prefix', async (t) => {
      const store = await makeStore(t);
      const twin = randomUUID();
      const results = await Promise.allSettled([
        store.createOrder(newOrder({ prefix: 'AA' })),
        store.createOrder(newOrder({ id: twin, prefix: 'AA' })),
        store.createOrder(newOrder({ prefix: 'BB', eventSlug: 'BB' })),
        store.createOrder(newOrder({ id: twin, prefix: 'AA', customerName: 'Twin' })),
        store.createOrder(newOrder({ prefix: 'AA' })),
        store.createOrder(newOrder({ prefix: 'BB', eventSlug: 'BB' })),
      ]);
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      const numbers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.orderNumber] : []));
      expect(numbers).toEqual(['AA-0001', 'AA-0002', 'BB-0001', 'AA-0003', 'BB-0002']);
      const all = await store.listOrders({ includeHeld: true });
      expect(all.map((o) => o.orderNumber).sort()).toEqual(['AA-0001', 'AA-0002', 'AA-0003', 'BB-0001', 'BB-0002']);
      expect(all.find((o) => o.id === twin)?.customerName).not.toBe('Twin');
      expect((await store.createOrder(newOrder({ prefix: 'AA' }))).orderNumber).toBe('AA-0004');
    });

    it('a supplied id is used (mail jobs get it); a taken id is refused with nothing written and no number used', async (t) => {
      const store = await makeStore(t);
      const id = randomUUID();
      const created = await store.createOrder(newOrder({ id: id.toUpperCase() }), {
        mail: [mail('verification', { verifyUrl: `https://x.example/verify?token=${id}` })],
      });
      expect(created.id).toBe(id); // stored lower-case
      expect(created.orderNumber).toBe('AX25-0001');
      expect(await store.getOrder(id)).toEqual(created);

      const duplicate = store.createOrder(newOrder({ id, customerName: 'Someone Else' }), { mail: [mail('receipt')] });
      await expect(duplicate).rejects.toMatchObject({ name: 'AppError', code: 'INTERNAL', statusCode: 500 });
      // two at once with one fresh id: one is created, the other refused
      const twin = randomUUID();
      const both = await Promise.allSettled([
        store.createOrder(newOrder({ id: twin }), { mail: [mail('receipt')] }),
        store.createOrder(newOrder({ id: twin, customerName: 'Twin' }), { mail: [mail('receipt')] }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(both.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'INTERNAL' } });

      expect(await store.getOrder(id)).toEqual(created);
      const all = await store.listOrders({ includeHeld: true });
      expect(all.map((o) => o.orderNumber).sort()).toEqual(['AX25-0001', 'AX25-0002']);
      expect(all.find((o) => o.id === twin)?.customerName).not.toBe('Someone Else');
      const jobs = await store.claimDueMail(new Date(Date.now() + 1000), 10, 60_000);
      expect(jobs.map((j) => [j.kind, j.orderId]).sort()).toEqual(
        [
          ['receipt', twin],
          ['verification', id],
        ].sort(),
      );
      expect(jobs.find((j) => j.kind === 'verification')?.payload).toEqual({
        verifyUrl: `https://x.example/verify?token=${id}`,
      });
      // the next create continues the sequence: the refused ones used no number
      expect((await store.createOrder(newOrder())).orderNumber).toBe('AX25-0003');
      // an id that is not a UUID is refused before anything happens
      await expect(store.createOrder(newOrder({ id: 'order-1' }))).rejects.toThrow();
      expect(await store.listOrders({ includeHeld: true })).toHaveLength(3);
    });

    it(`${concurrent} concurrent creates get ${concurrent} distinct consecutive numbers and all are stored`, async (t) => {
      const store = await makeStore(t);
      const created = await Promise.all(
        Array.from({ length: concurrent }, (_, i) =>
          store.createOrder(newOrder({ customerName: `Customer ${i}`, customerEmail: `c${i}@example.com` })),
        ),
      );
      const sequences = created.map(sequenceOf).sort((a, b) => a - b);
      expect(sequences).toEqual(Array.from({ length: concurrent }, (_, i) => i + 1));
      expect(new Set(created.map((o) => o.id)).size).toBe(concurrent);
      const listed = await store.listOrders();
      expect(listed).toHaveLength(concurrent);
      const byId = new Map(listed.map((o) => [o.id, o]));
      for (const o of created) expect(byId.get(o.id)).toEqual(o);
      // the next one continues the sequence
      expect((await store.createOrder(newOrder())).orderNumber).toBe(`AX25-${String(concurrent + 1).padStart(4, '0')}`);
    });

    it('no write is lost: concurrent feedback on one order and concurrent edits of many orders all land', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder());
      const others = await Promise.all(Array.from({ length: 10 }, () => store.createOrder(newOrder())));
      const base = Date.parse('2026-07-04T10:00:00.000Z');
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => store.appendFeedback(order.id, `note ${i}`, new Date(base + i))),
        ...others.map((o, i) => store.updateOrder(o.id, { fields: { city: `City ${i}` } })),
        ...others.map((o) => store.updateOrder(o.id, { status: 'paid' })),
      ]);
      const feedback = (await store.getOrder(order.id))?.feedback ?? '';
      for (let i = 0; i < 20; i++) expect(feedback).toContain(`] note ${i}`);
      expect(feedback.split('\n\n')).toHaveLength(20);
      for (const [i, o] of others.entries()) {
        expect(await store.getOrder(o.id)).toMatchObject({ city: `City ${i}`, status: 'paid' });
      }
    });

    it('lookups: by id, by order number in any case; unknown refs give null or ORDER_NOT_FOUND', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder({ prefix: 'AB12' }));
      expect((await store.getOrder(order.id))?.id).toBe(order.id);
      expect((await store.getOrder(order.id.toUpperCase()))?.id).toBe(order.id);
      expect((await store.getOrder('AB12-0001'))?.id).toBe(order.id);
      expect((await store.getOrder('ab12-0001'))?.id).toBe(order.id);
      expect(await store.getOrder('AB12-0002')).toBeNull();
      expect(await store.getOrder('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await store.getOrder('nonsense')).toBeNull();
      const unknown = 'AB12-9999';
      await expectCode(store.updateOrder(unknown, { status: 'paid' }), 'ORDER_NOT_FOUND');
      await expectCode(store.setShipping(unknown, { shipped: true }), 'ORDER_NOT_FOUND');
      await expectCode(store.appendFeedback(unknown, 'hi', new Date()), 'ORDER_NOT_FOUND');
      await expectCode(store.releaseHold(unknown), 'ORDER_NOT_FOUND');
    });

    // ------------------------------------------------------------ lists and summary

    it('lists filter by status and event, newest first, held orders only when asked', async (t) => {
      const store = await makeStore(t);
      const p1 = await orderIn(store, 'pending');
      const paid = await orderIn(store, 'paid');
      const voided = await orderIn(store, 'void');
      const cancelled = await orderIn(store, 'cancelled');
      const other = await orderIn(store, 'pending', { eventSlug: 'OTHER', prefix: 'OT' });
      const held = await store.createOrder(
        newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), totalCents: 15_000 }),
      );
      const p2 = await orderIn(store, 'pending');

      const ids = (list: OrderRecord[]) => list.map((o) => o.id);
      expect(ids(await store.listOrders())).toEqual(ids([p2, other, cancelled, voided, paid, p1]));
      expect(ids(await store.listOrders({ statuses: ['pending'] }))).toEqual(ids([p2, other, p1]));
      expect(ids(await store.listOrders({ statuses: ['paid'] }))).toEqual([paid.id]);
      expect(ids(await store.listOrders({ statuses: ['cancelled', 'void'] }))).toEqual(ids([cancelled, voided]));
      expect(ids(await store.listOrders({ statuses: ['pending'], eventSlug: 'AX2025' }))).toEqual(ids([p2, p1]));
      expect(ids(await store.listOrders({ eventSlug: 'OTHER' }))).toEqual([other.id]);
      expect(await store.listOrders({ eventSlug: 'NOPE' })).toEqual([]);
      expect(await store.listOrders({ statuses: [] })).toEqual([]);
      expect(ids(await store.listOrders({ statuses: ['pending'], includeHeld: true }))).toEqual(
        ids([p2, held, other, p1]),
      );
      expect(ids(await store.listOrders({ includeHeld: true }))).toHaveLength(7);
      // what the list returns is the whole record
      expect((await store.listOrders({ statuses: ['paid'] }))[0]).toEqual(paid);
    });

    it('summary figures follow SPEC §5 (held orders excluded), overall and per event', async (t) => {
      const store = await makeStore(t);
      expect(await store.summary()).toEqual({
        totalOrders: 0,
        pendingCount: 0,
        completedCount: 0,
        cancelledCount: 0,
        totalRevenueCents: 0,
        pendingRevenueCents: 0,
        averageOrderValueCents: 0,
      });
      await orderIn(store, 'pending', { totalCents: 1250 });
      await orderIn(store, 'pending', { totalCents: 750 });
      await orderIn(store, 'paid', { totalCents: 1000 });
      await orderIn(store, 'paid', { totalCents: 1001 });
      await orderIn(store, 'paid', { totalCents: 1001 });
      await orderIn(store, 'void', { totalCents: 9999 });
      await orderIn(store, 'cancelled', { totalCents: 5555 });
      await store.createOrder(newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z', totalCents: 50_000 }));
      await orderIn(store, 'paid', { totalCents: 4000, eventSlug: 'OTHER', prefix: 'OT' });

      expect(await store.summary({ eventSlug: 'AX2025' })).toEqual({
        totalOrders: 7,
        pendingCount: 2,
        completedCount: 3,
        cancelledCount: 2,
        totalRevenueCents: 3002,
        pendingRevenueCents: 2000,
        averageOrderValueCents: 1001, // 3002 / 3 = 1000.67, rounded to cents
      });
      expect(await store.summary()).toEqual({
        totalOrders: 8,
        pendingCount: 2,
        completedCount: 4,
        cancelledCount: 2,
        totalRevenueCents: 7002,
        pendingRevenueCents: 2000,
        averageOrderValueCents: 1751, // 7002 / 4 = 1750.5
      });
      expect((await store.summary({ eventSlug: 'NOPE' })).totalOrders).toBe(0);
    });

    // ------------------------------------------------------------ status, shipping, edits

    it('every status pair (SPEC §5): allowed moves change it, the same status is a no-op, others are INVALID_TRANSITION', async (t) => {
      const store = await makeStore(t);
      for (const from of ORDER_STATUSES) {
        for (const to of ORDER_STATUSES) {
          const pair = `${from} → ${to}`;
          const before = await orderIn(store, from);
          if (from === to) {
            const res = await store.updateOrder(before.orderNumber, { status: to });
            expect(res, pair).toEqual({ order: before, changed: false });
          } else if (canTransition(from, to)) {
            const res = await store.updateOrder(before.id, { status: to });
            expect(res.changed, pair).toBe(true);
            expect(res.order, pair).toEqual({ ...before, status: to, updatedAt: res.order.updatedAt });
            expect(Date.parse(res.order.updatedAt), pair).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
            expect(await store.getOrder(before.id), pair).toEqual(res.order);
          } else {
            await expect(store.updateOrder(before.id, { status: to }), pair).rejects.toMatchObject({
              name: 'AppError',
              code: 'INVALID_TRANSITION',
            });
            expect(await store.getOrder(before.id), pair).toEqual(before);
          }
        }
      }
      // the SPEC §5 table itself, so a change to it is noticed here
      const allowed = ORDER_STATUSES.flatMap((f) =>
        ORDER_STATUSES.filter((x) => x !== f && canTransition(f, x)).map((x) => `${f}→${x}`),
      );
      expect(allowed).toEqual(['pending→paid', 'pending→void', 'pending→cancelled', 'paid→void']);
    });

    it('concurrent status moves on one order: exactly one wins, the losers are INVALID_TRANSITION', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder());
      const targets: OrderStatus[] = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'paid' : 'cancelled'));
      const results = await Promise.allSettled(targets.map((status) => store.updateOrder(order.id, { status })));
      const changed = results.filter((r) => r.status === 'fulfilled' && r.value.changed);
      expect(changed).toHaveLength(1);
      const final = (await store.getOrder(order.id))?.status;
      for (const [i, r] of results.entries()) {
        if (targets[i] === final) expect(r.status).toBe('fulfilled');
        else expect(r).toMatchObject({ status: 'rejected', reason: { code: 'INVALID_TRANSITION' } });
      }
    });

    it('shipping: needs paid + ship; sets tracking; shipped:false undoes it', async (t) => {
      const store = await makeStore(t);
      const pending = await orderIn(store, 'pending');
      await expectCode(store.setShipping(pending.id, { shipped: true }), 'ORDER_NOT_SHIPPABLE');
      await expectCode(store.setShipping(pending.id, { shipped: false, trackingNumber: '1Z' }), 'ORDER_NOT_SHIPPABLE');
      const pickup = await orderIn(store, 'paid', { fulfillmentType: 'pickup' });
      await expectCode(store.setShipping(pickup.id, { shipped: true }), 'ORDER_NOT_SHIPPABLE');
      for (const s of ['void', 'cancelled'] as const) {
        const o = await orderIn(store, s);
        await expectCode(store.setShipping(o.id, { shipped: true, trackingNumber: 'X' }), 'ORDER_NOT_SHIPPABLE');
      }
      expect(await store.getOrder(pending.id)).toEqual(pending);

      const paid = await orderIn(store, 'paid');
      const shipped = await store.setShipping(paid.orderNumber, {
        shipped: true,
        trackingNumber: '1Z999AA10123456784',
      });
      expect(shipped.changed).toBe(true);
      expect(shipped.order).toMatchObject({
        status: 'paid',
        shippingStatus: 'shipped',
        trackingNumber: '1Z999AA10123456784',
      });
      expect(await store.getOrder(paid.id)).toEqual(shipped.order);

      const again = await store.setShipping(paid.id, { shipped: true });
      expect(again).toEqual({ order: shipped.order, changed: false });
      const retracked = await store.setShipping(paid.id, { shipped: true, trackingNumber: '+1 940' });
      expect(retracked.order.trackingNumber).toBe('+1 940');

      const undone = await store.setShipping(paid.id, { shipped: false });
      expect(undone.changed).toBe(true);
      expect(undone.order).toMatchObject({ shippingStatus: 'ship', trackingNumber: '' });
      expect(await store.getOrder(paid.id)).toEqual(undone.order);
      expect((await store.setShipping(paid.id, { shipped: false })).changed).toBe(false);

      // a refund after shipping keeps the shipping state; undoing it is still possible
      await store.setShipping(paid.id, { shipped: true, trackingNumber: 'T1' });
      const refunded = await store.updateOrder(paid.id, { status: 'void' });
      expect(refunded.order).toMatchObject({ status: 'void', shippingStatus: 'shipped' });
      expect((await store.setShipping(paid.id, { shipped: false })).order.shippingStatus).toBe('ship');
    });

    it('edits: allowed while pending or paid and not shipped, else ORDER_FULFILLED; same values change nothing', async (t) => {
      const store = await makeStore(t);
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
        const o = await orderIn(store, s);
        const res = await store.updateOrder(o.id, { fields });
        expect(res.changed).toBe(true);
        expect(res.order).toEqual({ ...o, ...fields, updatedAt: res.order.updatedAt });
        expect(await store.getOrder(o.id)).toEqual(res.order);
        expect(await store.updateOrder(o.id, { fields })).toEqual({ order: res.order, changed: false });
      }
      const partial = await orderIn(store, 'pending');
      const res = await store.updateOrder(partial.id, { fields: { city: 'Tokyo 東京', addressVerified: null } });
      expect(res.order).toEqual({
        ...partial,
        city: 'Tokyo 東京',
        addressVerified: null,
        updatedAt: res.order.updatedAt,
      });

      for (const s of ['void', 'cancelled'] as const) {
        const o = await orderIn(store, s);
        await expectCode(store.updateOrder(o.id, { fields: { city: 'X' } }), 'ORDER_FULFILLED');
        expect(await store.getOrder(o.id)).toEqual(o);
      }
      const shipped = await orderIn(store, 'paid');
      await store.setShipping(shipped.id, { shipped: true, trackingNumber: 'T' });
      await expectCode(store.updateOrder(shipped.id, { fields: { customerName: 'X' } }), 'ORDER_FULFILLED');
      // a status move and an edit together: the move is checked first, then the edit
      const both = await orderIn(store, 'pending');
      const moved = await store.updateOrder(both.id, { status: 'paid', fields: { city: 'Both' } });
      expect(moved.order).toMatchObject({ status: 'paid', city: 'Both' });
      await expectCode(store.updateOrder(both.id, { status: 'pending', fields: { city: 'No' } }), 'INVALID_TRANSITION');
      expect((await store.getOrder(both.id))?.city).toBe('Both');
      // nothing asked: nothing changes
      expect(await store.updateOrder(both.id, {})).toEqual({ order: moved.order, changed: false });
    });

    // ------------------------------------------------------------ holds

    it('held orders: out of lists and summary until released; release is a one-time change', async (t) => {
      const store = await makeStore(t);
      const expires = new Date(Date.now() + 48 * 3_600_000).toISOString();
      const held = await store.createOrder(newOrder({ held: true, holdExpiresAt: expires, totalCents: 20_000 }));
      expect(held).toMatchObject({ held: true, status: 'pending' });
      expect(Date.parse(held.holdExpiresAt ?? '')).toBe(Date.parse(expires));
      expect(await store.getOrder(held.orderNumber)).toEqual(held);
      expect(await store.listOrders()).toEqual([]);
      expect((await store.summary()).totalOrders).toBe(0);

      const released = await store.releaseHold(held.orderNumber);
      expect(released.changed).toBe(true);
      expect(released.order).toMatchObject({ held: false, holdExpiresAt: null, status: 'pending' });
      expect(await store.listOrders()).toEqual([released.order]);
      expect(await store.summary()).toMatchObject({ totalOrders: 1, pendingCount: 1, pendingRevenueCents: 20_000 });
      expect(await store.releaseHold(held.id)).toEqual({ order: released.order, changed: false });
    });

    it('expired holds become cancelled (and visible as such); live holds and confirmed orders stay', async (t) => {
      const store = await makeStore(t);
      const now = new Date();
      const lapsed = await store.createOrder(
        newOrder({ held: true, holdExpiresAt: new Date(now.getTime() - 1000).toISOString() }),
      );
      const live = await store.createOrder(
        newOrder({ held: true, holdExpiresAt: new Date(now.getTime() + 60_000).toISOString() }),
      );
      const normal = await store.createOrder(newOrder());
      const expired = await store.expireHolds(now);
      expect(expired.map((o) => o.id)).toEqual([lapsed.id]);
      expect(expired[0]).toMatchObject({ status: 'cancelled', held: false, holdExpiresAt: null });
      expect(await store.getOrder(lapsed.id)).toEqual(expired[0]);
      expect(await store.getOrder(live.id)).toEqual(live);
      expect(await store.getOrder(normal.id)).toEqual(normal);
      expect(await store.expireHolds(now)).toEqual([]);
      expect((await store.listOrders({ statuses: ['cancelled'] })).map((o) => o.id)).toEqual([lapsed.id]);
      // the live hold lapses later
      expect((await store.expireHolds(new Date(now.getTime() + 60_000))).map((o) => o.id)).toEqual([live.id]);
    });

    // ------------------------------------------------------------ event settings

    it('event settings: absent until put, patches merge, null clears a deadline, list has all', async (t) => {
      const store = await makeStore(t);
      expect(await store.getEventSettings('AX2025')).toBeNull();
      expect(await store.listEventSettings()).toEqual([]);
      const a = await store.putEventSettings('AX2025', {
        orderingEnabled: false,
        deadline: '2026-08-01T00:00:00.000Z',
      });
      expect(a).toMatchObject({ eventSlug: 'AX2025', orderingEnabled: false, deadline: '2026-08-01T00:00:00.000Z' });
      expect(Number.isNaN(Date.parse(a.updatedAt))).toBe(false);
      const b = await store.putEventSettings('AX2025', {
        prices: { '4x6': 600, '8x10': 2500, 'A4 ✨': 0 },
        shippingFeeCents: 700,
        isArchived: true,
      });
      expect(b).toMatchObject({
        eventSlug: 'AX2025',
        orderingEnabled: false,
        deadline: '2026-08-01T00:00:00.000Z',
        prices: { '4x6': 600, '8x10': 2500, 'A4 ✨': 0 },
        shippingFeeCents: 700,
        isArchived: true,
      });
      const c = await store.putEventSettings('AX2025', { deadline: null, orderingEnabled: true });
      expect(c).toMatchObject({ deadline: null, orderingEnabled: true, shippingFeeCents: 700 });
      expect(await store.getEventSettings('AX2025')).toEqual(c);
      expect(await store.getEventSettings('ax2025')).toBeNull();
      const d = await store.putEventSettings('Zine Fest', { prices: { '5x7': 1000 } });
      const listed = await store.listEventSettings();
      expect(listed).toHaveLength(2);
      expect(listed).toEqual(expect.arrayContaining([c, d]));
    });

    // ------------------------------------------------------------ push subscriptions

    it('push subscriptions: upsert by endpoint and order, list by scope or order, delete by endpoint', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder());
      const base: PushSubscriptionRecord = {
        endpoint: 'https://push.example.net/send/abc?x=1',
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
        scope: 'admin',
        orderId: null,
        createdAt: '2026-07-04T10:00:00.000Z',
      };
      expect(await store.savePushSubscription(base)).toEqual({ created: true });
      const rekeyed = { ...base, auth: 'newAuthSecret', createdAt: '2026-07-05T10:00:00.000Z' };
      expect(await store.savePushSubscription(rekeyed)).toEqual({ created: false });
      const admins = await store.listPushSubscriptions({ scope: 'admin' });
      expect(admins).toHaveLength(1);
      expect(admins[0]).toMatchObject({
        endpoint: base.endpoint,
        auth: 'newAuthSecret',
        scope: 'admin',
        orderId: null,
      });

      const forOrder = { ...base, scope: 'order' as const, orderId: order.id };
      expect(await store.savePushSubscription(forOrder)).toEqual({ created: true });
      const other = { ...forOrder, endpoint: 'https://push.example.net/send/def' };
      expect(await store.savePushSubscription(other)).toEqual({ created: true });
      expect(await store.listPushSubscriptions({ orderId: order.id })).toEqual(
        expect.arrayContaining([forOrder, other]),
      );
      expect(await store.listPushSubscriptions({ orderId: order.id })).toHaveLength(2);
      expect(await store.listPushSubscriptions({ scope: 'admin' })).toHaveLength(1);
      expect(await store.listPushSubscriptions({ orderId: 'someone-else' })).toEqual([]);

      await store.deletePushSubscription(base.endpoint);
      expect(await store.listPushSubscriptions({ scope: 'admin' })).toEqual([]);
      expect(await store.listPushSubscriptions({ orderId: order.id })).toEqual([other]);
      await store.deletePushSubscription('https://push.example.net/unknown');
    });

    // ------------------------------------------------------------ idempotency

    it('idempotency: reserve once, replay the completed response, release for retry, expired keys are replaced', async (t) => {
      const store = await makeStore(t);
      const t0 = Date.parse('2030-01-01T00:00:00.000Z');
      const at = (ms: number) => new Date(t0 + ms).toISOString();
      const day = 24 * 3_600_000;

      expect(
        await store.reserveIdempotencyKey({ key: 'k1', fingerprint: 'f1', createdAt: at(0), expiresAt: at(day) }),
      ).toEqual({
        reserved: true,
      });
      const pending = await store.reserveIdempotencyKey({
        key: 'k1',
        fingerprint: 'f2',
        createdAt: at(1000),
        expiresAt: at(day + 1000),
      });
      expect(pending).toEqual({
        reserved: false,
        existing: {
          key: 'k1',
          fingerprint: 'f1',
          state: 'pending',
          statusCode: null,
          responseBody: null,
          createdAt: at(0),
          expiresAt: at(day),
        },
      });

      const body = JSON.stringify({ success: true, orderNumber: 'AX25-0001', note: 'é 😀' });
      await store.completeIdempotencyKey('k1', 201, body);
      const done = await store.reserveIdempotencyKey({
        key: 'k1',
        fingerprint: 'f1',
        createdAt: at(2000),
        expiresAt: at(day),
      });
      expect(done).toMatchObject({
        reserved: false,
        existing: { state: 'done', statusCode: 201, responseBody: body, fingerprint: 'f1' },
      });
      // a completed record is not released
      await store.releaseIdempotencyKey('k1');
      expect(
        (await store.reserveIdempotencyKey({ key: 'k1', fingerprint: 'f1', createdAt: at(3000), expiresAt: at(day) }))
          .reserved,
      ).toBe(false);

      // a failed attempt releases its reservation
      expect(
        (await store.reserveIdempotencyKey({ key: 'k2', fingerprint: 'f', createdAt: at(0), expiresAt: at(day) }))
          .reserved,
      ).toBe(true);
      await store.releaseIdempotencyKey('k2');
      expect(
        (await store.reserveIdempotencyKey({ key: 'k2', fingerprint: 'g', createdAt: at(1), expiresAt: at(day) }))
          .reserved,
      ).toBe(true);

      // past its expiry a key is free again
      expect(
        (
          await store.reserveIdempotencyKey({
            key: 'k1',
            fingerprint: 'f9',
            createdAt: at(day),
            expiresAt: at(2 * day),
          })
        ).reserved,
      ).toBe(true);
      expect(
        await store.reserveIdempotencyKey({
          key: 'k1',
          fingerprint: 'x',
          createdAt: at(day + 1),
          expiresAt: at(2 * day),
        }),
      ).toMatchObject({ reserved: false, existing: { fingerprint: 'f9', state: 'pending' } });
      await store.releaseIdempotencyKey('never-reserved');
    });

    it('idempotency: concurrent reservations of one key: exactly one wins', async (t) => {
      const store = await makeStore(t);
      const createdAt = new Date().toISOString();
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.reserveIdempotencyKey({ key: 'same-key', fingerprint: `f${i}`, createdAt, expiresAt }),
        ),
      );
      expect(results.filter((r) => r.reserved)).toHaveLength(1);
    });

    // ------------------------------------------------------------ mail outbox

    it('mail outbox: jobs enqueued with a create belong to it, are leased on claim, retried, and sent once', async (t) => {
      const store = await makeStore(t);
      const order = await store.createOrder(newOrder(), {
        mail: [mail('receipt', { copy: 'ops@example.com', n: 1 }), mail('operator')],
      });
      expect(await store.pendingMailCount()).toBe(2);

      const now = new Date(Date.now() + 1000);
      const lease = 60_000;
      const claimed = await store.claimDueMail(now, 10, lease);
      expect(claimed).toHaveLength(2);
      expect(claimed.map((j) => j.kind).sort()).toEqual(['operator', 'receipt']);
      for (const job of claimed) {
        expect(job).toMatchObject({ orderId: order.id, attempts: 0, sentAt: null, lastError: null, sentVia: null });
        expect(Date.parse(job.nextAttemptAt)).toBe(now.getTime() + lease);
      }
      expect(claimed.find((j) => j.kind === 'receipt')?.payload).toEqual({ copy: 'ops@example.com', n: 1 });

      // leased: not claimed again until the lease ends
      expect(await store.claimDueMail(now, 10, lease)).toEqual([]);
      expect(await store.claimDueMail(new Date(now.getTime() + lease - 1), 10, lease)).toEqual([]);
      const afterLease = new Date(now.getTime() + lease);
      expect(await store.claimDueMail(afterLease, 1, lease)).toHaveLength(1);
      const [second] = await store.claimDueMail(afterLease, 10, lease);
      expect(second).toBeDefined();

      // failure: scheduled for retry with the error kept
      const job = claimed[0];
      if (!job) throw new Error('no job');
      const retryAt = new Date(afterLease.getTime() + 10 * lease);
      await store.markMailFailed(job.id, 'smtp: 451 try later', retryAt);
      const early = await store.claimDueMail(new Date(retryAt.getTime() - 1), 10, lease);
      expect(early.map((j) => j.id)).not.toContain(job.id);
      const retried = await store.claimDueMail(retryAt, 10, lease);
      expect(retried.map((j) => j.id)).toContain(job.id);
      expect(retried.find((j) => j.id === job.id)).toMatchObject({ attempts: 1, lastError: 'smtp: 451 try later' });

      // sent: never claimed again
      await store.markMailSent(job.id, 'smtp', new Date());
      expect(await store.pendingMailCount()).toBe(1);
      const far = new Date(Date.now() + 365 * 86_400_000);
      const rest = await store.claimDueMail(far, 10, lease);
      expect(rest.map((j) => j.id)).not.toContain(job.id);
      expect(rest).toHaveLength(1);
    });

    it('mail outbox: concurrent claims never hand out the same job twice', async (t) => {
      const store = await makeStore(t);
      const jobs = await store.enqueueMail(
        Array.from({ length: 30 }, (_, i) => ({ kind: 'operator' as const, orderId: null, payload: { i } })),
      );
      expect(jobs).toHaveLength(30);
      expect(jobs[0]).toMatchObject({ kind: 'operator', orderId: null, payload: { i: 0 }, attempts: 0, sentAt: null });
      const now = new Date(Date.now() + 1000);
      const batches = await Promise.all(Array.from({ length: 6 }, () => store.claimDueMail(now, 7, 60_000)));
      const ids = batches.flat().map((j) => j.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    });

    it('mail outbox: atomic with the change that causes it; nothing enqueued on a failed or no-op change', async (t) => {
      const store = await makeStore(t);
      const bad = { kind: 'not-a-kind', orderId: null, payload: {} } as unknown as MailJobInput;
      await expect(store.createOrder(newOrder(), { mail: [mail('receipt'), bad] })).rejects.toThrow();
      expect(await store.listOrders({ includeHeld: true })).toEqual([]);
      expect(await store.pendingMailCount()).toBe(0);
      // the failed create did not use up a number
      const order = await store.createOrder(newOrder(), { mail: [mail('receipt')] });
      expect(order.orderNumber).toBe('AX25-0001');
      expect(await store.pendingMailCount()).toBe(1);

      const noop = await store.updateOrder(order.id, { status: 'pending' }, { mail: [mail('operator')] });
      expect(noop.changed).toBe(false);
      expect(await store.pendingMailCount()).toBe(1);
      await expectCode(
        store.setShipping(order.id, { shipped: true }, { mail: [mail('shipped')] }),
        'ORDER_NOT_SHIPPABLE',
      );
      expect(await store.pendingMailCount()).toBe(1);

      await store.updateOrder(order.id, { status: 'paid' }, { mail: [mail('operator')] });
      await store.setShipping(order.id, { shipped: true, trackingNumber: 'T' }, { mail: [mail('shipped')] });
      expect(await store.pendingMailCount()).toBe(3);
      const held = await store.createOrder(newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z' }), {
        mail: [mail('verification')],
      });
      await store.releaseHold(held.id, { mail: [mail('receipt')] });
      await store.releaseHold(held.id, { mail: [mail('receipt')] }); // no-op: no second receipt
      expect(await store.pendingMailCount()).toBe(5);
      const jobs = await store.claimDueMail(new Date(Date.now() + 1000), 10, 1000);
      expect(
        jobs
          .filter((j) => j.orderId === held.id)
          .map((j) => j.kind)
          .sort(),
      ).toEqual(['receipt', 'verification']);
      expect(
        jobs
          .filter((j) => j.orderId === order.id)
          .map((j) => j.kind)
          .sort(),
      ).toEqual(['operator', 'receipt', 'shipped']);
    });

    it('health reports ok on a working store', async (t) => {
      const store = await makeStore(t);
      expect((await store.health()).ok).toBe(true);
    });
  });
}
