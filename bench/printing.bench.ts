/**
 * `npm run bench -- printing`: auto-print at the booth (docs/contract.md, "Printing at the booth").
 *
 * - A real IPP printer: CUPS' `ippeveprinter` (test/support/ipp-printer.ts finds or unpacks it),
 *   holding 4x6 paper. The app (compiled, `dist/`) in this process, with PRINTERS naming it and
 *   auto-print on for the event; a library of 8 camera-like 24 MP originals.
 * - Every 6 s (10 orders a minute, as a busy booth at its peak) a pickup order of two 4x6 lines
 *   is created and marked paid through `PUT /api/orders/{id}`. Measured per line: from the
 *   moment "Mark paid" is sent to the printer's answer to the Print-Job (its job id), minus the
 *   time its print file took to render (which the server logs beside it, and which is
 *   printed on its own: a decode of a 24 MP original).
 * - Meanwhile a few visitors browse: the gallery page 20 times a second. Its p99 is compared
 *   with the same load just before, without printing (the same-run baseline).
 *
 * Targets: paid → accepted by the printer, render excluded, p99 ≤ 2 s; gallery p99 while
 * printing within 1.5× (and 20 ms) of the baseline. PRINTING_BENCH_ORDERS (default 12) orders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startIppPrinter } from '../test/support/ipp-printer.js';
import { writeEventJson, writePhoto } from '../test/support/photos-fixtures.js';
import { builtApp } from './lib/built.js';
import { cachedOriginals } from './lib/originals.js';
import { percentile, printReport } from './lib/report.js';

const EVENT = 'PRINTBENCH';
const TOKEN = 'bench-admin-token-0123456789abcdef';
const ORDERS = Number(process.env.PRINTING_BENCH_ORDERS ?? 12);
const ORDER_EVERY_MS = 6000;
const GALLERY_PER_S = 20;
const BASELINE_S = 20;

type Accepted = { itemId: string; time: number; renderMs: number };

function get(port: number, urlPath: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** The gallery page, GALLERY_PER_S times a second, until stopped: its latencies. */
function visitors(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8, scheduling: 'fifo' });
  const latencies: number[] = [];
  let errors = 0;
  const timer = setInterval(() => {
    const started = performance.now();
    get(port, `/event/${EVENT}?limit=50`, agent).then(
      (status) => {
        if (status === 200) latencies.push(performance.now() - started);
        else errors++;
      },
      () => errors++,
    );
  }, 1000 / GALLERY_PER_S);
  return {
    stop() {
      clearInterval(timer);
      agent.destroy();
      return { latencies, errors };
    },
  };
}

function request(
  port: number,
  method: string,
  urlPath: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

export default async function printingBench(): Promise<void> {
  const printer = await startIppPrinter({ sizes: ['4x6'], name: 'Bench 4x6' });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'printing-bench-'));
  const photosDir = path.join(dir, 'photos');
  const originals = await cachedOriginals(8);
  for (const [i, file] of originals.entries()) {
    const { readFile } = await import('node:fs/promises');
    await writePhoto(
      photosDir,
      [EVENT, 'Day 1', 'Stage', `IMG_${String(i + 1).padStart(4, '0')}.jpg`],
      await readFile(file),
    );
  }
  await writeEventJson(photosDir, EVENT, { name: 'Print bench', prefix: 'PB', prices: { '4x6': 5 } });

  const accepted: Accepted[] = [];
  let partial = '';
  const logs = new Writable({
    write(chunk, _enc, done) {
      const lines = (partial + String(chunk)).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.includes('print job accepted by the printer'))) {
        const entry = JSON.parse(line) as { itemId?: string; renderMs?: number };
        accepted.push({ itemId: entry.itemId as string, time: performance.now(), renderMs: entry.renderMs ?? 0 });
      }
      done();
    },
  });
  const { buildApp, loadConfig } = await builtApp();
  const app = await buildApp(
    loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATA_DIR: path.join(dir, 'data'),
      PHOTOS_DIR: photosDir,
      DEMO_LIBRARY: 'off',
      LIBRARY_RESCAN_INTERVAL_MS: '0',
      INTAKE_INSPECT: 'off',
      ADMIN_TOKENS: TOKEN,
      PRINTERS: `booth=${printer.url};sizes=4x6`,
      PRINT_JOB_POLL_MS: '500',
    }),
    { level: 'info', stream: logs },
  );
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    await app.photos.ready();
    const port = (app.server.address() as { port: number }).port;
    const numbers = (app.photos.photosOf(EVENT) ?? []).map((p) => p.number);
    const on = await request(port, 'PUT', '/api/event-config', { eventSlug: EVENT, autoPrint: 'pickup' });
    if (on.status !== 200) throw new Error(`autoPrint: ${on.status}`);

    // Baseline: the gallery alone.
    const alone = visitors(port);
    await new Promise((r) => setTimeout(r, BASELINE_S * 1000));
    const baseline = alone.stop();

    // Printing: an order every ORDER_EVERY_MS, the gallery still browsed.
    const during = visitors(port);
    const paidAt = new Map<string, number>();
    for (let i = 0; i < ORDERS; i++) {
      const tick = new Promise((r) => setTimeout(r, ORDER_EVERY_MS));
      const line = (k: number) => ({
        photoNumber: numbers[(2 * i + k) % numbers.length] as string,
        size: '4x6',
        quantity: 1,
        unitCents: 500,
        lineCents: 500,
      });
      const order = await app.store.orders.create(
        {
          prefix: 'PB',
          eventSlug: EVENT,
          customerName: 'Bench',
          customerEmail: 'bench@example.com',
          customerPhone: '',
          fulfillmentType: 'pickup',
          shippingAddress: '',
          city: '',
          state: '',
          zipCode: '',
          items: [line(0), line(1)],
          subtotalCents: 1000,
          shippingFeeCents: 0,
          totalCents: 1000,
          held: false,
          holdExpiresAt: null,
          addressVerified: null,
          channel: 'booth',
        },
        { by: 'customer' },
      );
      const started = performance.now();
      const paid = await request(port, 'PUT', `/api/orders/${order.id}`, { status: 'paid' });
      if (paid.status !== 200) throw new Error(`mark paid: ${paid.status}`);
      paidAt.set(`${order.orderNumber}.1`, started);
      paidAt.set(`${order.orderNumber}.2`, started);
      await tick;
    }
    // The last order's prints.
    const deadline = Date.now() + 180_000;
    while (accepted.length < paidAt.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const printing = during.stop();

    const latencies = accepted.flatMap((a) => {
      const at = paidAt.get(a.itemId);
      return at === undefined ? [] : [a.time - at - a.renderMs];
    });
    const renders = accepted.map((a) => a.renderMs);
    const p99 = percentile(latencies, 99);
    const galleryBase = percentile(baseline.latencies, 99);
    const galleryPrinting = percentile(printing.latencies, 99);
    printReport(`printing: ${ORDERS} pickup orders (2 × 4x6 from 24 MP originals), one every 6 s`, [
      { name: 'lines sent to the printer', value: accepted.length, unit: `of ${paidAt.size}` },
      { name: 'paid → accepted by the printer, render excluded: p50', value: percentile(latencies, 50), unit: 'ms' },
      {
        name: 'paid → accepted by the printer, render excluded: p99',
        value: p99,
        unit: 'ms',
        target: '<= 2000 ms',
        pass: p99 <= 2000,
      },
      { name: 'render of a print file (beside it): p50', value: percentile(renders, 50), unit: 'ms' },
      { name: 'render of a print file: p99', value: percentile(renders, 99), unit: 'ms' },
      { name: 'gallery p99 without printing (baseline)', value: galleryBase, unit: 'ms' },
      {
        name: 'gallery p99 while printing',
        value: galleryPrinting,
        unit: 'ms',
        baseline: galleryBase,
        target: '<= 1.5x baseline (or +20 ms)',
        pass: galleryPrinting <= Math.max(1.5 * galleryBase, galleryBase + 20),
      },
      { name: 'gallery errors (baseline / printing)', value: baseline.errors + printing.errors, unit: '' },
    ]);
    const received = await printer.received();
    process.stdout.write(`  the printer received ${received.length} jobs\n`);
  } finally {
    await app.close();
    await printer.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
