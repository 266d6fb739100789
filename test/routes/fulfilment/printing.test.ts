/**
 * Printing at the booth (docs/contract.md, "Printing at the booth") against real IPP printers:
 * two CUPS `ippeveprinter` instances (a 4x6 one, a 5x7 + 8x10 one), their spool opened to see
 * what arrived, jobs followed to completed and to canceled, media-empty on the dashboard's API,
 * and printers that do not answer (nothing listening; a socket that never answers).
 */
import net from 'node:net';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { actorFor } from '../../../src/domain/roles.js';
import { ippClient } from '../../../src/services/printing/ipp-client.js';
import { ADMIN_TOKEN, type TestApp } from '../../helpers/build.js';
import { freePort } from '../../support/free-port.js';
import { lineOf, photoNumber } from '../../support/fulfilment-apps.js';
import { type IppPrinter, ippPrinter } from '../../support/ipp-printer.js';
import { waitFor } from '../../support/photos-fixtures.js';
import { AX, appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const ADMIN = actorFor('owner', ADMIN_TOKEN);
/** Waits for printers and the server on a loaded machine: the test's own timeout bounds them. */
const PATIENCE_MS = 25_000;

type Printers = { small: IppPrinter; big: IppPrinter };

async function twoPrinters(t: Parameters<typeof ippPrinter>[0]): Promise<Printers> {
  const [small, big] = await Promise.all([
    ippPrinter(t, { sizes: ['4x6'], name: 'Booth 4x6' }),
    ippPrinter(t, { sizes: ['5x7', '8x10'], name: 'Booth big' }),
  ]);
  return { small, big };
}

function printersEnv(p: Printers, extra: Record<string, string> = {}) {
  return {
    PRINTERS: `small=${p.small.url};sizes=4x6\nbig=${p.big.url};sizes=5x7,8x10`,
    PRINT_JOB_POLL_MS: '100',
    ...extra,
  };
}

async function queueIds(app: TestApp): Promise<string[]> {
  const res = await call(app, { url: '/api/print-queue' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.map((i: { itemId: string }) => i.itemId);
}

const print = (app: TestApp, payload: unknown) => call(app, { method: 'POST', url: '/api/print-queue/print', payload });

test('prints each line on the printer holding its size; the files, dpi, media and copies arrive; completed → printed', async (t) => {
  const printers = await twoPrinters(t);
  const app = await appWithEvents(t, { env: printersEnv(printers) });
  const n = photoNumber(app);
  const order = await orderIn(app, 'paid', {
    items: [lineOf(n, '4x6', 2), lineOf(n, '5x7'), { ...lineOf(n, '8x10', 3), crop: { x: 0, y: 0.5 } }],
  });
  const ids = await queueIds(app);
  expect(ids).toEqual([1, 2, 3].map((l) => `${order.orderNumber}.${l}`));

  const res = await print(app, { itemIds: ids });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.jobs.map((j: { itemId: string; printer: string }) => [j.itemId, j.printer])).toEqual([
    [ids[0], 'small'],
    [ids[1], 'big'],
    [ids[2], 'big'],
  ]);
  expect(body.jobs.every((j: { jobId: unknown }) => Number.isInteger(j.jobId))).toBe(true);
  expect(body.notSent).toEqual([]);

  // Completed at the printer → printed: the lines leave the queue, the history says who and where.
  await waitFor(async () => (await queueIds(app)).length === 0, PATIENCE_MS, 'the lines to be printed');
  const after = await app.store.orders.get(order.id);
  // The two printers finish in either order.
  expect(after?.printed.map((p) => [p.line, p.by]).sort()).toEqual([
    [0, ADMIN],
    [1, ADMIN],
    [2, ADMIN],
  ]);
  const sent = after?.history.filter((h) => h.action === 'print-sent') ?? [];
  expect(sent.map((h) => [h.field, h.to?.replace(/\d+$/, 'N'), h.by])).toEqual([
    [ids[0], 'small job N', ADMIN],
    [ids[1], 'big job N', ADMIN],
    [ids[2], 'big job N', ADMIN],
  ]);

  // What each printer received: the §14 print file at 300 dpi, the size's media, copies = quantity.
  const small = await printers.small.received();
  const big = await printers.big.received();
  expect(small).toHaveLength(1);
  expect(big).toHaveLength(2);
  const expected = [
    { job: small[0], width: 1800, height: 1200, media: 'na_index-4x6_4x6in', copies: '2' },
    { job: big[0], width: 2100, height: 1500, media: 'na_5x7_5x7in', copies: '1' },
    { job: big[1], width: 3000, height: 2400, media: 'na_govt-letter_8x10in', copies: '3' },
  ];
  for (const e of expected) {
    const meta = await sharp(e.job?.document).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: e.width, height: e.height, density: 300 });
    expect(e.job?.attributes).toMatchObject({
      IPP_MEDIA: e.media,
      IPP_COPIES: e.copies,
      CONTENT_TYPE: 'image/jpeg',
    });
  }
  expect(big[1]?.attributes.IPP_JOB_NAME).toMatch(new RegExp(`^${ids[2]?.replace('.', '\\.')}#`));

  const status = await call(app, { url: '/api/printers' });
  expect(status.statusCode, status.body).toBe(200);
  expect(status.json().printers).toEqual([
    expect.objectContaining({ name: 'small', sizes: ['4x6'], state: 'idle', stateReasons: [], queuedJobs: 0 }),
    expect.objectContaining({ name: 'big', sizes: ['5x7', '8x10'], state: 'idle', stateReasons: [] }),
  ]);
  expect(status.json().jobs).toEqual([]);
  expect(
    status
      .json()
      .recent.map((j: { itemId: string; state: string }) => [j.itemId, j.state])
      .sort(),
  ).toEqual(ids.map((id) => [id, 'completed']));
});

test('out of paper: media-empty on the dashboard, the job in flight; cancelled at the printer → back in the queue with the reason', async (t) => {
  const printers = await twoPrinters(t);
  const app = await appWithEvents(t, { env: printersEnv(printers) });
  const n = photoNumber(app);
  const order = await orderIn(app, 'paid', { items: [lineOf(n, '4x6')] });
  const [id] = await queueIds(app);
  await printers.small.jam();

  const res = await print(app, { itemIds: [id], printer: 'small' });
  expect(res.statusCode, res.body).toBe(200);
  const jobId = res.json().jobs[0].jobId as number;

  let seen: { printers: { name: string; state: string; stateReasons: string[] }[] } | undefined;
  await waitFor(
    async () => {
      seen = (await call(app, { url: '/api/printers' })).json();
      return seen?.printers[0]?.stateReasons.includes('media-empty') === true;
    },
    PATIENCE_MS,
    'media-empty',
  );
  expect(seen?.printers[0]).toMatchObject({ name: 'small', state: 'processing', stateReasons: ['media-empty'] });
  expect(seen?.printers[1]).toMatchObject({ name: 'big', state: 'idle', stateReasons: [] });
  const status = (await call(app, { url: '/api/printers' })).json();
  expect(status.jobs).toEqual([
    expect.objectContaining({ itemId: id, printer: 'small', jobId, state: 'queued', orderNumber: order.orderNumber }),
  ]);
  const queued = (await call(app, { url: '/api/print-queue' })).json().items;
  expect(queued[0]).toMatchObject({ itemId: id, printing: { printer: 'small', jobId, state: 'queued' } });

  // Pressing Print again while it prints sends nothing twice.
  const again = await print(app, { itemIds: [id] });
  expectError(again, 409, 'ALREADY_PRINTING');

  // The photographer cancels the job on the printer.
  const client = ippClient(
    { name: 'small', url: printers.small.url, sizes: ['4x6'], tls: 'verify' },
    { timeoutMs: 5000 },
  );
  t.onTestFinished(() => client.close());
  await client.cancel(jobId);
  await printers.small.clear();

  await waitFor(
    async () => (await call(app, { url: '/api/printers' })).json().jobs.length === 0,
    PATIENCE_MS,
    'the job to end',
  );
  const back = (await call(app, { url: '/api/print-queue' })).json().items;
  expect(back).toEqual([expect.objectContaining({ itemId: id, printing: null })]);
  const after = await app.store.orders.get(order.id);
  expect(after?.printed).toEqual([]);
  const failed = after?.history.filter((h) => h.action === 'print-failed') ?? [];
  expect(failed).toEqual([
    expect.objectContaining({ field: id, by: ADMIN, to: expect.stringContaining(`small job ${jobId} canceled`) }),
  ]);
  expect(failed[0]?.to).toContain('job-canceled-by-user');
  const recent = (await call(app, { url: '/api/printers' })).json().recent;
  expect(recent[0]).toMatchObject({ itemId: id, state: 'canceled' });
});

test('a printer that does not answer: unreachable on the dashboard, 503 PRINTER_UNAVAILABLE and nothing marked', async (t) => {
  const nothing = await freePort();
  // Accepts connections and never says a word.
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.onTestFinished(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const silentPort = (silent.address() as net.AddressInfo).port;
  const app = await appWithEvents(t, {
    env: {
      PRINTERS: `gone=ipp://127.0.0.1:${nothing}/ipp/print;sizes=4x6 mute=ipp://127.0.0.1:${silentPort}/ipp/print;sizes=5x7`,
      PRINTER_TIMEOUT_MS: '300',
    },
  });
  const n = photoNumber(app);
  const order = await orderIn(app, 'paid', { items: [lineOf(n, '4x6'), lineOf(n, '5x7')] });
  const [small, big] = await queueIds(app);

  const status = await call(app, { url: '/api/printers' });
  expect(status.statusCode, status.body).toBe(200);
  expect(status.json().printers).toEqual([
    expect.objectContaining({ name: 'gone', state: 'unreachable', stateReasons: [], queuedJobs: null }),
    expect.objectContaining({ name: 'mute', state: 'unreachable', message: expect.stringContaining('no answer') }),
  ]);

  expectError(await print(app, { itemIds: [small] }), 503, 'PRINTER_UNAVAILABLE');
  expectError(await print(app, { itemIds: [big] }), 503, 'PRINTER_UNAVAILABLE');
  expectError(await print(app, { itemIds: [small, big] }), 503, 'PRINTER_UNAVAILABLE');

  const after = await app.store.orders.get(order.id);
  expect(after?.printed).toEqual([]);
  expect(after?.history.map((h) => h.action)).toEqual(order.history.map((h) => h.action));
  expect(await app.store.printJobs.inFlight()).toEqual([]);
  expect((await call(app, { url: '/api/print-queue' })).json().items).toHaveLength(2);
});

test('refusals: unknown lines, printers and sizes are 4xx before anything is sent; printed lines are not sent again', async (t) => {
  const printers = await twoPrinters(t);
  const app = await appWithEvents(t, { env: printersEnv(printers) });
  const n = photoNumber(app);
  const order = await orderIn(app, 'paid', { items: [lineOf(n, '4x6'), lineOf(n, '8x10')] });
  const [small, big] = (await queueIds(app)) as [string, string];

  expectError(await print(app, { itemIds: [small], printer: 'nope' }), 404, 'PRINTER_NOT_FOUND');
  const lacks = await print(app, { itemIds: [big], printer: 'small' });
  expectError(lacks, 409, 'PRINTER_LACKS_SIZE');
  expect(lacks.json().error).toBe('small holds 4x6, not 8x10');
  expectError(await print(app, { itemIds: [`${order.orderNumber}.9`] }), 400, 'VALIDATION_FAILED');
  expectError(await print(app, { itemIds: ['not-an-id'] }), 400, 'VALIDATION_FAILED');
  expectError(await print(app, { itemIds: [] }), 400, 'VALIDATION_FAILED');
  expectError(await print(app, { itemIds: [small], copies: 3 }), 400, 'VALIDATION_FAILED');
  expect(await printers.small.received()).toEqual([]);
  expect(await printers.big.received()).toEqual([]);

  await app.store.orders.markPrinted(new Map([[order.id, [0]]]), { by: ADMIN });
  expectError(await print(app, { itemIds: [small] }), 409, 'NOTHING_TO_PRINT');
  const both = await print(app, { itemIds: [small, big] });
  expect(both.statusCode, both.body).toBe(200);
  expect(both.json().notSent).toEqual([{ itemId: small, reason: 'printed already' }]);
  expect(both.json().jobs).toEqual([{ itemId: big, printer: 'big', jobId: expect.any(Number) }]);

  // A printer holding no size of the event's lines, and no printers at all.
  const bare = await appWithEvents(t, { env: { PRINTERS: '' } });
  await orderIn(bare, 'paid', { items: [lineOf(photoNumber(bare), '4x6')] });
  const bareRes = await print(bare, { itemIds: await queueIds(bare) });
  expectError(bareRes, 409, 'PRINTER_LACKS_SIZE');
  expect(bareRes.json().error).toContain('PRINTERS is not set');
  expect((await call(bare, { url: '/api/printers' })).json()).toEqual({ printers: [], jobs: [], recent: [] });
  expect(AX).toBe('AX2025');
});
