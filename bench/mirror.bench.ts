/**
 * The spreadsheet mirror keeping up (docs/mirror.md): orders created in the SQLite record at
 * RATE_PER_S on a fixed schedule while the mirror worker copies them to the Sheets emulator
 * answering every call after LATENCY_MS (the real googleapis client, signed JWTs).
 *
 * Baseline, same run, same emulator: the obvious design, one `values.append` per order as it
 * comes (calls in sequence, as a store writing through to the sheet would), for the same
 * schedule. It can't do more than 1000 / LATENCY_MS orders a second.
 *
 * Targets: the mirror writes all RATE_PER_S orders a second (≥ 0.98 of the rate), every order
 * in the sheet within 5 s (p99 lag), at most 0.2 write calls per order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewOrder } from '../src/domain/order.js';
import { silentLogger } from '../src/lib/logger.js';
import { soleLeader } from '../src/services/mirror/leader.js';
import { createSheetsApi, loadServiceAccount } from '../src/services/mirror/sheets/client.js';
import { OrderTab } from '../src/services/mirror/sheets/order-tab.js';
import { DEFAULT_RETRY } from '../src/services/mirror/sheets/retry.js';
import { toCells } from '../src/services/mirror/sheets/row-cells.js';
import { MirrorWorker } from '../src/services/mirror/worker.js';
import { openStore } from '../src/services/store/store.js';
import { writeServiceAccount } from '../test/support/sheets-credentials.js';
import { startSheetsEmulator } from '../test/support/sheets-emulator.js';
import { percentile, printReport } from './lib/report.js';

const RATE_PER_S = 50;
const LATENCY_MS = 100;
const SECONDS = 20;
const BASELINE_SECONDS = 5;

function order(i: number): NewOrder {
  return {
    prefix: 'BN26',
    eventSlug: 'BENCH2026',
    customerName: `Customer ${i}`,
    customerEmail: `customer${i}@example.com`,
    customerPhone: '+1 555 010 0000',
    fulfillmentType: 'ship',
    shippingAddress: `${i} Main St`,
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
    items: [{ photoNumber: String(100 + (i % 50)), size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 }],
    subtotalCents: 1000,
    shippingFeeCents: 500,
    totalCents: 1500,
    held: false,
    holdExpiresAt: null,
    addressVerified: true,
    channel: 'web',
  };
}

type Run = { perSecond: number; p99LagMs: number; writesPerOrder: number; orders: number };

async function setup(dir: string) {
  const account = await writeServiceAccount(dir);
  const emu = await startSheetsEmulator({ latencyMs: LATENCY_MS });
  const sheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
  const api = createSheetsApi(await loadServiceAccount(account.file), { rootUrl: emu.rootUrl, timeoutMs: 20_000 });
  const tab = new OrderTab({ api, spreadsheetId: sheetId, tab: 'Orders', retry: DEFAULT_RETRY, log: silentLogger });
  await tab.open();
  const count = () => Math.max(0, emu.getValues(sheetId, "'Orders'!R:R").length - 1);
  return { emu, tab, count };
}

/** Orders on the schedule; each one's lag is from its create to its row showing in the sheet. */
async function drive(
  seconds: number,
  create: (i: number) => Promise<void>,
  count: () => number,
  settleMs: number,
): Promise<{ lags: number[]; orders: number }> {
  const total = seconds * RATE_PER_S;
  const createdAt: number[] = [];
  const lags: number[] = [];
  const started = performance.now();
  const poll = setInterval(() => {
    const n = count();
    const now = performance.now();
    while (lags.length < n && lags.length < createdAt.length) lags.push(now - (createdAt[lags.length] as number));
  }, 20);
  const creates: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE_PER_S;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    createdAt.push(performance.now());
    creates.push(create(i));
  }
  await Promise.all(creates);
  const deadline = performance.now() + settleMs;
  while (lags.length < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clearInterval(poll);
  return { lags, orders: lags.length };
}

async function mirrorRun(dir: string): Promise<Run> {
  const { emu, tab, count } = await setup(dir);
  const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'mirror.db') });
  const worker = new MirrorWorker({
    tab,
    store: { mirror: store.mirror, orders: store.orders },
    leader: soleLeader(),
    log: silentLogger,
    spreadsheetId: 'bench',
    readIntervalMs: 30_000,
    flushMs: 500,
  });
  worker.start();
  emu.resetStats();
  const result = await drive(
    SECONDS,
    async (i) => {
      await store.orders.create(order(i), { by: 'customer' });
    },
    count,
    5_000,
  );
  const writes = emu.stats().writes;
  await worker.stop();
  await store.close();
  await emu.close();
  return {
    // Orders in the sheet by the end of the settling time, over the schedule's length.
    perSecond: result.orders / SECONDS,
    p99LagMs: percentile(result.lags, 99),
    writesPerOrder: writes / Math.max(1, result.orders),
    orders: result.orders,
  };
}

async function baselineRun(dir: string): Promise<Run> {
  const { emu, tab, count } = await setup(dir);
  const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'baseline.db') });
  emu.resetStats();
  let chain = Promise.resolve();
  let stopped = false;
  const result = await drive(
    BASELINE_SECONDS,
    async (i) => {
      const o = await store.orders.create(order(i), { by: 'customer' });
      chain = chain.then(() => (stopped ? undefined : tab.append([toCells(o)]).then(() => {})));
    },
    count,
    2_000,
  );
  const writes = emu.stats().writes;
  stopped = true; // the appends still queued are dropped: it fell behind, which is the point
  await chain.catch(() => {});
  await store.close();
  await emu.close();
  return {
    perSecond: result.orders / BASELINE_SECONDS,
    p99LagMs: percentile(result.lags.length > 0 ? result.lags : [Number.NaN], 99),
    writesPerOrder: writes / Math.max(1, result.orders),
    orders: result.orders,
  };
}

export default async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-mirror-'));
  try {
    const baseline = await baselineRun(await mkdtemp(path.join(dir, 'b-')));
    const mirror = await mirrorRun(await mkdtemp(path.join(dir, 'm-')));
    printReport(
      `mirror: ${RATE_PER_S} orders/s for ${SECONDS} s, emulator at ${LATENCY_MS} ms (baseline: one append per order)`,
      [
        {
          name: 'orders in the sheet per second',
          value: mirror.perSecond,
          unit: '/s',
          baseline: baseline.perSecond,
          target: `>= ${RATE_PER_S * 0.98}/s`,
          pass: mirror.perSecond >= RATE_PER_S * 0.98,
        },
        {
          name: 'p99 lag, created to in the sheet',
          value: mirror.p99LagMs,
          unit: 'ms',
          baseline: baseline.p99LagMs,
          target: '<= 5000 ms',
          pass: mirror.p99LagMs <= 5000,
        },
        {
          name: 'write calls per order',
          value: mirror.writesPerOrder,
          unit: 'calls',
          baseline: baseline.writesPerOrder,
          target: '<= 0.2',
          pass: mirror.writesPerOrder <= 0.2,
        },
        { name: 'orders written (mirror / baseline run)', value: mirror.orders, unit: 'orders' },
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
