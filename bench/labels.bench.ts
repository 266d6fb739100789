/**
 * Label rendering (docs/contract.md, "Labels"): median time to render one PNG and one DOCX label over 50
 * orders of varied size (1-40 lines, short and 100-character names, Latin, accented and
 * CJK, ship and pickup), one at a time, after one warm-up label (which builds the cached
 * base layer: page, rule, box frame, captions, return address).
 *
 * Baselines, measured in the same run:
 * - PNG: sharp encoding a blank 1800 × 1200 grey page with the same PNG settings — the
 *   floor any PNG label of that size pays; the rest is setting the two text blocks.
 * - DOCX: `docx` packing a document with one empty paragraph — the floor of the library
 *   (parts, styles, zip); the rest is the label's paragraphs and table.
 *
 * Targets: PNG median ≤ 50 ms, DOCX median ≤ 30 ms (wall time). CPU time per label is printed
 * too: on a shared, busy machine it shows what a label costs without the wait for a core.
 */
import os from 'node:os';
import { Document, Packer, Paragraph } from 'docx';
import sharp from 'sharp';
import type { OrderLine, OrderRecord } from '../src/domain/order.js';
import { LABEL_HEIGHT, LABEL_WIDTH } from '../src/services/labels/png.js';
import { createLabelRenderer } from '../src/services/labels/renderer.js';
import { median, percentile, printReport } from './lib/report.js';

const ORDERS = 50;
const PNG_TARGET_MS = 50;
const DOCX_TARGET_MS = 30;

const NAMES = [
  'Jane Q. Customer',
  'Élodie Müller-Lefèvre',
  '山田 太郎',
  'やまだ はなこ',
  'Maximiliana Wolfeschlegelsteinhausenbergerdorff-Ó Súilleabháin y Castellanos de la Vega Montoya Jr.',
  'Bob',
  "O'Brien & Daughters <Photo Club>",
  'Nguyễn Thị Minh Khai',
];

function lines(count: number, seed: number): OrderLine[] {
  const sizes = ['4x6', '5x7', '8x10'];
  return Array.from({ length: count }, (_, i) => {
    const quantity = ((i + seed) % 5) + 1;
    return {
      photoNumber: String(1000 + seed * 7 + i),
      size: sizes[(i + seed) % 3] as string,
      quantity,
      unitCents: 500,
      lineCents: 500 * quantity,
    };
  });
}

export function order(i: number): OrderRecord {
  // Mostly small orders, as at a booth; every tenth is a big one (up to 40 lines).
  const count = i % 10 === 9 ? 40 - (i % 7) : (i % 4) + 1;
  const items = lines(count, i);
  const subtotal = items.reduce((s, l) => s + l.lineCents, 0);
  const pickup = i % 6 === 5;
  return {
    id: `bench-${i}`,
    orderNumber: `BN26-${String(i + 1).padStart(4, '0')}`,
    eventSlug: 'BENCH2026',
    createdAt: '2026-07-03T18:00:00.000Z',
    updatedAt: '2026-07-03T18:00:00.000Z',
    customerName: `${NAMES[i % NAMES.length]}${i % 3 === 0 ? '' : ` ${i}`}`.slice(0, 100),
    customerEmail: `customer${i}@example.com`,
    customerPhone: '',
    fulfillmentType: pickup ? 'pickup' : 'ship',
    shippingAddress: pickup
      ? ''
      : i % 5 === 4
        ? `${i} North Extraordinarily Long Boulevard Name Extension, Building 17, Suite ${i}00`
        : `${100 + i} Main St`,
    city: pickup ? '' : 'Springfield',
    state: pickup ? '' : 'IL',
    zipCode: pickup ? '' : '62701-1234',
    items,
    subtotalCents: subtotal,
    shippingFeeCents: pickup ? 0 : 500,
    totalCents: subtotal + (pickup ? 0 : 500),
    status: 'pending',
    shippingStatus: pickup ? 'pickup' : 'ship',
    trackingNumber: '',
    feedback: '',
    held: false,
    holdExpiresAt: null,
    addressVerified: !pickup,
    channel: 'web',
    version: 1,
    history: [],
    discountCents: 0,
    couponCode: null,
    payment: null,
    pickupStatus: pickup ? 'waiting' : null,
    printed: [],
  };
}

type Sample = { wall: number; cpu: number };

/** Wall time and process CPU time (all threads: JS and libvips) of each call, one at a time. */
async function timeEach<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const item of items) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await fn(item);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    samples.push({ wall, cpu: (used.user + used.system) / 1000 });
  }
  return samples;
}

const wall = (s: Sample[]) => s.map((x) => x.wall);
const cpu = (s: Sample[]) => s.map((x) => x.cpu);

export default async function labelsBench(): Promise<void> {
  const renderer = createLabelRenderer({ returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701' });
  const orders = Array.from({ length: ORDERS }, (_, i) => order(i));

  // Warm-up: the base layer, the font files, the JIT.
  await renderer.png(order(999));
  await renderer.docx(order(999));

  const blank = Buffer.alloc(LABEL_WIDTH * LABEL_HEIGHT, 255);
  const pngBaseline = await timeEach(orders, () =>
    sharp(blank, { raw: { width: LABEL_WIDTH, height: LABEL_HEIGHT, channels: 1 } })
      .withDensity(300)
      .png({ compressionLevel: 6 })
      .toBuffer(),
  );
  const png = await timeEach(orders, (o) => renderer.png(o));
  const docxBaseline = await timeEach(orders, () =>
    Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('')] }] })),
  );
  const docx = await timeEach(orders, (o) => renderer.docx(o));
  const big = orders.filter((o) => o.items.length >= 30);
  const pngBig = await timeEach(big, (o) => renderer.png(o));
  const docxBig = await timeEach(big, (o) => renderer.docx(o));

  const pngMedian = median(wall(png));
  const docxMedian = median(wall(docx));
  printReport(`labels: ${ORDERS} orders (1-40 lines, ${big.length} with 30+), one at a time`, [
    {
      name: 'PNG label median',
      value: pngMedian,
      unit: 'ms',
      baseline: median(wall(pngBaseline)),
      target: `<= ${PNG_TARGET_MS} ms`,
      pass: pngMedian <= PNG_TARGET_MS,
    },
    { name: 'PNG label p95', value: percentile(wall(png), 95), unit: 'ms' },
    { name: `PNG label median, ${big.length} orders of 30+ lines`, value: median(wall(pngBig)), unit: 'ms' },
    {
      name: 'PNG label median CPU time (all threads)',
      value: median(cpu(png)),
      unit: 'ms',
      baseline: median(cpu(pngBaseline)),
    },
    {
      name: 'DOCX label median',
      value: docxMedian,
      unit: 'ms',
      baseline: median(wall(docxBaseline)),
      target: `<= ${DOCX_TARGET_MS} ms`,
      pass: docxMedian <= DOCX_TARGET_MS,
    },
    { name: 'DOCX label p95', value: percentile(wall(docx), 95), unit: 'ms' },
    { name: `DOCX label median, ${big.length} orders of 30+ lines`, value: median(wall(docxBig)), unit: 'ms' },
    { name: 'DOCX label median CPU time', value: median(cpu(docx)), unit: 'ms', baseline: median(cpu(docxBaseline)) },
  ]);
  // On a shared machine wall times include waiting for a core; CPU time does not.
  process.stdout.write(
    `  (load average while measuring: ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores)\n`,
  );
}
