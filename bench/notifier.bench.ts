/**
 * What the notifier adds to order submission. Order submission's route is not built yet, so
 * this measures what the notifier changes in it: `store.orders.create` on the SQLite store
 * (WAL, synchronous=FULL: every commit is fsynced) with the receipt job enqueued in the same
 * transaction plus `kick()`, while the outbox worker renders both labels and writes each
 * receipt (.eml transport) in the same process — against `createOrder` alone with no worker
 * (mail off). Both in the same run, rounds alternating.
 *
 * Load is open-loop: orders arrive at RATE_PER_S on a fixed schedule whether or not earlier
 * ones have finished (a closed loop would hide queueing delay), so the latency of each create
 * includes any time it waited behind the worker's work on the event loop.
 *
 * A last round runs the same delivery on the main thread instead, to show what moving it
 * into the mail thread buys.
 *
 * Target: p99 with mail on ≤ p99 with mail off + 5 ms. Redo at HTTP level
 * (POST /api/orders) once the route exists.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { NewOrder } from '../src/domain/order.js';
import { createLabelRenderer } from '../src/services/labels/renderer.js';
import { createDelivery, type Deliver } from '../src/services/notifier/delivery.js';
import { receiptJob } from '../src/services/notifier/jobs.js';
import { stopMailThread, threadedDelivery } from '../src/services/notifier/mail-thread-client.js';
import { createRenderer } from '../src/services/notifier/render.js';
import { fileTransport } from '../src/services/notifier/transports/file.js';
import { OutboxWorker } from '../src/services/notifier/worker.js';
import { openStore } from '../src/services/store/store.js';
import { median, percentile, printReport } from './lib/report.js';

/** Orders per second: 600 a minute, far above any convention rush, within what the mail thread renders. */
const RATE_PER_S = 10;
const PER_ROUND = 150;
const ROUNDS = 2;
const TARGET_MS = 5;

function order(i: number): NewOrder {
  const items = [
    { photoNumber: String(100 + (i % 50)), size: '4x6', quantity: 2, unitCents: 500, lineCents: 1000 },
    { photoNumber: String(200 + (i % 30)), size: '8x10', quantity: 1, unitCents: 2000, lineCents: 2000 },
  ];
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
    items,
    subtotalCents: 3000,
    shippingFeeCents: 500,
    totalCents: 3500,
    held: false,
    holdExpiresAt: null,
    addressVerified: true,
    channel: 'web',
  };
}

/** Starts `total` calls of `fn`, one every 1000/rate ms; returns each call's latency in ms. */
async function openLoop(total: number, rate: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const interval = 1000 / rate;
  const t0 = performance.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // Latency counts from when the order was due, so time spent waiting for a busy event loop counts.
    calls.push(
      fn(i).then(() => {
        latencies.push(performance.now() - due);
      }),
    );
  }
  await Promise.all(calls);
  return latencies;
}

export default async function (): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'notifier-bench-'));
  const store = await openStore({ engine: 'sqlite', file: path.join(dir, 'orders.db') });
  const returnAddress = 'Convention Photos\n123 Main St\nSpringfield, IL 62701';
  const business = {
    businessName: 'Convention Photos',
    mailFrom: 'Convention Photos <photos@example.com>',
    publicBaseUrl: 'http://localhost:3000',
    paymentInstructions: 'Pay at the booth.',
    returnAddress,
  };
  const render = createRenderer({
    getOrder: (ref) => store.orders.get(ref),
    business: async () => business,
    operatorEmail: 'booth@example.com',
  });
  const outbox = path.join(dir, 'outbox');
  let sent = 0;
  // Main-thread time the worker spends per mail outside delivery: claiming and marking jobs
  // (SQLite writes, each an fsync) and rendering the draft (an order read and some strings).
  let mainThreadMs = 0;
  const timedCall =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const started = performance.now();
      try {
        return await fn(...a);
      } finally {
        mainThreadMs += performance.now() - started;
      }
    };
  const outboxStore = {
    claimDue: timedCall(store.outbox.claimDue.bind(store.outbox)),
    markSent: timedCall(store.outbox.markSent.bind(store.outbox)),
    markFailed: timedCall(store.outbox.markFailed.bind(store.outbox)),
  };
  const makeWorker = (deliver: Deliver) => {
    const w = new OutboxWorker({
      store: outboxStore,
      render: timedCall(render),
      deliver,
      log: pino({ level: 'silent' }),
      retryBaseMs: 30_000,
      retryMaxMs: 3_600_000,
    });
    w.onOutcome((o) => {
      if (o.result === 'sent') sent++;
    });
    return w;
  };
  // What the plugin does: labels, MIME and the .eml write in the mail thread.
  const worker = makeWorker(threadedDelivery({ returnAddress, transports: [{ kind: 'file', dir: outbox }] }));
  // For comparison: the same delivery on the main thread.
  const inline = makeWorker(createDelivery(createLabelRenderer({ returnAddress }), [fileTransport(outbox)]));

  try {
    // Warm-up: SQLite statements, the mail thread (sharp, fonts, docx).
    for (let i = 0; i < 20; i++) await store.orders.create(order(i), { by: 'customer' });
    await store.orders.create(order(0), { by: 'customer', mail: [receiptJob('')] });
    await worker.flush();

    const off: number[] = [];
    const on: number[] = [];
    let n = 1000;
    let drainMs = 0;
    let sendingMs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      off.push(...(await openLoop(PER_ROUND, RATE_PER_S, () => store.orders.create(order(n++), { by: 'customer' }))));
      const onStarted = performance.now();
      on.push(
        ...(await openLoop(PER_ROUND, RATE_PER_S, async () => {
          await store.orders.create(order(n++), { by: 'customer', mail: [receiptJob('')] });
          worker.kick();
        })),
      );
      // Let the worker catch up before the next "off" round, so it runs undisturbed.
      const started = performance.now();
      await worker.flush();
      drainMs += performance.now() - started;
      sendingMs += performance.now() - onStarted;
    }
    const sentThreaded = sent;
    const mainMsPerMail = mainThreadMs / sentThreaded;

    // One round with delivery on the main thread, to show what the mail thread is for.
    await inline.flush();
    const inlineOn = await openLoop(PER_ROUND, RATE_PER_S, async () => {
      await store.orders.create(order(n++), { by: 'customer', mail: [receiptJob('')] });
      inline.kick();
    });
    await inline.flush();
    if ((await store.outbox.pendingCount()) !== 0) throw new Error('mail left unsent');

    const p99Off = percentile(off, 99);
    const p99On = percentile(on, 99);
    const delta = p99On - p99Off;
    printReport(
      `notifier: createOrder (+ receipt + kick) on SQLite at ${RATE_PER_S}/s, ${off.length} orders per mode`,
      [
        { name: 'createOrder p99, mail off (baseline)', value: p99Off, unit: 'ms' },
        { name: 'createOrder + receipt job + kick() p99, mail on', value: p99On, unit: 'ms', baseline: p99Off },
        {
          name: 'added to p99 by the notifier',
          value: delta,
          unit: 'ms',
          target: `<= ${TARGET_MS} ms`,
          pass: delta <= TARGET_MS,
        },
        { name: 'createOrder median, mail off', value: median(off), unit: 'ms' },
        { name: 'createOrder median, mail on', value: median(on), unit: 'ms', baseline: median(off) },
        {
          name: `mail on, delivery on the main thread instead, p99 (${inlineOn.length} orders)`,
          value: percentile(inlineOn, 99),
          unit: 'ms',
          baseline: p99Off,
        },
        { name: 'main-thread time per receipt: claim, draft, mark sent', value: mainMsPerMail, unit: 'ms' },
        { name: 'receipts sent (labels rendered, .eml written)', value: sent, unit: 'mails' },
        {
          name: 'receipts sent per second while busy (one mail thread)',
          value: (sentThreaded / sendingMs) * 1000,
          unit: 'mails/s',
        },
        { name: 'time to catch up after each mail-on round', value: drainMs / ROUNDS, unit: 'ms' },
        // Other processes on the machine skew every latency here; this says how busy it was.
        { name: 'machine load average (1 min) at the end', value: loadavg()[0] ?? 0, unit: '' },
      ],
    );
  } finally {
    await worker.abort();
    await inline.abort();
    await stopMailThread();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
