/**
 * The Google Sheets adapter against the Sheets v4 emulator, through the real googleapis
 * client: the shared conformance suite, then what is particular to a spreadsheet (layout,
 * RAW writes, hand-edited rows, quota, faults, start-up errors).
 */
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatItems } from '../../../src/domain/items.js';
import type { OrderRecord } from '../../../src/domain/order.js';
import type { MailJobInput } from '../../../src/services/store/port.js';
import { ORDER_COLUMNS } from '../../../src/services/store/sheets/layout.js';
import { build, tempDir } from '../../helpers/build.js';
import { writeServiceAccount } from '../../support/sheets-credentials.js';
import { startSheetsEmulator } from '../../support/sheets-emulator.js';
import { QUICK_RETRY, recordingLogger, sheetsFixture } from '../../support/sheets-fixture.js';
import { newOrder } from '../../support/store-fixtures.js';
import { describeStoreConformance } from './conformance.js';

describeStoreConformance('sheets', async (t) => (await sheetsFixture(t)).store, { timeout: 60_000 });

const HEADER = [...ORDER_COLUMNS];
const col = (key: (typeof ORDER_COLUMNS)[number]) => String.fromCharCode(65 + ORDER_COLUMNS.indexOf(key));
const receipt: MailJobInput = { kind: 'receipt', orderId: null, payload: {} };

/** The ids in column R of the emulator's Orders tab, header excluded. */
function idsInSheet(emu: { getValues(id: string, range: string): unknown[][] }, spreadsheetId: string): string[] {
  return emu
    .getValues(spreadsheetId, "'Orders'!R2:R")
    .map((r) => String(r[0] ?? ''))
    .filter(Boolean);
}

async function expectCode(p: Promise<unknown>, code: string) {
  await expect(p).rejects.toMatchObject({ name: 'AppError', code });
}

describe('Google Sheets store: layout', () => {
  test('adds the Orders tab, writes the header row, and lays an order out as SPEC §10 says', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    expect(emu.sheetTitles(spreadsheetId)).toEqual(['Sheet1', 'Orders']);
    expect(emu.getValues(spreadsheetId, "'Orders'!1:1")).toEqual([HEADER]);
    expect(HEADER.slice(0, 21)).toEqual([
      'orderNumber',
      'createdAt',
      'customerName',
      'customerEmail',
      'customerPhone',
      'fulfillmentType',
      'shippingAddress',
      'city',
      'state',
      'zipCode',
      'items',
      'subtotal',
      'shippingFee',
      'total',
      'status',
      'shippingStatus',
      'feedback',
      'id',
      'eventSlug',
      'trackingNumber',
      'updatedAt',
    ]);

    const o = await store.createOrder(newOrder({ addressVerified: null }));
    const [row] = emu.getValues(spreadsheetId, "'Orders'!A2:Z2", 'FORMATTED_VALUE');
    expect(row).toEqual([
      o.orderNumber,
      o.createdAt,
      'Ada Lovelace',
      'ada@example.com',
      '+1 555 010 0000',
      'ship',
      '1 Main St',
      'Springfield',
      'IL',
      '62701',
      'Photo #12 (4x6) x2 = $10.00; Photo #0007 (8x10) x1 = $20.00',
      '$30.00',
      '$5.00',
      '$35.00',
      'pending',
      'ship',
      '',
      o.id,
      'AX2025',
      '',
      o.updatedAt,
      'FALSE',
      '',
      '',
      'web',
      JSON.stringify(o.items),
    ]);
  });

  test('an existing empty tab gets the header; a tab name with spaces and quotes works', async (t) => {
    const tab = "Kim's Orders 2026";
    const { store, emu, spreadsheetId } = await sheetsFixture(t, { tabs: [tab], env: { GOOGLE_SHEETS_TAB: tab } });
    expect(emu.sheetTitles(spreadsheetId)).toEqual([tab]);
    const range = `'${tab.replace("'", "''")}'`;
    expect(emu.getValues(spreadsheetId, `${range}!1:1`)).toEqual([HEADER]);
    const o = await store.createOrder(newOrder());
    expect(emu.getValues(spreadsheetId, `${range}!R2`)).toEqual([[o.id]]);
    expect(await store.getOrder(o.orderNumber)).toEqual(o);
  });

  test('every write is RAW: formula-like text stays text in the cells', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    const o = await store.createOrder(
      newOrder({ customerName: '=HYPERLINK("http://evil.test","x")', city: '+1', state: '@x', zipCode: '-1' }),
    );
    await store.appendFeedback(o.id, '=1+1', new Date('2026-01-01T00:00:00.000Z'));
    await store.updateOrder(o.id, { fields: { shippingAddress: '=IMPORTXML("http://evil.test")' } });
    for (const key of ['customerName', 'city', 'state', 'zipCode', 'shippingAddress', 'feedback'] as const) {
      const cell = emu.cell(spreadsheetId, `'Orders'!${col(key)}2`);
      expect(cell?.formula).toBeUndefined();
      expect(typeof cell?.value).toBe('string');
    }
    expect(emu.cell(spreadsheetId, `'Orders'!${col('customerName')}2`)?.value).toBe(
      '=HYPERLINK("http://evil.test","x")',
    );
    expect(emu.cell(spreadsheetId, `'Orders'!${col('city')}2`)?.value).toBe('+1');
    // money and flags are text too, not numbers or booleans the sheet could reformat
    expect(emu.cell(spreadsheetId, `'Orders'!${col('total')}2`)?.value).toBe('$35.00');
    expect(emu.cell(spreadsheetId, `'Orders'!${col('held')}2`)?.value).toBe('FALSE');
    const writes = emu.writeLog.filter((w) => w.method.startsWith('values.'));
    expect(writes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(writes.map((w) => w.valueInputOption))).toEqual(new Set(['RAW']));
  });

  test('an update writes only the cells that change', async (t) => {
    const { store, emu } = await sheetsFixture(t);
    const o = await store.createOrder(newOrder());
    emu.resetStats();
    await store.updateOrder(o.id, { status: 'paid' });
    expect(emu.writeLog).toEqual([
      {
        method: 'values.batchUpdate',
        ranges: ["'Orders'!O2:O2", "'Orders'!U2:U2"],
        valueInputOption: 'RAW',
        insertDataOption: undefined,
        rows: 2,
      },
    ]);
  });

  test('columns are found by their header: moved columns and the operator’s own columns are respected', async (t) => {
    const emu = await startSheetsEmulator();
    t.onTestFinished(() => emu.close());
    const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
    // The operator put a notes column first, moved status to B, and named columns their way.
    const header = ['Notes', 'Status', 'Order Number', ...HEADER.filter((h) => h !== 'orderNumber' && h !== 'status')];
    header[header.indexOf('customerName')] = 'Customer name';
    emu.setValues(spreadsheetId, 'Orders!A1', [header]);
    const { store } = await sheetsFixture(t, { emulator: emu, spreadsheetId });
    const o = await store.createOrder(newOrder({ customerName: 'Mo' }));
    const at = (name: string) => String.fromCharCode(65 + header.indexOf(name));
    expect(emu.getValues(spreadsheetId, `Orders!${at('Order Number')}2`)).toEqual([[o.orderNumber]]);
    expect(emu.getValues(spreadsheetId, `Orders!${at('Customer name')}2`)).toEqual([['Mo']]);
    expect(emu.getValues(spreadsheetId, `Orders!${at('Status')}2`)).toEqual([['pending']]);
    // The operator notes something beside the order; a change of the order leaves it be.
    emu.setValues(spreadsheetId, 'Orders!A2', [['VIP – call first']]);
    await store.updateOrder(o.id, { status: 'paid' });
    expect(emu.getValues(spreadsheetId, 'Orders!A2:B2')).toEqual([['VIP – call first', 'paid']]);
    expect(await store.getOrder(o.id)).toEqual({ ...o, status: 'paid', updatedAt: expect.any(String) });
    // A row of something else in the order columns is reported, not rewritten.
    emu.setValues(spreadsheetId, 'Orders!C3', [['see the back office']]);
    expect(await store.listOrders()).toHaveLength(1);
    expect((await store.health()).details).toMatchObject({ unreadableRows: [{ row: 3, reason: 'id is empty' }] });
    expect(emu.getValues(spreadsheetId, 'Orders!A3:AA3')).toEqual([['', '', 'see the back office']]);
  });

  test('a header missing some columns gets them added at its end (the grid widened as needed)', async (t) => {
    const emu = await startSheetsEmulator();
    t.onTestFinished(() => emu.close());
    const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
    // An older layout: SPEC columns A–U and three of the operator's own, up to X.
    emu.setValues(spreadsheetId, 'Orders!A1', [[...HEADER.slice(0, 21), 'notes', 'paid via', 'box']]);
    const { store } = await sheetsFixture(t, { emulator: emu, spreadsheetId });
    expect(emu.getValues(spreadsheetId, 'Orders!V1:AC1')).toEqual([
      ['notes', 'paid via', 'box', 'held', 'holdExpiresAt', 'addressVerified', 'channel', 'itemsJson'],
    ]);
    expect(emu.grid(spreadsheetId, 'Orders').columnCount).toBe(29);
    const o = await store.createOrder(newOrder({ held: true, holdExpiresAt: '2099-01-01T00:00:00.000Z' }));
    expect(emu.getValues(spreadsheetId, 'Orders!V2:Y2')).toEqual([['', '', '', 'TRUE']]);
    expect(await store.getOrder(o.id)).toEqual(o);
  });
});

describe('Google Sheets store: rows edited by hand', () => {
  async function handEdited(t: Parameters<typeof sheetsFixture>[0]) {
    const log = recordingLogger();
    const fx = await sheetsFixture(t, { log });
    const { emu, spreadsheetId } = fx;
    // What an operator types (USER_ENTERED, as in the browser): odd case and spaces,
    // money as numbers, missing cells, a blank row, and an extra column of their own.
    const rows: (string | null)[][] = [
      // 2: readable: status " PAID ", money typed as numbers, no V–Z cells at all
      [
        'AX25-0041',
        '2026-07-03T10:00:00.000Z',
        'Hand Typed',
        'h@example.com',
        '',
        'Ship',
        '2 Oak Ave',
        'Salem',
        'OR',
        '97301',
        'Photo #5 (4x6) x2 = $10.00',
        '10',
        '5.5',
        '15.50',
        ' PAID ',
        '',
        '',
        'hand-1',
        'AX2025',
      ],
      // 3: blank
      [],
      // 4: unreadable: no id
      [
        'AX25-0042',
        '2026-07-03T11:00:00.000Z',
        'No Id',
        '',
        '',
        'pickup',
        '',
        '',
        '',
        '',
        'Photo #1 (4x6) x1 = $5.00',
        '$5.00',
        '$0.00',
        '$5.00',
        'pending',
        'ship',
        '',
        '',
        'AX2025',
      ],
      // 5: unreadable: unknown status, extra column AA filled by the operator
      [
        'AX25-0043',
        '2026-07-03T12:00:00.000Z',
        'Odd',
        '',
        '',
        'pickup',
        '',
        '',
        '',
        '',
        'Photo #1 (4x6) x1 = $5.00',
        '$5.00',
        '$0.00',
        '$5.00',
        'maybe?',
        'ship',
        '',
        'hand-3',
        'AX2025',
      ],
      // 6: unreadable: items nobody can read
      [
        'AX25-0044',
        '2026-07-03T13:00:00.000Z',
        'Bad Items',
        '',
        '',
        'pickup',
        '',
        '',
        '',
        '',
        'two prints please',
        '$5.00',
        '$0.00',
        '$5.00',
        'pending',
        'ship',
        '',
        'hand-4',
        'AX2025',
      ],
      // 7: readable, hand-entered date and "canceled", feedback with a leading =
      [
        'AX25-0045',
        'July 3, 2026 14:00 UTC',
        'Late',
        '',
        '',
        'pickup',
        '',
        '',
        '',
        '',
        'Photo #9 (8x10) x1 = $20.00',
        '$20.00',
        '',
        '',
        'CANCELED',
        'SHIP',
        "'=not a formula",
      ],
    ];
    emu.setValues(spreadsheetId, "'Orders'!A2", rows);
    emu.setValues(spreadsheetId, "'Orders'!R7", [['hand-5', 'AX2025']]);
    emu.setValues(spreadsheetId, "'Orders'!AA1", [['operator notes'], ['left as is'], [''], [''], ['keep me']]);
    return { ...fx, log };
  }

  test('readable rows are read leniently; blank rows are skipped; bad rows are reported, not rewritten', async (t) => {
    const { emu, spreadsheetId, config, log } = await handEdited(t);
    // a fresh store reads the hand-edited tab
    const { store } = await sheetsFixture(t, { emulator: emu, spreadsheetId, log, dataDir: config.dataDir });
    const before = emu.getValues(spreadsheetId, "'Orders'", 'FORMULA');

    const hand = await store.getOrder('hand-1');
    expect(hand).toMatchObject({
      orderNumber: 'AX25-0041',
      status: 'paid',
      fulfillmentType: 'ship',
      shippingStatus: 'ship',
      subtotalCents: 1000,
      shippingFeeCents: 550,
      totalCents: 1550,
      items: [{ photoNumber: '5', size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 }],
      held: false,
      holdExpiresAt: null,
      addressVerified: null,
      channel: 'web',
      updatedAt: '2026-07-03T10:00:00.000Z',
    });
    const late = await store.getOrder('ax25-0045');
    expect(late).toMatchObject({
      id: 'hand-5',
      status: 'cancelled',
      shippingStatus: 'ship',
      createdAt: '2026-07-03T14:00:00.000Z',
      totalCents: 2000,
      shippingFeeCents: 0,
      feedback: '=not a formula',
    });
    expect((await store.listOrders({ includeHeld: true })).map((o) => o.id)).toEqual(['hand-5', 'hand-1']);
    expect(await store.getOrder('hand-3')).toBeNull();

    const health = await store.health();
    expect(health.ok).toBe(true);
    expect(health.details).toMatchObject({
      unreadableCount: 3,
      unreadableRows: [
        { row: 4, reason: 'id is empty' },
        { row: 5, reason: expect.stringContaining('status "maybe?"') },
        { row: 6, reason: expect.stringContaining('items line 1') },
      ],
    });
    const warned = log.entries.filter((e) => e.level === 'warn' && e.msg?.includes('row skipped'));
    expect(warned.map((e) => (e.obj as { row: number }).row).sort()).toEqual([4, 5, 6]);

    // The next number continues after the highest in the sheet, unreadable rows included.
    const created = await store.createOrder(newOrder());
    expect(created.orderNumber).toBe('AX25-0046');
    // Changing a hand-edited order writes only what changed: the hand-typed cells stay.
    await store.updateOrder('hand-1', { fields: { city: 'Portland' } });
    const after = emu.getValues(spreadsheetId, "'Orders'", 'FORMULA');
    expect(after.slice(0, 7).map((r, i) => (i === 1 ? r.filter((_, c) => c !== 7 && c !== 20) : r))).toEqual(
      before.slice(0, 7).map((r, i) => (i === 1 ? r.filter((_, c) => c !== 7 && c !== 20) : r)),
    );
    expect(emu.getValues(spreadsheetId, "'Orders'!L2:O2", 'FORMATTED_VALUE')).toEqual([
      ['10', '5.5', '15.5', ' PAID '],
    ]);
    expect(await store.getOrder('hand-1')).toMatchObject({ city: 'Portland', totalCents: 1550 });
    // a second read does not log the same rows again
    await store.listOrders();
    expect(log.entries.filter((e) => e.level === 'warn' && e.msg?.includes('row skipped'))).toHaveLength(3);
  });

  test('hand-edited items text wins over the stale JSON copy', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    const o = await store.createOrder(newOrder());
    emu.setValues(spreadsheetId, `'Orders'!${col('items')}2`, [['Photo #12 (4x6) x3 = $15.00']]);
    const read = await store.getOrder(o.id);
    expect(read?.items).toEqual([{ photoNumber: '12', size: '4x6', quantity: 3, unitCents: 500, lineCents: 1500 }]);
    expect(formatItems(read?.items ?? [])).toBe('Photo #12 (4x6) x3 = $15.00');
  });

  test('rows inserted or deleted above an order by hand: updates still land on its row', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    const a = await store.createOrder(newOrder());
    const b = await store.createOrder(newOrder());
    emu.insertRows(spreadsheetId, 'Orders', 2, 3); // a is now in row 5, b in row 6
    await store.updateOrder(b.id, { status: 'paid' });
    expect(emu.getValues(spreadsheetId, `'Orders'!${col('status')}6:${col('id')}6`)).toEqual([
      ['paid', 'ship', '', b.id],
    ]);
    emu.deleteRows(spreadsheetId, 'Orders', 2, 3);
    await store.updateOrder(a.id, { status: 'void' });
    expect(emu.getValues(spreadsheetId, `'Orders'!${col('status')}2`)).toEqual([['void']]);
    expect((await store.getOrder(b.id))?.status).toBe('paid');
    // an order deleted by hand is gone
    emu.deleteRows(spreadsheetId, 'Orders', 3, 1);
    expect(await store.getOrder(b.id)).toBeNull();
    await expectCode(store.updateOrder(b.id, { status: 'void' }), 'ORDER_NOT_FOUND');
  });

  test('feedback beyond what a cell holds (50,000 characters) is refused with 400, nothing written', async (t) => {
    const { store, emu } = await sheetsFixture(t);
    const o = await store.createOrder(newOrder());
    const text = 'x'.repeat(2000);
    let last = o;
    for (let i = 0; i < 24; i++) last = await store.appendFeedback(o.id, text, new Date(Date.UTC(2026, 0, 1, 0, i)));
    emu.resetStats();
    await expect(store.appendFeedback(o.id, text, new Date())).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    expect(emu.stats().writes).toBe(0);
    expect(await store.getOrder(o.id)).toEqual(last);
  });

  test('an order number typed into the sheet while running moves the sequence on', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    await store.createOrder(newOrder());
    emu.setValues(spreadsheetId, "'Orders'!A3", [['AX25-0100']]);
    await store.listOrders();
    expect((await store.createOrder(newOrder())).orderNumber).toBe('AX25-0101');
  });
});

describe('Google Sheets store: quota and faults', () => {
  test('50 concurrent creates are coalesced into a few append calls (≤ 0.2 write calls per order)', async (t) => {
    const { store, emu } = await sheetsFixture(t);
    emu.resetStats();
    const created = await Promise.all(Array.from({ length: 50 }, () => store.createOrder(newOrder())));
    expect(new Set(created.map((o) => o.orderNumber)).size).toBe(50);
    const { writes, calls } = emu.stats();
    expect(calls['values.append']).toBe(writes);
    expect(writes / 50).toBeLessThanOrEqual(0.2);
  });

  test('429/500 on 30% of calls during 100 creates (and lost answers): all 100 orders present exactly once', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t);
    // and the first five appends land but answer 500, so the client cannot know they did
    emu.setFaults({
      rate: 0.3,
      seed: 42,
      statuses: [429, 500],
      applyThenFail: { count: 5, methods: ['values.append'] },
    });
    const created: OrderRecord[] = [];
    // five clients creating one after another: many appends, each at risk
    await Promise.all(
      Array.from({ length: 5 }, async (_, w) => {
        for (let i = 0; i < 20; i++) created.push(await store.createOrder(newOrder({ customerName: `w${w} #${i}` })));
      }),
    );
    const stats = emu.stats();
    emu.setFaults({});
    expect(stats.faulted).toBeGreaterThan(10);
    expect(stats.calls['values.append']).toBeGreaterThan(20);
    const ids = idsInSheet(emu, spreadsheetId);
    expect(ids).toHaveLength(100);
    expect(new Set(ids)).toEqual(new Set(created.map((o) => o.id)));
    expect(created.map((o) => Number(o.orderNumber.slice(5))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(await store.listOrders()).toHaveLength(100);
  });

  test.for(['status', 'reset'] as const)(
    'an append that landed but whose answer was lost (%s) is not written again',
    async (mode, t) => {
      const { store, emu, spreadsheetId } = await sheetsFixture(t);
      emu.resetStats();
      emu.setFaults({ applyThenFail: { count: 1, methods: ['values.append'], mode } });
      const o = await store.createOrder(newOrder(), { mail: [receipt] });
      expect(idsInSheet(emu, spreadsheetId)).toEqual([o.id]);
      expect(emu.stats().calls['values.append']).toBe(1);
      expect(await store.pendingMailCount()).toBe(1);
      expect(await store.getOrder(o.id)).toEqual(o);
    },
  );

  test('updates are retried through 500s and land once', async (t) => {
    const { store, emu } = await sheetsFixture(t);
    const o = await store.createOrder(newOrder());
    emu.setFaults({ rate: 0.3, seed: 3, statuses: [500, 503] });
    for (let i = 0; i < 10; i++) await store.appendFeedback(o.id, `note ${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
    emu.setFaults({});
    expect(((await store.getOrder(o.id))?.feedback ?? '').split('\n\n')).toHaveLength(10);
  });

  test('an outage: STORE_UNAVAILABLE after the retries, health not ok; recovery afterwards, no number reused', async (t) => {
    const { store, emu, spreadsheetId } = await sheetsFixture(t, {
      store: { retry: { attempts: 3, baseMs: 1, maxMs: 5 }, healthFreshMs: 0 },
    });
    const first = await store.createOrder(newOrder());
    emu.setFaults({ outage: true });
    await expectCode(store.createOrder(newOrder(), { mail: [receipt] }), 'STORE_UNAVAILABLE');
    emu.resetStats();
    await expectCode(store.listOrders(), 'STORE_UNAVAILABLE');
    // our 3 attempts and no more: gaxios' own retries are off
    expect(emu.stats().calls['values.get']).toBe(3);
    await expectCode(store.updateOrder(first.id, { status: 'paid' }), 'STORE_UNAVAILABLE');
    expect((await store.health()).ok).toBe(false);
    expect(await store.pendingMailCount()).toBe(0);
    emu.setFaults({});
    const next = await store.createOrder(newOrder());
    expect(next.orderNumber).toBe('AX25-0003');
    expect(idsInSheet(emu, spreadsheetId)).toEqual([first.id, next.id]);
    expect((await store.health()).ok).toBe(true);
  });

  test('mail waits for an uncertain order write: kept when the row landed, dropped when it did not', async (t) => {
    const { store, emu, spreadsheetId, config } = await sheetsFixture(t, {
      store: { retry: { attempts: 2, baseMs: 1, maxMs: 2 } },
    });
    // Landed, but every answer was lost: the caller sees an error, the mail waits.
    emu.setFaults({ applyThenFail: { count: 1, methods: ['values.append'] }, rate: 1, methods: ['values.get'] });
    await expectCode(store.createOrder(newOrder(), { mail: [receipt] }), 'STORE_UNAVAILABLE');
    // Never landed.
    emu.setFaults({ outage: true });
    await expectCode(store.createOrder(newOrder(), { mail: [receipt, receipt] }), 'STORE_UNAVAILABLE');
    emu.setFaults({});
    expect(idsInSheet(emu, spreadsheetId)).toHaveLength(1);
    expect(await store.pendingMailCount()).toBe(0);
    // A restart settles them against the sheet.
    await store.close();
    const { store: again } = await sheetsFixture(t, { emulator: emu, spreadsheetId, dataDir: config.dataDir });
    expect(await again.pendingMailCount()).toBe(1);
    const [job] = await again.claimDueMail(new Date(Date.now() + 1000), 10, 1000);
    expect(job?.orderId).toBe(idsInSheet(emu, spreadsheetId)[0]);
  });

  test('a restarted store continues the numbering and finds earlier orders', async (t) => {
    const { store, emu, spreadsheetId, config } = await sheetsFixture(t);
    const a = await store.createOrder(newOrder());
    await store.createOrder(newOrder({ prefix: 'BB', eventSlug: 'BB' }));
    await store.close();
    const { store: again } = await sheetsFixture(t, { emulator: emu, spreadsheetId, dataDir: config.dataDir });
    expect(await again.getOrder(a.orderNumber)).toEqual(a);
    expect((await again.createOrder(newOrder())).orderNumber).toBe('AX25-0002');
    expect((await again.createOrder(newOrder({ prefix: 'BB', eventSlug: 'BB' }))).orderNumber).toBe('BB-0002');
  });
});

describe('Google Sheets store: misconfiguration stops start-up naming the variable', () => {
  async function initError(t: Parameters<typeof sheetsFixture>[0], opts: Parameters<typeof sheetsFixture>[1]) {
    const { store } = await sheetsFixture(t, { ...opts, init: false });
    return store.init().then(
      () => null,
      (e: Error) => e,
    );
  }

  test('unreadable, non-JSON, incomplete or broken credentials name GOOGLE_APPLICATION_CREDENTIALS', async (t) => {
    const dir = await tempDir(t);
    const cases: [string, string | null, RegExp][] = [
      ['missing.json', null, /cannot read the service-account key file/],
      ['not-json.json', 'not json {', /is not JSON/],
      [
        'user.json',
        JSON.stringify({ type: 'authorized_user', client_id: 'x', refresh_token: 'y' }),
        /is not a service-account key/,
      ],
      [
        'bad-key.json',
        JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: 'nope' }),
        /private_key .* cannot be read/,
      ],
    ];
    for (const [name, content, reason] of cases) {
      const file = path.join(dir, name);
      if (content !== null) await writeFile(file, content);
      const err = await initError(t, { env: { GOOGLE_APPLICATION_CREDENTIALS: file } });
      expect(err?.name).toBe('ConfigError');
      expect(err?.message).toMatch(/^GOOGLE_APPLICATION_CREDENTIALS: /);
      expect(err?.message).toMatch(reason);
    }
  });

  test('a key Google does not accept names GOOGLE_APPLICATION_CREDENTIALS', async (t) => {
    const other = await writeServiceAccount(await tempDir(t), { fresh: true });
    const emu = await startSheetsEmulator({
      publicKeys: { 'orders-bot@photo-test.iam.gserviceaccount.com': other.publicKey },
    });
    t.onTestFinished(() => emu.close());
    const err = await initError(t, { emulator: emu });
    expect(err?.message).toMatch(/^GOOGLE_APPLICATION_CREDENTIALS: Google refused the credentials/);
  });

  test('an unknown spreadsheet, one not shared (or shared read-only) with the account, or no API at all name GOOGLE_SHEETS_ID', async (t) => {
    const notFound = await initError(t, { spreadsheetId: 'no-such-sheet' });
    expect(notFound?.message).toMatch(/^GOOGLE_SHEETS_ID: spreadsheet "no-such-sheet" was not found/);

    const unshared = await initError(t, { emulatorOptions: { sharedWith: ['someone@else.iam.gserviceaccount.com'] } });
    expect(unshared?.message).toMatch(
      /^GOOGLE_SHEETS_ID: the service account orders-bot@photo-test\.iam\.gserviceaccount\.com/,
    );
    expect(unshared?.message).toMatch(/share the spreadsheet with that address/);

    // Shared as Viewer: reading works, so start-up proves it may write before it says ready.
    const viewerEmu = await startSheetsEmulator({ viewers: ['orders-bot@photo-test.iam.gserviceaccount.com'] });
    t.onTestFinished(() => viewerEmu.close());
    const viewerSheet = viewerEmu.createSpreadsheet({ sheets: ['Orders'] });
    viewerEmu.setValues(viewerSheet, 'Orders!A1', [HEADER]);
    const viewer = await initError(t, { emulator: viewerEmu, spreadsheetId: viewerSheet });
    expect(viewer?.message).toMatch(/^GOOGLE_SHEETS_ID: the service account .* may not open .* as an Editor/);
    expect(viewerEmu.getValues(viewerSheet, 'Orders!A1:Z1')).toEqual([HEADER]);

    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const unreachable = await initError(t, {
      env: { GOOGLE_SHEETS_ROOT_URL: `http://127.0.0.1:${port}/` },
      store: { retry: { ...QUICK_RETRY, attempts: 2 } },
    });
    expect(unreachable?.message).toMatch(/^GOOGLE_SHEETS_ID: cannot open spreadsheet .* \(GOOGLE_SHEETS_ROOT_URL\)/);
  });

  test('ORDER_STORE=sheets in the app: the store is the Sheets adapter; /readyz shows its details', async (t) => {
    const emu = await startSheetsEmulator();
    t.onTestFinished(() => emu.close());
    const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
    emu.setValues(spreadsheetId, 'Orders!A1', [HEADER, ['garbage row']]);
    const account = await writeServiceAccount(await tempDir(t));
    const app = await build(t, {
      env: {
        ORDER_STORE: 'sheets',
        GOOGLE_SHEETS_ID: spreadsheetId,
        GOOGLE_APPLICATION_CREDENTIALS: account.file,
        GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
      },
    });
    expect(app.store.kind).toBe('sheets');
    const o = await app.store.createOrder(newOrder());
    expect(await app.store.getOrder(o.orderNumber)).toEqual(o);
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks.store).toMatchObject({
      ok: true,
      details: { backend: 'sheets', unreadableRows: [{ row: 2 }] },
    });
  });

  test('a bad spreadsheet id stops the app from starting', async (t) => {
    const emu = await startSheetsEmulator();
    t.onTestFinished(() => emu.close());
    const account = await writeServiceAccount(await tempDir(t));
    await expect(
      build(t, {
        env: {
          ORDER_STORE: 'sheets',
          GOOGLE_SHEETS_ID: 'wrong-id',
          GOOGLE_APPLICATION_CREDENTIALS: account.file,
          GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
        },
      }),
    ).rejects.toThrow(/^GOOGLE_SHEETS_ID: /);
  });
});
