/**
 * The spreadsheet goes away under order load: the real server (ORDER_STORE=sheets) against
 * the Sheets emulator, which answers every call 503 for FAULT_SHEETS_OUTAGE_S seconds
 * (default 10; the 60 s: `FAULT_SHEETS_OUTAGE_S=60 npx vitest run
 * test/faults/sheets-outage.test.ts`). Clients submit with an Idempotency-Key and retry a
 * refused order with the same key, as a careful client does.
 *
 * Every answer is a 201 or a 503 STORE_UNAVAILABLE (never a hang, never another error);
 * every acknowledged order is in the sheet exactly once; no retried order was created twice;
 * no order number is used twice; /readyz says 503 during the outage and 200 after.
 * (The adapter alone under 30 % faults and outages: test/services/store/sheets.test.ts.)
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ORDER_COLUMNS } from '../../src/services/store/sheets/layout.js';
import { tempDir } from '../helpers/build.js';
import { orderLoad } from '../support/fault-orders.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { writeLibrary } from '../support/orders-fixtures.js';
import { writeServiceAccount } from '../support/sheets-credentials.js';
import { startSheetsEmulator } from '../support/sheets-emulator.js';

const OUTAGE_S = Number(process.env.FAULT_SHEETS_OUTAGE_S ?? 10);

test(`Sheets answering 503 for ${OUTAGE_S} s under order load: acknowledged means stored, refused means 503`, {
  timeout: (OUTAGE_S + 90) * 1000,
}, async (t) => {
  const emu = await startSheetsEmulator();
  t.onTestFinished(() => emu.close());
  const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  const account = await writeServiceAccount(await tempDir(t));
  const server = await startServer(t, {
    env: serverEnv(dataDir, {
      ORDER_STORE: 'sheets',
      GOOGLE_SHEETS_ID: spreadsheetId,
      GOOGLE_APPLICATION_CREDENTIALS: account.file,
      GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
    }),
  });
  const ready = async () => (await fetch(`${server.url}/readyz`)).status;

  const load = orderLoad({ urls: [server.url], clients: 6, idempotent: true, pauseMs: 20, timeoutMs: 60_000 });
  await load.until((s) => s.acks.length >= 30, 60_000);

  emu.setFaults({ outage: true });
  const outageStart = Date.now();
  const ackedBefore = load.state.acks.length;
  // /readyz reports the store down once the sheet has been silent for 15 s (it spares the
  // quota: a sheet that answered recently is not asked again).
  const readiness: number[] = [];
  while (Date.now() - outageStart < OUTAGE_S * 1000) {
    readiness.push(await ready());
    await new Promise((r) => setTimeout(r, 1000));
  }
  emu.setFaults({});
  const outageMs = Date.now() - outageStart;

  await load.until((s) => s.acks.length >= ackedBefore + 40, 60_000);
  const { acks, refusals, oddities, connectionErrors } = await load.stop();
  expect(await ready()).toBe(200);

  expect(oddities).toEqual([]);
  expect(connectionErrors).toBe(0);
  if (process.env.FAULT_VERBOSE) {
    console.log({
      acks: acks.length,
      refusals: refusals.length,
      slowestAckMs: Math.max(...acks.map((a) => a.ms)),
      refusalMs: refusals.map((r) => Math.round(r.ms)),
      readiness,
    });
  }
  expect(refusals.length).toBeGreaterThanOrEqual(1);
  if (OUTAGE_S >= 25) expect(readiness).toContain(503);
  expect(refusals.filter((r) => r.status !== 503 || r.code !== 'STORE_UNAVAILABLE')).toEqual([]);
  // A refusal comes within the adapter's retry budget, not after the whole outage.
  expect(Math.max(...refusals.map((r) => r.ms))).toBeLessThan(20_000);
  expect(outageMs).toBeGreaterThanOrEqual(OUTAGE_S * 1000);

  // The sheet: every acknowledged order exactly once, no order twice, no number twice.
  const rows = emu.getValues(spreadsheetId, 'Orders!A2:Z10000');
  const col = (name: string) => ORDER_COLUMNS.indexOf(name as (typeof ORDER_COLUMNS)[number]);
  const ids = rows.map((r) => String(r[col('id')] ?? ''));
  const names = rows.map((r) => String(r[col('customerName')] ?? ''));
  const numbers = rows.map((r) => String(r[col('orderNumber')] ?? ''));
  const count = (list: string[], v: string) => list.filter((x) => x === v).length;
  expect(acks.filter((a) => count(ids, a.id) !== 1)).toEqual([]);
  expect(new Set(numbers).size).toBe(numbers.length);
  // A refused order retried with its Idempotency-Key was created once, not once per attempt.
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  const retried = new Set(refusals.map((r) => r.customerName));
  expect(
    [...retried].filter((n) => !acks.some((a) => a.customerName === n) && count(names, n) > 0).length,
  ).toBeLessThanOrEqual(6);
  await server.kill('SIGTERM');
});
