/**
 * `npm run bench -- batch-labels`: the labels of 500 orders as one PDF
 * (`GET /api/labels/batch`'s renderer, compiled), the orders of bench/labels.bench.ts (1-40
 * lines, short and 100-character names, Latin, accented and CJK, ship and pickup).
 *
 * Baseline, in the same run: pdfkit writing a 500-page PDF of 6 × 4 in pages with the same
 * embedded fonts and one short line per page — the floor of the library (font subsetting,
 * page objects, compression); the rest is laying out the labels.
 * Target: ≤ 0.8 s per 100 labels (wall time, median of 3 rounds). CPU time is printed too.
 */

import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import { order } from './labels.bench.js';
import { importBuilt } from './lib/built.js';
import { median, printReport } from './lib/report.js';

const ORDERS = 500;
const ROUNDS = 3;
const TARGET_S_PER_100 = 0.8;

type Sample = { wall: number; cpu: number; bytes: number };

async function timed(fn: () => Promise<Buffer>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const pdf = await fn();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, bytes: pdf.length };
}

export default async function batchLabelsBench(): Promise<void> {
  const [{ createLabelRenderer }, { FONT_FILES }] = await Promise.all([
    importBuilt<typeof import('../src/services/labels/renderer.js')>('services/labels/renderer.js'),
    importBuilt<typeof import('../src/lib/font.js')>('lib/font.js'),
  ]);
  const renderer = createLabelRenderer({ returnAddress: 'Convention Photos\n123 Main St\nSpringfield, IL 62701' });
  const orders = Array.from({ length: ORDERS }, (_, i) => order(i));
  const fonts = { regular: await readFile(FONT_FILES.regular), bold: await readFile(FONT_FILES.bold) };

  const floor = () => {
    const doc = new PDFDocument({ autoFirstPage: false, margin: 0, compress: true });
    doc.registerFont('r', fonts.regular);
    doc.registerFont('b', fonts.bold);
    for (const o of orders) {
      doc.addPage({ size: [432, 288], margin: 0 });
      doc.font('b').fontSize(11).text(o.orderNumber, 14, 12, { lineBreak: false });
    }
    doc.end();
    return buffer(doc);
  };

  // Warm-up: the JIT, the font files.
  await buffer(await renderer.batchPdf(orders.slice(0, 20)));
  await floor();

  const base: Sample[] = [];
  const labels: Sample[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    base.push(await timed(floor));
    labels.push(await timed(async () => buffer(await renderer.batchPdf(orders))));
  }
  const per100 = (s: Sample[], k: 'wall' | 'cpu') => median(s.map((x) => x[k])) / 1000 / (ORDERS / 100);
  const wall = per100(labels, 'wall');
  printReport(`batch labels: ${ORDERS} orders as one PDF (median of ${ROUNDS})`, [
    {
      name: 'labels PDF, seconds per 100 labels',
      value: wall,
      unit: 's',
      baseline: per100(base, 'wall'),
      target: `<= ${TARGET_S_PER_100} s`,
      pass: wall <= TARGET_S_PER_100,
    },
    { name: '  CPU time per 100 labels', value: per100(labels, 'cpu'), unit: 's', baseline: per100(base, 'cpu') },
    { name: `  the whole PDF of ${ORDERS} labels`, value: median(labels.map((s) => s.wall)) / 1000, unit: 's' },
    { name: '  PDF size', value: (labels[0]?.bytes ?? 0) / 1e6, unit: 'MB' },
  ]);
  process.stdout.write(
    `  (load average while measuring: ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores)\n`,
  );
}
