/**
 * `GET /api/orders/export.csv`: a UTF-8 CSV with a byte order mark and the sheet's column
 * names, one row per order, oldest first, filtered by event, dates and status, and safe
 * against formula injection; read back with an RFC 4180 parser written for the test.
 */
import { describe, expect, test } from 'vitest';
import { csvCell } from '../../../src/lib/csv.js';
import { SHEET_COLUMNS_A_TO_U } from '../../support/mirror-fixtures.js';
import { AX, appWithEvents, BX, call, expectError, orderIn } from '../admin/fixtures.js';

// The sheet's A–U, then selling's (docs/contract.md, "Selling"): what each order was given off.
const HEADER = [...SHEET_COLUMNS_A_TO_U, 'couponCode', 'discount'];

/** RFC 4180: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the last row has no CRLF');
  return rows;
}

async function exported(app: Parameters<typeof call>[0], query = '') {
  const res = await call(app, { url: `/api/orders/export.csv${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const bytes = res.rawPayload;
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString('utf8'));
  expect(rows[0]).toEqual(HEADER);
  return { res, rows: rows.slice(1).map((r) => Object.fromEntries(HEADER.map((h, i) => [h, r[i]]))) };
}

describe('GET /api/orders/export.csv', () => {
  test('every order, oldest first, with the same cell texts as the sheet', async (t) => {
    const app = await appWithEvents(t);
    const a = await orderIn(app, 'paid', { customerName: 'Ada, Countess of Lovelace' });
    const b = await orderIn(app, 'pending', { eventSlug: BX, prefix: 'BX24' });
    await app.store.orders.appendFeedback(a.id, 'Lovely "glossy" prints\nThank you', new Date('2026-07-04T10:00:00Z'), {
      by: 'customer',
      proof: 'email',
    });
    const { res, rows } = await exported(app);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="orders-all.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(rows.map((r) => r.orderNumber)).toEqual([a.orderNumber, b.orderNumber]);
    expect(rows[0]).toMatchObject({
      customerName: 'Ada, Countess of Lovelace',
      items: 'Photo #12 (4x6) x2 = $10.00; Photo #0007 (8x10) x1 = $20.00',
      subtotal: '$30.00',
      shippingFee: '$5.00',
      total: '$35.00',
      status: 'paid',
      shippingStatus: 'ship',
      id: a.id,
      eventSlug: AX,
      createdAt: a.createdAt,
    });
    expect(rows[0]?.feedback).toBe('[2026-07-04T10:00:00.000Z] Lovely "glossy" prints\nThank you');
    expect(rows[0]).toMatchObject({ couponCode: '', discount: '$0.00' });
  });

  test("an order's coupon and discount are in the export, next to its total", async (t) => {
    const app = await appWithEvents(t);
    await app.store.coupons.create({
      code: 'SUMMER5',
      eventSlug: null,
      kind: 'amount',
      value: 500,
      expiresAt: null,
      maxUses: null,
      minSubtotalCents: 0,
      createdAt: new Date().toISOString(),
    });
    // $30.00 of prints, $5.00 off, $5.00 shipping.
    await orderIn(app, 'paid', { couponCode: 'SUMMER5', discountCents: 500, totalCents: 3000 });
    const { rows } = await exported(app);
    expect(rows[0]).toMatchObject({ subtotal: '$30.00', total: '$30.00', couponCode: 'SUMMER5', discount: '$5.00' });
  });

  test('a cell that a spreadsheet would run as a formula starts with a quote mark', async (t) => {
    const app = await appWithEvents(t);
    await orderIn(app, 'pending', {
      customerName: '=HYPERLINK("http://evil.example","click")',
      customerPhone: '+1 555 010 0000',
      shippingAddress: '@SUM(A1:A9)',
      city: '-2+3',
    });
    const { rows } = await exported(app);
    expect(rows[0]).toMatchObject({
      customerName: `'=HYPERLINK("http://evil.example","click")`,
      customerPhone: "'+1 555 010 0000",
      shippingAddress: "'@SUM(A1:A9)",
      city: "'-2+3",
    });
    // Tab and carriage return lead too; plain text is left alone.
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('Jane')).toBe('Jane');
  });

  test('filters: event, statuses (comma-separated) and dates (days in UTC, or instants)', async (t) => {
    const app = await appWithEvents(t);
    const paid = await orderIn(app, 'paid');
    const pending = await orderIn(app, 'pending');
    const cancelled = await orderIn(app, 'cancelled');
    const other = await orderIn(app, 'paid', { eventSlug: BX, prefix: 'BX24' });
    const numbers = async (q: string) => (await exported(app, q)).rows.map((r) => r.orderNumber);

    expect(await numbers(`?eventSlug=${AX}`)).toEqual([paid, pending, cancelled].map((o) => o.orderNumber));
    expect(await numbers('?status=paid')).toEqual([paid.orderNumber, other.orderNumber]);
    expect(await numbers(`?status=pending,cancelled&eventSlug=${AX}`)).toEqual([
      pending.orderNumber,
      cancelled.orderNumber,
    ]);
    const today = paid.createdAt.slice(0, 10);
    expect(await numbers(`?from=${today}&to=${today}`)).toHaveLength(4);
    expect(await numbers('?to=2000-01-01')).toEqual([]);
    expect(await numbers(`?from=${encodeURIComponent(pending.createdAt)}&eventSlug=${AX}`)).toEqual([
      pending.orderNumber,
      cancelled.orderNumber,
    ]);
    const res = await call(app, { url: `/api/orders/export.csv?eventSlug=${encodeURIComponent(BX)}&from=${today}` });
    expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-Bench-Expo-${today}.csv"`);
  });

  test('held orders are not in it; bad filters are 400; admin only', async (t) => {
    const app = await appWithEvents(t);
    await orderIn(app, 'pending', { held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await exported(app)).rows).toEqual([]);
    for (const q of ['?status=shipped', '?status=', '?from=yesterday', '?from=2026-07-05&to=2026-07-04']) {
      expectError(await call(app, { url: `/api/orders/export.csv${q}` }), 400, 'VALIDATION_FAILED');
    }
    expectError(await call(app, { url: '/api/orders/export.csv', admin: false }), 401, 'UNAUTHORIZED');
  });
});
