/**
 * Auto-print and restarts (docs/contract.md, "Printing at the booth"; docs/fulfilment.md, "What
 * a restart does") against a real IPP printer (CUPS' ippeveprinter): a pickup order marked paid
 * goes to the first idle printer for its size; a restart mid-job neither loses nor reprints it;
 * a send interrupted before its job id was recorded is found on the printer by its job name, or
 * sent again when it never arrived.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ippClient } from '../../../src/services/printing/ipp-client.js';
import { openStore } from '../../../src/services/store/store.js';
import { build, type TestApp } from '../../helpers/build.js';
import { AX, appWithEvents, call, orderIn } from '../../routes/admin/fixtures.js';
import { lineOf, photoNumber } from '../../support/fulfilment-apps.js';
import { ippPrinter } from '../../support/ipp-printer.js';
import { waitFor } from '../../support/photos-fixtures.js';

const PATIENCE_MS = 25_000;

async function autoPrintOn(app: TestApp): Promise<void> {
  const res = await call(app, {
    method: 'PUT',
    url: '/api/event-config',
    payload: { eventSlug: AX, autoPrint: 'pickup' },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().autoPrint).toBe('pickup');
}

async function markPaid(app: TestApp, orderId: string): Promise<void> {
  const res = await call(app, { method: 'PUT', url: `/api/orders/${orderId}`, payload: { status: 'paid' } });
  expect(res.statusCode, res.body).toBe(200);
}

const printedLines = async (app: TestApp, orderId: string) =>
  (await app.store.orders.get(orderId))?.printed.map((p) => [p.line, p.by]) ?? [];

test('a pickup order marked paid goes to the first idle printer holding its size; nothing else is auto-printed', async (t) => {
  const [first, second] = await Promise.all([
    ippPrinter(t, { sizes: ['4x6'], name: 'First' }),
    ippPrinter(t, { sizes: ['4x6'], name: 'Second' }),
  ]);
  const app = await appWithEvents(t, {
    env: { PRINTERS: `first=${first.url};sizes=4x6 second=${second.url};sizes=4x6`, PRINT_JOB_POLL_MS: '100' },
  });
  const n = photoNumber(app);
  // Paid before auto-print was turned on: waits for a person.
  const before = await orderIn(app, 'paid', { items: [lineOf(n, '4x6')], fulfillmentType: 'pickup' });
  // The first printer is busy (out of paper, a job held in it).
  await first.jam();
  const busy = await orderIn(app, 'paid', { items: [lineOf(n, '4x6')] });
  const held = await call(app, {
    method: 'POST',
    url: '/api/print-queue/print',
    payload: { itemIds: [`${busy.orderNumber}.1`], printer: 'first' },
  });
  expect(held.statusCode, held.body).toBe(200);
  await waitFor(async () => (await first.received()).length === 1, PATIENCE_MS, 'the held job');

  await autoPrintOn(app);
  const ships = await orderIn(app, 'pending', { items: [lineOf(n, '4x6')] });
  const pickup = await orderIn(app, 'pending', {
    items: [lineOf(n, '4x6', 2), lineOf(n, 'digital')],
    fulfillmentType: 'pickup',
  });
  await markPaid(app, ships.id);
  await markPaid(app, pickup.id);

  await waitFor(async () => (await printedLines(app, pickup.id)).length === 1, PATIENCE_MS, 'the auto-print');
  expect(await printedLines(app, pickup.id)).toEqual([[0, 'system']]);
  const received = await second.received();
  expect(received).toHaveLength(1);
  expect(received[0]?.attributes).toMatchObject({ IPP_COPIES: '2', IPP_MEDIA: 'na_index-4x6_4x6in' });
  expect(received[0]?.attributes.IPP_JOB_NAME).toMatch(new RegExp(`^${pickup.orderNumber}\\.1#`));
  const history = (await app.store.orders.get(pickup.id))?.history ?? [];
  expect(history.filter((h) => h.action === 'print-sent')).toEqual([
    expect.objectContaining({
      field: `${pickup.orderNumber}.1`,
      to: expect.stringMatching(/^second job \d+$/),
      by: 'system',
    }),
  ]);

  // The order paid before, and the one that ships, were not sent anywhere.
  expect(await app.store.printJobs.forItems([`${before.orderNumber}.1`, `${ships.orderNumber}.1`])).toEqual([]);
  expect(await first.received()).toHaveLength(1);
  await first.clear();
});

test('a restart while a job prints: followed to completed by the next run, printed once', async (t) => {
  const printer = await ippPrinter(t, { sizes: ['4x6'] });
  const env = { PRINTERS: `booth=${printer.url};sizes=4x6`, PRINT_JOB_POLL_MS: '100' };
  const app = await appWithEvents(t, { env });
  await autoPrintOn(app);
  await printer.jam();
  const order = await orderIn(app, 'pending', { items: [lineOf(photoNumber(app), '4x6')], fulfillmentType: 'pickup' });
  await markPaid(app, order.id);
  await waitFor(
    async () => (await app.store.printJobs.inFlight()).some((j) => j.state === 'queued'),
    PATIENCE_MS,
    'the printer to take the job',
  );
  await app.close();

  const next = await build(t, { dataDir: app.dataDir, env });
  await printer.clear();
  await waitFor(async () => (await printedLines(next, order.id)).length === 1, PATIENCE_MS, 'the job to complete');
  expect(await printedLines(next, order.id)).toEqual([[0, 'system']]);
  expect(await printer.received()).toHaveLength(1);
  const history = (await next.store.orders.get(order.id))?.history ?? [];
  expect(history.filter((h) => h.action === 'printed')).toHaveLength(1);
  expect(history.filter((h) => h.action === 'print-sent')).toHaveLength(1);
  expect(await next.store.printJobs.inFlight()).toEqual([]);
});

test('sends interrupted before the job id was recorded: the one that arrived is found by name, the other sent again', async (t) => {
  const printer = await ippPrinter(t, { sizes: ['4x6'] });
  // The first run has no printers (nothing is sent by it), only the orders and the setting.
  const app = await appWithEvents(t);
  await autoPrintOn(app);
  const n = photoNumber(app);
  const arrived = await orderIn(app, 'pending', { items: [lineOf(n, '4x6')], fulfillmentType: 'pickup' });
  const lost = await orderIn(app, 'pending', { items: [lineOf(n, '4x6', 3)], fulfillmentType: 'pickup' });
  await markPaid(app, arrived.id);
  await markPaid(app, lost.id);
  await app.close();
  const document = (await printerFile(app, arrived.orderNumber)) as Buffer;

  // What a process stopped between the Print-Job and recording its answer leaves behind:
  // both lines `sending`; the first one's job reached the printer.
  const store = await openStore({ engine: 'sqlite', file: path.join(app.dataDir, 'orders.db') });
  const job = (order: typeof arrived) => ({
    itemId: `${order.orderNumber}.1`,
    orderId: order.id,
    line: 0,
    orderNumber: order.orderNumber,
    eventSlug: AX,
    printer: 'booth',
    size: '4x6',
    copies: order.items[0]?.quantity ?? 1,
    auto: true,
    by: 'system',
    runId: 'the-run-that-stopped',
  });
  const { begun } = await store.printJobs.begin([job(arrived), job(lost)]);
  const client = ippClient({ name: 'booth', url: printer.url, sizes: ['4x6'], tls: 'verify' }, { timeoutMs: 5000 });
  const reached = await client.print({
    document,
    documentFormat: 'image/jpeg',
    media: 'na_index-4x6_4x6in',
    copies: 1,
    jobName: begun[0]?.jobName as string,
    user: 'auto-print',
  });
  client.close();
  await store.close();

  const next = await build(t, {
    dataDir: app.dataDir,
    env: { PRINTERS: `booth=${printer.url};sizes=4x6`, PRINT_JOB_POLL_MS: '100' },
  });
  await waitFor(
    async () => (await printedLines(next, arrived.id)).length === 1 && (await printedLines(next, lost.id)).length === 1,
    PATIENCE_MS,
    'both lines printed',
  );
  const jobs = await next.store.printJobs.forItems([`${arrived.orderNumber}.1`, `${lost.orderNumber}.1`]);
  // Both were recorded in the same instant: compared in a fixed order.
  expect(jobs.map((j) => [j.itemId, j.state, j.jobId === reached.jobId]).sort()).toEqual([
    [`${arrived.orderNumber}.1`, 'completed', true],
    [`${lost.orderNumber}.1`, 'completed', false],
    [`${lost.orderNumber}.1`, 'unsent', false],
  ]);
  // Each line reached the printer once.
  const received = await printer.received();
  expect(received.map((r) => r.attributes.IPP_COPIES).sort()).toEqual(['1', '3']);
  const lostHistory = (await next.store.orders.get(lost.id))?.history ?? [];
  expect(lostHistory.filter((h) => h.action === 'print-failed')).toEqual([
    expect.objectContaining({ to: expect.stringContaining('never took the job'), by: 'system' }),
  ]);
});

/** A print file as the server makes it (GET /api/print-files), the first in the ZIP. */
async function printerFile(app: TestApp, orderNumber: string): Promise<Buffer | undefined> {
  const { readZip } = await import('../../support/fulfilment-fixtures.js');
  const restarted = await build({ onTestFinished: () => {} } as never, { dataDir: app.dataDir });
  try {
    const res = await call(restarted, { url: `/api/orders/${orderNumber}/print-files` });
    const { names, files } = readZip(res.rawPayload);
    const file = files[names[0] as string];
    return file ? Buffer.from(file) : undefined;
  } finally {
    await restarted.close();
  }
}
