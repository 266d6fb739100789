/**
 * Selling with the spreadsheet mirror on, on both engines (docs/contract.md, "Selling" and
 * "System of record and the spreadsheet mirror"): an order with a package and a coupon is
 * written to the sheet with its coupon, discount and total; a hand edit of another cell keeps
 * the discount; a hand edit that cancels the order gives the coupon's use back, as the API's
 * cancel does.
 */
import { expect, test } from 'vitest';
import { ORDER_COLUMNS } from '../../../src/services/mirror/sheets/layout.js';
import { adminHeaders } from '../../helpers/build.js';
import { describeOnAppEngines } from '../../support/app-engines.js';
import { mirrorSetup, until } from '../../support/mirror-fixtures.js';
import { EVENT } from '../../support/orders-fixtures.js';
import { sellingApp } from '../../support/selling-fixtures.js';
import { columnLetters } from '../../support/sheets-a1.js';

const cell = (key: (typeof ORDER_COLUMNS)[number], row: number) =>
  `'Orders'!${columnLetters(ORDER_COLUMNS.indexOf(key))}${row}`;

describeOnAppEngines('selling with the spreadsheet mirror', (storeEnv) => {
  test('coupon, package and discount reach the sheet; a hand edit keeps the discount; a hand cancel gives the use back', {
    timeout: 90_000,
  }, async (t) => {
    const m = await mirrorSetup(t);
    // The sheet is read for hand edits when the orders cache runs out (200 ms here).
    const app = await sellingApp(t, {
      env: { ...(await storeEnv(t)), ...m.env, ORDER_CACHE_TTL_MS: '200' },
      earlyBird: false,
    });
    const made = await app.inject({
      method: 'POST',
      url: '/api/coupons',
      headers: adminHeaders,
      payload: { code: 'MIRROR5', kind: 'amount', value: 5, maxUses: 1 },
    });
    expect(made.statusCode).toBe(201);

    // Five 4x6 ($25.00) are the $20.00 package; the coupon takes $5.00 more; picked up.
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: {
        eventSlug: EVENT,
        photos: [{ number: '1', size: '4x6', quantity: 5 }],
        couponCode: 'mirror5',
        customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ total: '$15.00' });
    const orderNumber = res.json().orderNumber as string;
    const placed = await app.inject({ url: `/api/orders/${orderNumber}`, headers: adminHeaders });
    expect(placed.json()).toMatchObject({ subtotal: '$25.00', discount: '$10.00', couponCode: 'MIRROR5' });

    await until(() => m.rows()[0]?.orderNumber === orderNumber, 20_000, 'the order in the sheet');
    expect(m.rows()[0]).toMatchObject({
      subtotal: '$25.00',
      total: '$15.00',
      couponCode: 'MIRROR5',
      discount: '$10.00',
      payment: '',
    });

    // A hand edit of the name: applied, and the order keeps its coupon and discount.
    m.emu.setValues(m.sheetId, cell('customerName', 2), [['Ada King']]);
    await until(
      async () => (await app.store.orders.get(orderNumber))?.customerName === 'Ada King',
      20_000,
      'the name edited by hand',
    );
    const edited = await app.inject({ url: `/api/orders/${orderNumber}`, headers: adminHeaders });
    expect(edited.json()).toMatchObject({ couponCode: 'MIRROR5', discount: '$10.00', total: '$15.00' });

    const uses = async () =>
      (await app.inject({ url: '/api/coupons', headers: adminHeaders })).json().coupons[0].uses as number;
    expect(await uses()).toBe(1);

    // Cancelled by hand in the sheet: the use comes back and another order may take it.
    m.emu.setValues(m.sheetId, cell('status', 2), [['Cancelled']]);
    await until(
      async () => (await app.store.orders.get(orderNumber))?.status === 'cancelled',
      20_000,
      'the cancel made by hand',
    );
    expect(await uses()).toBe(0);
    const again = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: {
        eventSlug: EVENT,
        photos: ['2'],
        couponCode: 'MIRROR5',
        customerInfo: { name: 'Grace Hopper', email: 'grace@example.com' },
      },
    });
    expect(again.statusCode).toBe(201);
    expect(await uses()).toBe(1);
    await until(() => m.rows()[1]?.couponCode === 'MIRROR5', 20_000, 'the second order in the sheet');
    expect(m.rows()[0]).toMatchObject({ status: 'cancelled', discount: '$10.00' });
  });
});
