/**
 * The coupons port's conformance suite (src/services/store/ports/coupons.ts), on SQLite and
 * on PostgreSQL, with the uses the orders port counts in the order's transaction: taken on
 * create, never past `maxUses` under concurrency (also from a second process), given back by
 * a void or cancelled order, and a refused create writes nothing.
 */
import { expect, test } from 'vitest';
import type { CouponRecord } from '../../../../src/domain/coupons.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';
import { ADMIN, newOrder } from '../../../support/store-fixtures.js';

const coupon = (over: Partial<Omit<CouponRecord, 'uses'>> = {}): Omit<CouponRecord, 'uses'> => ({
  code: 'SAVE10',
  eventSlug: null,
  kind: 'percent',
  value: 10,
  expiresAt: null,
  maxUses: null,
  minSubtotalCents: 0,
  createdAt: '2026-05-01T10:00:00.000Z',
  ...over,
});

/** A new order that used the coupon (10 % of $30.00 off). */
const withCoupon = (code: string) => newOrder({ couponCode: code, discountCents: 300, totalCents: 3200 });

describeOnEngines('coupons port', (open) => {
  test('create, get in any case, list newest first, delete; a taken code is 409 COUPON_EXISTS', async (t) => {
    const { coupons } = await open(t);
    const made = await coupons.create(
      coupon({ expiresAt: '2026-06-01T00:00:00Z', maxUses: 3, eventSlug: 'AX2025', minSubtotalCents: 1500 }),
    );
    expect(made).toEqual({
      ...coupon({ expiresAt: '2026-06-01T00:00:00.000Z', maxUses: 3, eventSlug: 'AX2025', minSubtotalCents: 1500 }),
      uses: 0,
    });
    await coupons.create(
      coupon({ code: 'FREESHIP', kind: 'freeShipping', value: null, createdAt: '2026-05-02T00:00:00.000Z' }),
    );
    expect(await coupons.get('save10')).toEqual(made);
    expect((await coupons.list()).map((c) => c.code)).toEqual(['FREESHIP', 'SAVE10']);
    await expect(coupons.create(coupon())).rejects.toMatchObject({ code: 'COUPON_EXISTS', statusCode: 409 });
    expect(await coupons.delete('Save10')).toBe(true);
    expect(await coupons.delete('SAVE10')).toBe(false);
    expect(await coupons.get('SAVE10')).toBeNull();
  });

  test('an order with a coupon takes a use; void and cancelled give it back, paid keeps it', async (t) => {
    const { coupons, orders } = await open(t);
    await coupons.create(coupon({ maxUses: 2 }));
    const a = await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    expect(a).toMatchObject({ couponCode: 'SAVE10', discountCents: 300, totalCents: 3200 });
    expect(await orders.get(a.id)).toMatchObject({ couponCode: 'SAVE10', discountCents: 300 });
    const b = await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    expect((await coupons.get('SAVE10'))?.uses).toBe(2);
    await expect(orders.create(withCoupon('SAVE10'), { by: 'customer' })).rejects.toMatchObject({
      code: 'COUPON_INVALID',
      details: JSON.stringify({ couponCode: 'SAVE10', reason: 'exhausted' }),
    });
    // Nothing of the refused create was written, nor a number used.
    expect(await orders.list()).toHaveLength(2);
    await orders.update(a.id, { status: 'paid' }, { by: ADMIN });
    expect((await coupons.get('SAVE10'))?.uses).toBe(2);
    await orders.update(a.id, { status: 'void' }, { by: ADMIN });
    expect((await coupons.get('SAVE10'))?.uses).toBe(1);
    // Setting the terminal status again gives nothing back twice.
    await orders.update(a.id, { status: 'void' }, { by: ADMIN });
    expect((await coupons.get('SAVE10'))?.uses).toBe(1);
    await orders.update(b.id, { status: 'cancelled' }, { by: ADMIN });
    expect((await coupons.get('SAVE10'))?.uses).toBe(0);
    const c = await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    expect(c.orderNumber).toBe('AX25-0003');
  });

  test('round 2: a held order takes its use when confirmed, not before; a lapsed hold gives nothing back', async (t) => {
    const { coupons, orders } = await open(t);
    await coupons.create(coupon({ maxUses: 1 }));
    const held = (expiresInMs: number) =>
      orders.create(
        { ...withCoupon('SAVE10'), held: true, holdExpiresAt: new Date(Date.now() + expiresInMs).toISOString() },
        { by: 'customer' },
      );
    // Two holds on a one-use coupon: both placed, nothing taken.
    const first = await held(3_600_000);
    const lapsing = await held(-1000);
    expect((await coupons.get('SAVE10'))?.uses).toBe(0);
    expect((await orders.expireHolds(new Date())).map((o) => o.id)).toEqual([lapsing.id]);
    expect((await coupons.get('SAVE10'))?.uses).toBe(0);
    // Meanwhile an order takes the only use: the confirmation is refused, the order stays held.
    const other = await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    await expect(orders.releaseHold(first.id, { by: 'customer' })).rejects.toMatchObject({
      code: 'COUPON_INVALID',
      details: JSON.stringify({ couponCode: 'SAVE10', reason: 'exhausted' }),
    });
    expect(await orders.get(first.id)).toMatchObject({ held: true, version: first.version });
    // The use comes back: the confirmation takes it.
    await orders.update(other.id, { status: 'cancelled' }, { by: ADMIN });
    expect((await orders.releaseHold(first.id, { by: 'customer' })).order.held).toBe(false);
    expect((await coupons.get('SAVE10'))?.uses).toBe(1);
  });

  test('an unknown or deleted code refuses the create as unknown; orders that used a deleted coupon keep it', async (t) => {
    const { coupons, orders } = await open(t);
    await expect(orders.create(withCoupon('NOPE'), { by: 'customer' })).rejects.toMatchObject({
      code: 'COUPON_INVALID',
      details: JSON.stringify({ couponCode: 'NOPE', reason: 'unknown' }),
    });
    await coupons.create(coupon());
    const a = await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    await coupons.delete('SAVE10');
    await orders.update(a.id, { status: 'void' }, { by: ADMIN });
    expect(await orders.get(a.id)).toMatchObject({ couponCode: 'SAVE10', discountCents: 300, status: 'void' });
    expect(await coupons.get('SAVE10')).toBeNull();
  });

  test('50 concurrent orders for the last 5 uses: exactly 5 are taken, the others refused as exhausted', async (t) => {
    const { coupons, orders } = await open(t);
    await coupons.create(coupon({ maxUses: 8 }));
    for (let i = 0; i < 3; i++) await orders.create(withCoupon('SAVE10'), { by: 'customer' });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => orders.create(withCoupon('SAVE10'), { by: 'customer' })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(5);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'COUPON_INVALID' });
    }
    expect((await coupons.get('SAVE10'))?.uses).toBe(8);
    // The winners are numbered on without gaps.
    expect((await orders.list()).map((o) => o.orderNumber).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `AX25-${String(i + 1).padStart(4, '0')}`),
    );
  });

  test('two stores on one database (two processes) racing for the last 5 uses take exactly 5', async (t) => {
    const a = await open(t);
    await a.coupons.create(coupon({ maxUses: 5 }));
    const b = await reopenStore(t, a);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).orders.create(withCoupon('SAVE10'), { by: 'customer' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await b.coupons.get('SAVE10'))?.uses).toBe(5);
    expect(await a.orders.list()).toHaveLength(5);
  });
});
