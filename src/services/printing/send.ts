/**
 * Sending order lines to the booth's printers (docs/contract.md, "Printing at the booth").
 * Each line is recorded `sending` (durably) before its Print-Job goes out. On failure: refused
 * by the printer, the line is back in the queue with the printer's words in its history;
 * connection refused (nothing arrived), `unsent`; no answer after the document went out (it
 * may have arrived), left `sending` for follow.ts, which looks for the job by its unique name.
 */
import { type Actor, itemId as itemIdOf, type OrderLine } from '../../domain/order.js';
import { mediaFor, type PrinterEntry } from '../../domain/printers.js';
import { sizeKey } from '../../domain/prints.js';
import { appError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { PrintFiles, PrintJob, RenderedPrint } from '../prints/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PrintJobRecord, PrintJobsPort } from '../store/ports/print-jobs.js';
import { PrinterRefused, PrinterUnreachable } from './ipp-client.js';
import type { Printer, PrinterSet } from './printers.js';
import { printLineOf } from './queue.js';
import type { LineRef, NotSent, PrintOptions, PrintOutcome, SentJob } from './types.js';

export type SendDeps = {
  printers: PrinterSet;
  prints: Pick<PrintFiles, 'plan' | 'render'>;
  jobs: PrintJobsPort;
  orders: Pick<OrdersPort, 'notePrint'>;
  runId: string;
  /** Ids of the jobs this process is sending right now (the follower leaves them alone). */
  sending: Set<string>;
  log: Logger;
};

/**
 * Print files rendered ahead of the one being sent: none. A printer takes seconds per print, far
 * longer than a render, so rendering ahead gains nothing at the printer, while two 24 MP decodes
 * at once take both cores from the gallery (bench/RESULTS.md, "printing").
 */
const RENDER_AHEAD = 0;

type Planned = { ref: LineRef; itemId: string; printer: Printer; job: PrintJob };

function lineOf(ref: LineRef): OrderLine {
  const line = ref.order.items[ref.index];
  if (!line) throw new Error(`order ${ref.order.orderNumber} has no line ${ref.index}`);
  return line;
}

/** Each line's printer: the one named, else the best of those holding its size (one reading per size). */
async function choosePrinters(deps: SendDeps, lines: readonly LineRef[], named: string | undefined) {
  const candidatesOf = lines.map((ref) => deps.printers.forSize(lineOf(ref).size, named));
  const chosen = new Map<string, Promise<Printer>>();
  const out: Printer[] = [];
  for (const [i, ref] of lines.entries()) {
    const key = sizeKey(lineOf(ref).size);
    if (!chosen.has(key)) chosen.set(key, deps.printers.choose(candidatesOf[i] as Printer[]));
  }
  // Every reading settles before the first refusal is thrown: no rejection is left unheard.
  const settled = await Promise.allSettled(chosen.values());
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  for (const ref of lines) out.push(await (chosen.get(sizeKey(lineOf(ref).size)) as Promise<Printer>));
  return out;
}

export async function sendLines(deps: SendDeps, lines: readonly LineRef[], opts: PrintOptions): Promise<PrintOutcome> {
  const printersOf = await choosePrinters(deps, lines, opts.printer);
  const notSent: NotSent[] = [];
  const printLines = lines.map((ref) => printLineOf(ref.order, lineOf(ref)));
  const plan = await deps.prints.plan(printLines);
  const planned: Planned[] = [];
  lines.forEach((ref, i) => {
    const itemId = itemIdOf(ref.order.orderNumber, ref.index);
    const job = plan.jobs.find((j) => j.line === printLines[i]);
    const problem = plan.problems.find((p) => p.line === printLines[i]);
    if (job) planned.push({ ref, itemId, printer: printersOf[i] as Printer, job });
    else notSent.push({ itemId, reason: problem?.reason ?? 'no print file can be made' });
  });

  const { begun, busy } = await deps.jobs.begin(
    planned.map((p) => ({
      itemId: p.itemId,
      orderId: p.ref.order.id,
      line: p.ref.index,
      orderNumber: p.ref.order.orderNumber,
      eventSlug: p.ref.order.eventSlug,
      printer: p.printer.entry.name,
      size: p.job.line.size,
      copies: p.job.line.quantity,
      auto: opts.auto === true,
      by: opts.by,
      runId: deps.runId,
    })),
  );
  for (const id of busy) notSent.push({ itemId: id, reason: 'it is being printed already' });
  if (begun.length === 0 && busy.length > 0 && notSent.length === busy.length) {
    throw appError('ALREADY_PRINTING', {
      message: busy.length === 1 ? `${busy[0]} is being printed already` : 'Every line named is being printed already',
      details: { itemIds: busy },
    });
  }
  for (const record of begun) deps.sending.add(record.id);
  try {
    return await sendBegun(deps, planned, begun, notSent, opts);
  } finally {
    for (const record of begun) deps.sending.delete(record.id);
  }
}

async function sendBegun(
  deps: SendDeps,
  planned: readonly Planned[],
  begun: readonly PrintJobRecord[],
  notSent: NotSent[],
  opts: PrintOptions,
): Promise<PrintOutcome> {
  const byItem = new Map(planned.map((p) => [p.itemId, p]));
  const renders = new Map<number, Promise<RenderedPrint>>();
  const render = (i: number) => {
    const record = begun[i];
    if (record === undefined || renders.has(i)) return;
    const started = deps.prints.render((byItem.get(record.itemId) as Planned).job);
    started.catch(() => {}); // awaited in turn below; a failure is handled there
    renders.set(i, started);
  };
  const jobs: SentJob[] = [];
  const deadPrinters = new Map<string, string>();
  let answered = false;

  for (const [i, record] of begun.entries()) {
    for (let k = i; k <= i + RENDER_AHEAD; k++) render(k);
    const p = byItem.get(record.itemId) as Planned;
    const dead = deadPrinters.get(p.printer.entry.name);
    if (dead !== undefined) {
      await deps.jobs.finish(record.id, 'unsent', dead);
      notSent.push({ itemId: record.itemId, reason: dead });
      continue;
    }
    const renderStarted = performance.now();
    let file: RenderedPrint;
    try {
      file = await (renders.get(i) as Promise<RenderedPrint>);
    } catch (err) {
      const reason = `the print file could not be made: ${(err as Error).message}`;
      await deps.jobs.finish(record.id, 'unsent', reason);
      notSent.push({ itemId: record.itemId, reason });
      continue;
    }
    const renderMs = performance.now() - renderStarted;
    const sendStarted = performance.now();
    try {
      const accepted = await p.printer.client.print({
        document: file.body,
        documentFormat: 'image/jpeg',
        media: mediaFor(p.job.line.size, p.job.inches),
        copies: record.copies,
        jobName: record.jobName,
        user: opts.auto ? 'auto-print' : opts.by,
      });
      answered = true;
      await deps.jobs.accepted(record.id, accepted.jobId, accepted.state);
      jobs.push({ itemId: record.itemId, printer: record.printer, jobId: accepted.jobId });
      deps.log.info(
        {
          itemId: record.itemId,
          printer: record.printer,
          jobId: accepted.jobId,
          renderMs: Math.round(renderMs),
          sendMs: Math.round(performance.now() - sendStarted),
          auto: record.auto,
        },
        'print job accepted by the printer',
      );
      await note(deps, record, 'print-sent', `${record.printer} job ${accepted.jobId}`);
    } catch (err) {
      const outcome = await failed(deps, record, p.printer.entry, err);
      if (outcome.kind === 'maybe') {
        jobs.push({ itemId: record.itemId, printer: record.printer, jobId: null });
        continue;
      }
      if (outcome.kind === 'unreachable') deadPrinters.set(p.printer.entry.name, outcome.reason);
      notSent.push({ itemId: record.itemId, reason: outcome.reason });
    }
  }
  if (!answered && jobs.length === 0 && deadPrinters.size > 0) {
    throw appError('PRINTER_UNAVAILABLE', {
      message: [...deadPrinters.values()][0] as string,
      details: { notSent },
      headers: { 'Retry-After': '10' },
    });
  }
  return { jobs, notSent };
}

type Failure = { kind: 'refused' | 'unreachable' | 'maybe'; reason: string };

/** What a failed Print-Job means for its record (see the module comment). */
async function failed(deps: SendDeps, record: PrintJobRecord, printer: PrinterEntry, err: unknown): Promise<Failure> {
  if (err instanceof PrinterRefused) {
    const lacks = err.unsupported.includes('media') ? ` (${printer.name} has no ${record.size} paper)` : '';
    const reason = `${err.message}${lacks}`;
    await deps.jobs.finish(record.id, 'refused', reason);
    await note(deps, record, 'print-failed', `${printer.name} refused it: ${reason}`);
    return { kind: 'refused', reason };
  }
  if (err instanceof PrinterUnreachable && !err.maybeReceived) {
    await deps.jobs.finish(record.id, 'unsent', err.message);
    return { kind: 'unreachable', reason: err.message };
  }
  if (err instanceof PrinterUnreachable) {
    // Left `sending`: the follower asks the printer whether the job arrived.
    deps.log.warn({ itemId: record.itemId, printer: printer.name, err }, 'no answer to a Print-Job; will look it up');
    return { kind: 'maybe', reason: err.message };
  }
  await deps.jobs.finish(record.id, 'unsent', (err as Error).message);
  throw err;
}

/** A history note; a failure to write it is logged, never lost work (the job's record holds the truth). */
export async function note(
  deps: Pick<SendDeps, 'orders' | 'log'>,
  record: PrintJobRecord,
  action: 'print-sent' | 'print-failed',
  text: string,
): Promise<void> {
  try {
    await deps.orders.notePrint(record.orderId, { action, itemId: record.itemId, text }, { by: record.by as Actor });
  } catch (err) {
    deps.log.warn({ err, itemId: record.itemId, action }, 'could not note the print job in the order history');
  }
}
