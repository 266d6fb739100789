/**
 * The spreadsheet mirror's inbound side through the app (src/services/mirror): hand edits
 * reach the record through the API's rules, a cell changed on both sides ends with the
 * service's value (reported), a forbidden move is reported and undone, a sheet that holds
 * orders is imported at the first start, and rows removed or unreadable are reported.
 */
import { expect, test } from 'vitest';
import { ORDER_COLUMNS } from '../../../src/services/mirror/sheets/layout.js';
import { ADMIN_TOKEN, type TestApp } from '../../helpers/build.js';
import { mirrorSetup, until } from '../../support/mirror-fixtures.js';
import { bodyA, ordersApp } from '../../support/orders-fixtures.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function take(app: TestApp): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/orders/create', headers: admin, payload: bodyA() });
  expect(res.statusCode).toBe(201);
  return res.json().orderNumber as string;
}

const mirrorStatus = async (app: TestApp) => (await app.inject({ url: '/api/admin/mirror', headers: admin })).json();

test('a hand edit and an API change to the same order in one interval: the hand edit of another cell is applied, the cell changed on both sides keeps the service value and is reported', async (t) => {
  const m = await mirrorSetup(t);
  const app = await ordersApp(t, { env: m.env }); // the sheet is read for hand edits only when an update goes out
  const number = await take(app);
  await until(() => m.rows().length === 1, 5000, 'row');
  // Both cells edited by hand; then the service changes one of them before the mirror reads.
  m.emu.setValues(m.sheetId, "'Orders'!C2:D2", [['Hand Name', 'hand@example.com']]);
  const put = await app.inject({
    method: 'PUT',
    url: `/api/orders/${number}`,
    headers: admin,
    payload: { customerName: 'Api Name' },
  });
  expect(put.statusCode).toBe(200);
  await until(() => m.rows()[0]?.customerName === 'Api Name', 5000, 'service value written back');
  await until(
    async () => (await app.store.orders.get(number))?.customerEmail === 'hand@example.com',
    5000,
    'hand edit',
  );
  const order = await app.store.orders.get(number);
  expect(order).toMatchObject({ customerName: 'Api Name', customerEmail: 'hand@example.com' });
  expect(order?.history.at(-1)).toMatchObject({ action: 'edit', field: 'customerEmail', by: 'sheet' });
  expect(m.rows()[0]).toMatchObject({ customerName: 'Api Name', customerEmail: 'hand@example.com' });
  const status = await mirrorStatus(app);
  expect(status.conflicts).toHaveLength(1);
  expect(status.conflicts[0]).toMatchObject({ orderNumber: number, sheetRow: 2 });
  expect(status.conflicts[0].message).toMatch(/customerName.*Hand Name.*Api Name.*service's value was kept/);
});

test('hand edits of status, tracking and items go through the rules; a forbidden move is reported, not applied, and undone in the sheet', async (t) => {
  const m = await mirrorSetup(t);
  const app = await ordersApp(t, { env: { ...m.env, ORDER_CACHE_TTL_MS: '200' } });
  const a = await take(app);
  const b = await take(app);
  await until(() => m.rows().length === 2, 5000, 'rows');
  // allowed: pending → Paid (as typed), and items corrected
  m.emu.setValues(m.sheetId, "'Orders'!O2", [['Paid']]);
  m.emu.setValues(m.sheetId, "'Orders'!K3", [['Photo #1 (4x6) x3 = $15.00']]);
  await until(async () => (await app.store.orders.get(a))?.status === 'paid', 5000, 'status applied');
  await until(async () => (await app.store.orders.get(b))?.items[0]?.quantity === 3, 5000, 'items applied');
  const edited = await app.store.orders.get(b);
  expect(edited).toMatchObject({ subtotalCents: 1500, totalCents: 1500 });
  await until(() => m.rows()[0]?.status === 'paid' && m.rows()[1]?.total === '$15.00', 5000, 'derived cells written');

  // forbidden: paid → pending
  m.emu.setValues(m.sheetId, "'Orders'!O2", [['pending']]);
  await until(async () => (await mirrorStatus(app)).rejected.length === 1, 5000, 'reported');
  const rejected = (await mirrorStatus(app)).rejected[0];
  expect(rejected).toMatchObject({ orderNumber: a, sheetRow: 2 });
  expect(rejected.message).toMatch(/paid cannot become pending/);
  expect((await app.store.orders.get(a))?.status).toBe('paid');
  await until(() => m.rows()[0]?.status === 'paid', 5000, 'undone in the sheet');
  // a tracking number on an order that is not paid: refused the same way
  m.emu.setValues(m.sheetId, "'Orders'!T3", [['1Z999']]);
  await until(async () => (await mirrorStatus(app)).rejected.length === 2, 5000, 'second reported');
  expect((await mirrorStatus(app)).rejected[0].message).toMatch(/pickup|paid/);
  expect((await app.store.orders.get(b))?.trackingNumber).toBe('');
  await until(() => m.rows()[1]?.trackingNumber === '', 5000, 'tracking undone');
});

const header = [...ORDER_COLUMNS];
function row(cells: Partial<Record<(typeof ORDER_COLUMNS)[number], string>>): string[] {
  return ORDER_COLUMNS.map((k) => cells[k] ?? '');
}
const base = {
  createdAt: '2026-07-03T10:00:00.000Z',
  customerName: 'Grace Hopper',
  customerEmail: 'grace@example.com',
  fulfillmentType: 'pickup',
  items: 'Photo #1 (4x6) x1 = $5.00',
  subtotal: '$5.00',
  shippingFee: '$0.00',
  total: '$5.00',
  status: 'paid',
  shippingStatus: 'pickup',
  eventSlug: 'Anime Expo',
};

test('first start against a sheet with orders imports them, numbering continues after them, a row typed in without an id gets one, an unreadable row is reported and left alone', async (t) => {
  const m = await mirrorSetup(t);
  const id = '7d0c5b7e-8d4f-4f43-9c55-3d1f2a9a0b11';
  m.emu.setValues(
    m.sheetId,
    "'Orders'!A1:Z4",
    [
      header,
      row({ ...base, orderNumber: 'AX26-0041', id }),
      row({ ...base, orderNumber: 'AX26-0042', customerName: 'Typed In' }),
      row({ orderNumber: 'AX26-0040', customerName: 'No items', status: 'paid', id: 'x-1', createdAt: base.createdAt }),
    ],
    'RAW',
  );
  const app = await ordersApp(t, { env: m.env });
  expect(await app.store.orders.get('AX26-0041')).toMatchObject({ id, status: 'paid', customerName: 'Grace Hopper' });
  const typed = await app.store.orders.get('AX26-0042');
  expect(typed?.customerName).toBe('Typed In');
  expect(await app.store.orders.get('AX26-0040')).toBeNull();
  // Numbering continues after the highest imported (the unreadable row's number is not taken by the record).
  expect(await take(app)).toBe('AX26-0043');
  await until(() => m.rows().length === 4, 5000, 'new row');
  expect(m.rows()[1]?.id).toBe(typed?.id);
  expect(m.rows()[2]).toMatchObject({ orderNumber: 'AX26-0040', id: 'x-1', customerName: 'No items', items: '' });
  const status = await mirrorStatus(app);
  expect(status.importedAt).not.toBeNull();
  expect(status.unreadable).toHaveLength(1);
  expect(status.unreadable[0]).toMatchObject({ sheetRow: 4 });
  expect(status.unreadable[0].message).toMatch(/items is empty/);
});

test('a row removed by hand is reported; the order is kept and not appended again when it changes', async (t) => {
  const m = await mirrorSetup(t);
  const app = await ordersApp(t, { env: { ...m.env, ORDER_CACHE_TTL_MS: '200' } });
  const a = await take(app);
  await take(app);
  await until(() => m.rows().length === 2, 5000, 'rows');
  m.emu.deleteRows(m.sheetId, 'Orders', 2);
  await until(async () => (await mirrorStatus(app)).removed.length === 1, 5000, 'reported');
  expect((await mirrorStatus(app)).removed[0]).toMatchObject({ orderNumber: a });
  const res = await app.inject({
    method: 'POST',
    url: `/api/orders/${a}/update-status`,
    headers: admin,
    payload: { status: 'paid' },
  });
  expect(res.statusCode).toBe(200);
  // Passes run one at a time, each stamping lastSyncAt as it ends: of two passes that ended
  // after the change, the second began after it, so it had the change to write (or not).
  const changedAt = new Date().toISOString();
  const passesSince = new Set<string>();
  await until(
    async () => {
      const at: string | null = (await mirrorStatus(app)).lastSyncAt;
      if (at && at > changedAt) passesSince.add(at);
      return passesSince.size >= 2;
    },
    5000,
    'a mirror pass after the change',
  );
  expect(m.rows().map((r) => r.orderNumber)).toEqual(['AX26-0002']);
  expect((await app.store.orders.get(a))?.status).toBe('paid');
  expect((await mirrorStatus(app)).pending).toBe(0);
});
