/**
 * The Orders tab layout the spreadsheet mirror uses (src/services/mirror/sheets/layout.ts) and its
 * A1 helpers: rows round-trip, hand-typed rows read leniently, broken rows are explained.
 */
import { describe, expect, test } from 'vitest';
import { buildNewOrder } from '../../../src/domain/order-changes.js';
import {
  columnLetter,
  columnsRange,
  quoteSheet,
  rowRange,
  rowsOfRange,
} from '../../../src/services/mirror/sheets/a1.js';
import { ColumnMap, ORDER_COLUMNS, type RowCells } from '../../../src/services/mirror/sheets/layout.js';
import { changedKeys, toCells } from '../../../src/services/mirror/sheets/row-cells.js';
import { orderNumberParts, parseRow } from '../../../src/services/mirror/sheets/row-read.js';
import { SHEET_COLUMNS_A_TO_U } from '../../support/mirror-fixtures.js';
import { newOrder } from '../../support/store-fixtures.js';

// A row carries no history (the record keeps it).
const order = {
  ...buildNewOrder(
    newOrder({ held: true, holdExpiresAt: '2030-01-01T00:00:00.000Z' }),
    7,
    new Date(),
    '00000000-0000-4000-8000-000000000007',
    'customer',
  ),
  history: [],
};

function cells(over: Partial<RowCells> = {}): RowCells {
  return { ...toCells(order), ...over };
}

describe('Sheets layout', () => {
  test('a row round-trips to the same record, through the column map as an array', () => {
    const map = ColumnMap.standard();
    const array = map.toArray(toCells(order));
    expect(array).toHaveLength(31);
    expect(array[0]).toBe('AX25-0007');
    expect(parseRow(map.fromArray(array))).toEqual({ ok: true, order });
  });

  test('fulfilment columns come after the rest (AA pickupStatus, AB printed lines); A–U never move', () => {
    expect(ORDER_COLUMNS.slice(0, 21)).toEqual(SHEET_COLUMNS_A_TO_U);
    expect(columnLetter(ORDER_COLUMNS.indexOf('pickupStatus'))).toBe('AA');
    expect(columnLetter(ORDER_COLUMNS.indexOf('printed'))).toBe('AB');
    const pickup = buildNewOrder(
      newOrder({
        fulfillmentType: 'pickup',
        items: [
          { photoNumber: '1', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 },
          { photoNumber: '2', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
        ],
      }),
      8,
      new Date(),
      '00000000-0000-4000-8000-000000000008',
      'customer',
    );
    const at = new Date().toISOString();
    const marked = { ...pickup, pickupStatus: 'ready' as const, printed: [{ line: 1, at, by: 'admin' as const }] };
    expect(toCells(marked)).toMatchObject({ pickupStatus: 'ready', printed: '1/2' });
    expect(toCells(order)).toMatchObject({ pickupStatus: '', printed: `0/${order.items.length}` });
    const back = parseRow({ ...toCells(marked), pickupStatus: ' Collected ' });
    expect(back.ok && back.order.pickupStatus).toBe('collected');
    expect(parseRow({ ...toCells(marked), pickupStatus: 'lost' })).toMatchObject({ ok: false });
  });

  test('printed counts only the lines to print: digital downloads are never printed', () => {
    const at = new Date().toISOString();
    const lines = [
      { photoNumber: '1', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 },
      { photoNumber: '2', size: 'digital', quantity: 1, unitCents: 800, lineCents: 800 },
      { photoNumber: '3', size: '5x7', quantity: 1, unitCents: 900, lineCents: 900 },
    ];
    const mixed = buildNewOrder(
      newOrder({ items: lines }),
      9,
      new Date(),
      '00000000-0000-4000-8000-000000000009',
      'customer',
    );
    expect(toCells(mixed).printed).toBe('0/2');
    expect(toCells({ ...mixed, printed: [{ line: 0, at, by: 'admin' as const }] }).printed).toBe('1/2');
    const digitalOnly = buildNewOrder(
      newOrder({ items: [lines[1] as (typeof lines)[number]] }),
      10,
      new Date(),
      '00000000-0000-4000-8000-000000000010',
      'customer',
    );
    expect(toCells(digitalOnly).printed).toBe('');
    // the cell is the record's summary only: reading it back changes nothing
    const back = parseRow(toCells(digitalOnly));
    expect(back.ok && back.order.printed).toEqual([]);
  });

  test("selling's block after fulfilment's (AC–AE): coupon, discount and checkout round-trip; A–AB stay where they were", () => {
    const map = ColumnMap.standard();
    expect([map.index.updatedAt, map.index.itemsJson]).toEqual([20, 25]);
    expect([map.index.couponCode, map.index.discount, map.index.payment]).toEqual([28, 29, 30]);
    const sold = {
      ...order,
      discountCents: 250,
      totalCents: order.totalCents - 250,
      couponCode: 'SUMMER',
      payment: { provider: 'stripe' as const, sessionId: 'cs_1', url: 'https://pay.example/cs_1' },
    };
    const array = map.toArray(toCells(sold));
    expect(array.slice(28)).toEqual(['SUMMER', '$2.50', JSON.stringify(sold.payment)]);
    expect(parseRow(map.fromArray(array))).toEqual({ ok: true, order: sold });
    // A row from before the block: the discount its figures imply, no coupon, no checkout.
    const old = parseRow(map.fromArray(array.slice(0, 28)));
    expect(old).toMatchObject({ ok: true, order: { discountCents: 250, couponCode: null, payment: null } });
  });

  test('missing trailing cells (V–Z) take defaults; items come from column K', () => {
    const map = ColumnMap.standard();
    const short = map.toArray(toCells(order)).slice(0, 21);
    const parsed = parseRow(map.fromArray(short));
    expect(parsed).toEqual({
      ok: true,
      order: { ...order, held: false, holdExpiresAt: null, addressVerified: null, channel: 'web' },
    });
  });

  test.for([
    [{ id: ' ' }, 'id is empty'],
    [{ status: '' }, 'status is empty'],
    [{ status: 'shipped' }, 'status "shipped" is not known'],
    [{ createdAt: 'yesterday-ish' }, 'createdAt "yesterday-ish" is not a date'],
    [{ total: 'ten dollars' }, 'total "ten dollars" is not an amount'],
    [{ held: 'perhaps' }, 'held "perhaps" is not TRUE or FALSE'],
    [{ items: 'Photo #1 (4x6) x1', itemsJson: '' }, 'items line "Photo #1" has no amount'],
    [{ items: '', itemsJson: '' }, 'items is empty'],
    [{ orderNumber: 'nonsense' }, 'orderNumber: Invalid string: must match pattern /^[A-Z0-9]{1,8}-\\d{4,}$/'],
    [{ fulfillmentType: 'courier' }, 'fulfillmentType: Invalid option: expected one of "ship"|"pickup"|"digital"'],
  ] as [Partial<RowCells>, string][])('unreadable: %o → %s', ([over, reason]) => {
    expect(parseRow(cells(over))).toEqual({ ok: false, reason });
  });

  test('lenient where the value is clear', () => {
    const parsed = parseRow(
      cells({
        status: ' Refunded ',
        shippingStatus: 'SHIPPED',
        orderNumber: ' ax25-0007 ',
        held: 'no',
        addressVerified: 'yes',
        subtotal: '1,030.00',
        shippingFee: '',
        total: '$1,040',
        items: 'Photo #1 (4x6) x2 = $1030',
        itemsJson: 'not json',
        updatedAt: '',
      }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      order: {
        status: 'void',
        shippingStatus: 'shipped',
        orderNumber: 'AX25-0007',
        held: false,
        addressVerified: true,
        subtotalCents: 103_000,
        shippingFeeCents: 1000,
        totalCents: 104_000,
        items: [{ photoNumber: '1', size: '4x6', quantity: 2, unitCents: 51_500, lineCents: 103_000 }],
        updatedAt: order.createdAt,
      },
    });
  });

  test('only changed cells are listed for an update', () => {
    const next = { ...order, status: 'paid' as const, updatedAt: '2031-01-01T00:00:00.000Z' };
    expect(changedKeys(order, next)).toEqual(['status', 'updatedAt']);
  });

  test('a header is mapped by name, whatever the case and spacing; missing columns go at its end', () => {
    const { map, added } = ColumnMap.fromHeader(['Notes', 'ORDER NUMBER', 'created_at', '', 'id']);
    expect(map.index.orderNumber).toBe(1);
    expect(map.index.createdAt).toBe(2);
    expect(map.index.id).toBe(4);
    expect(added[0]).toEqual({ key: 'customerName', index: 5 });
    expect(added).toHaveLength(ORDER_COLUMNS.length - 3);
    expect(map.first).toBe(1);
    expect(map.runs(['id', 'orderNumber', 'createdAt', 'customerName'])).toEqual([
      { from: 1, to: 2, keys: ['orderNumber', 'createdAt'] },
      { from: 4, to: 5, keys: ['id', 'customerName'] },
    ]);
  });

  test('order numbers give prefix and sequence, even from rows that are otherwise unreadable', () => {
    expect(orderNumberParts(' ax25-0042 ')).toEqual({ prefix: 'AX25', sequence: 42 });
    expect(orderNumberParts('AX25-12345')).toEqual({ prefix: 'AX25', sequence: 12345 });
    expect(orderNumberParts('AX25')).toBeNull();
  });

  test('A1 helpers quote every sheet name and read answered ranges', () => {
    expect(columnLetter(0)).toBe('A');
    expect(columnLetter(25)).toBe('Z');
    expect(columnLetter(26)).toBe('AA');
    expect(columnLetter(701)).toBe('ZZ');
    expect(quoteSheet("Kim's")).toBe("'Kim''s'");
    expect(rowRange('Orders', 5, 0, 25)).toBe("'Orders'!A5:Z5");
    expect(columnsRange('My Orders', 17, 17)).toBe("'My Orders'!R:R");
    expect(rowsOfRange("'My Orders'!A7:Z9")).toEqual({ first: 7, last: 9 });
    expect(rowsOfRange('Orders!A12')).toEqual({ first: 12, last: 12 });
    expect(rowsOfRange('Orders!A:Z')).toBeNull();
  });
});
