/**
 * The Google Sheets order store against the Sheets v4 emulator (loopback, same process):
 * creates per second with 0 and 100 ms of API latency, and Sheets API write calls per
 * order (the quota is 300 writes/min/project) — for a burst of 50 concurrent creates and
 * for 50 clients creating continuously.
 *
 * Baseline, measured in the same run: the naive adapter, one `values.append` per order
 * through the same googleapis client, at the same concurrency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/env.js';
import { silentLogger } from '../src/services/store/logger.js';
import type { OrderStore } from '../src/services/store/port.js';
import { buildNewOrder } from '../src/services/store/rules.js';
import { createSheetsApi, loadServiceAccount } from '../src/services/store/sheets/client.js';
import { createSheetsStore } from '../src/services/store/sheets/index.js';
import { ORDER_COLUMNS, toCells } from '../src/services/store/sheets/layout.js';
import { writeServiceAccount } from '../test/support/sheets-credentials.js';
import { type SheetsEmulator, startSheetsEmulator } from '../test/support/sheets-emulator.js';
import { newOrder } from '../test/support/store-fixtures.js';
import { type BenchRow, printReport } from './lib/report.js';

const CLIENTS = 50;

type Setup = { emu: SheetsEmulator; store: OrderStore; keyFile: string; spreadsheetId: string; dir: string };

async function setup(dir: string, latencyMs: number): Promise<Setup> {
  const account = await writeServiceAccount(dir);
  const emu = await startSheetsEmulator({ publicKeys: { [account.email]: account.publicKey } });
  const spreadsheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
  const dataDir = await mkdtemp(path.join(dir, 'data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ORDER_STORE: 'sheets',
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_APPLICATION_CREDENTIALS: account.file,
    GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
  });
  const store = createSheetsStore(config, silentLogger);
  await store.init();
  emu.setLatency(latencyMs);
  return { emu, store, keyFile: account.file, spreadsheetId, dir };
}

/** `clients` loops, each creating until `total` creates have been started; creates/s. */
async function run(total: number, clients: number, create: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (started < total) {
        started += 1;
        await create();
      }
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

/** One values.append per order, as a naive adapter would. */
async function naiveCreate(s: Setup): Promise<() => Promise<unknown>> {
  const api = createSheetsApi(await loadServiceAccount(s.keyFile), { rootUrl: s.emu.rootUrl, timeoutMs: 20_000 });
  const last = String.fromCharCode(64 + ORDER_COLUMNS.length);
  let seq = 100_000;
  return () => {
    const order = buildNewOrder(newOrder({ prefix: 'NAIVE' }), seq++, new Date());
    const cells = toCells(order);
    return api.spreadsheets.values.append({
      spreadsheetId: s.spreadsheetId,
      range: `'Orders'!A:${last}`,
      valueInputOption: 'RAW',
      insertDataOption: 'INSERT_ROWS',
      requestBody: { values: [ORDER_COLUMNS.map((k) => cells[k])] },
    });
  };
}

async function measure(latencyMs: number, total: number, naiveTotal: number): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-sheets-'));
  const s = await setup(dir, latencyMs);
  try {
    // warm-up (connections, JIT)
    await run(100, CLIENTS, () => s.store.createOrder(newOrder()));

    const naive = await naiveCreate(s);
    const naiveRate = await run(naiveTotal, CLIENTS, naive);

    s.emu.resetStats();
    const rate = await run(total, CLIENTS, () => s.store.createOrder(newOrder()));
    const steadyWrites = s.emu.stats().writes / total;

    let burstWorst = 0;
    for (let i = 0; i < 5; i++) {
      s.emu.resetStats();
      await Promise.all(Array.from({ length: CLIENTS }, () => s.store.createOrder(newOrder())));
      burstWorst = Math.max(burstWorst, s.emu.stats().writes / CLIENTS);
    }
    return [
      {
        name: `creates/s, ${latencyMs} ms API latency, ${CLIENTS} clients`,
        value: rate,
        unit: 'creates/s',
        baseline: naiveRate,
      },
      {
        name: `write calls/order, burst of ${CLIENTS} concurrent, ${latencyMs} ms (worst of 5)`,
        value: burstWorst,
        unit: 'calls',
        baseline: 1,
        target: '<= 0.2',
        pass: burstWorst <= 0.2,
      },
      {
        name: `write calls/order, ${CLIENTS} clients creating continuously, ${latencyMs} ms`,
        value: steadyWrites,
        unit: 'calls',
        baseline: 1,
        target: '<= 0.2',
        pass: steadyWrites <= 0.2,
      },
    ];
  } finally {
    await s.store.close();
    await s.emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<void> {
  const rows = [...(await measure(0, 3000, 500)), ...(await measure(100, 1500, 500))];
  printReport('store-sheets: Google Sheets adapter vs one append per order (emulator, loopback)', rows);
}
