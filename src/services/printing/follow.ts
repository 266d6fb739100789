/**
 * Follows sent jobs until the printer says how they ended (docs/contract.md, "Printing at the
 * booth"), and picks up after a restart (docs/fulfilment.md, "What a restart does").
 * A job's consequence (marked printed, or a note) comes before the job ends, and is
 * idempotent, so a crash between the two is harmless: the job is asked about again.
 * A `sending` job nobody is sending is looked for on its printer by its unique job name:
 * found, it is followed; not found, it is `unsent` and auto-print sends it again; not found
 * long after sending (printers forget finished jobs within minutes), it is `unknown`, noted.
 */
import type { Actor } from '../../domain/order.js';
import { isAppError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import { RerunningPass } from '../../lib/rerun.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { FinalPrintJobState, PrintJobRecord, PrintJobsPort } from '../store/ports/print-jobs.js';
import { type JobReport, PrinterRefused, PrinterUnreachable } from './ipp-client.js';
import type { PrinterSet } from './printers.js';
import { note } from './send.js';

/** A printer silent this long leaves its jobs' outcome unknown. */
const LOST_AFTER_MS = 10 * 60_000;
/**
 * A job that is not found on its printer within this long of being sent never arrived: every
 * IPP Everywhere printer application built on CUPS' code keeps finished jobs at least 60 s,
 * CUPS itself keeps its job history.
 */
const NEVER_ARRIVED_WITHIN_MS = 60_000;
/** How often the record is looked at while nothing is in flight here. */
const IDLE_POLL_MS = 30_000;

export type FollowDeps = {
  printers: PrinterSet;
  jobs: PrintJobsPort;
  orders: Pick<OrdersPort, 'markPrinted' | 'notePrint'>;
  runId: string;
  sending: ReadonlySet<string>;
  /** A `sending` job of another process is its to finish for this long (PostgreSQL: several processes). */
  orphanAfterMs: number;
  pollMs: number;
  log: Logger;
  /** A job ended (auto-print looks again for lines to send). */
  onEnded(record: PrintJobRecord): void;
};

const ENDED = new Set(['completed', 'canceled', 'aborted']);

function why(report: JobReport): string {
  const reasons = report.reasons.filter((r) => r !== 'none').join(', ');
  return [report.state, reasons && `(${reasons})`, report.message && `: ${report.message}`].filter(Boolean).join(' ');
}

export class JobFollower {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly pass = new RerunningPass(
    () => {
      clearTimeout(this.timer);
      return this.tick();
    },
    (err) => this.deps.log.warn({ err }, 'could not follow the print jobs; trying again'),
    () => this.stopped,
  );
  private readonly silentSince = new Map<string, number>();

  constructor(private readonly deps: FollowDeps) {}

  /** Looks at the jobs now (after the current look, if one is under way). */
  wake(): void {
    void this.pass.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass.idle();
  }

  private async tick(): Promise<void> {
    let inFlight: PrintJobRecord[] = [];
    try {
      inFlight = await this.deps.jobs.inFlight();
      await Promise.all(inFlight.map((job) => this.look(job)));
    } catch (err) {
      this.deps.log.warn({ err }, 'could not follow the print jobs; trying again');
    }
    if (this.stopped) return;
    const mine = inFlight.some((j) => j.state === 'queued' || j.runId === this.deps.runId);
    this.timer = setTimeout(() => this.wake(), mine ? this.deps.pollMs : IDLE_POLL_MS);
    this.timer.unref();
  }

  private async look(job: PrintJobRecord): Promise<void> {
    if (job.state === 'sending' && this.deps.sending.has(job.id)) return;
    if (!this.deps.printers.has(job.printer)) {
      await this.end(job, 'unknown', `${job.printer} is no longer in PRINTERS: check whether ${job.itemId} came out`);
      return;
    }
    try {
      if (job.state === 'queued') await this.poll(job);
      else await this.reconcile(job);
      this.silentSince.delete(job.id);
    } catch (err) {
      if (!(err instanceof PrinterUnreachable || err instanceof PrinterRefused)) throw err;
      const since = this.silentSince.get(job.id) ?? Date.now();
      this.silentSince.set(job.id, since);
      if (Date.now() - since >= LOST_AFTER_MS) {
        this.silentSince.delete(job.id);
        const minutes = Math.round(LOST_AFTER_MS / 60_000);
        await this.end(
          job,
          'unknown',
          `${job.printer} did not answer for ${minutes} minutes: check whether ${job.itemId} came out`,
        );
      }
    }
  }

  private async poll(job: PrintJobRecord): Promise<void> {
    const printer = this.deps.printers.byName(job.printer);
    const report = await printer.client.job(job.jobId as number);
    if (!report) {
      await this.end(job, 'unknown', `${job.printer} no longer knows job ${job.jobId}: check whether it came out`);
      return;
    }
    if (!ENDED.has(report.state)) {
      await this.deps.jobs.observe(job.id, report.state, why(report));
      return;
    }
    if (report.state === 'completed') {
      await this.markPrinted(job);
      await this.finish(job, 'completed', why(report));
      return;
    }
    await this.end(job, report.state as 'canceled' | 'aborted', `${job.printer} job ${job.jobId} ${why(report)}`);
  }

  private async markPrinted(job: PrintJobRecord): Promise<void> {
    try {
      await this.deps.orders.markPrinted(new Map([[job.orderId, [job.line]]]), { by: job.by as Actor });
    } catch (err) {
      // The order moved on meanwhile (undone, voided): the print exists all the same.
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      await note(this.deps, job, 'print-failed', `${job.printer} printed job ${job.jobId}, but ${err.message}`);
    }
  }

  private async reconcile(job: PrintJobRecord): Promise<void> {
    if (job.runId !== this.deps.runId) {
      const age = Date.now() - Date.parse(job.updatedAt);
      if (age < this.deps.orphanAfterMs) return;
      if (!(await this.deps.jobs.claim(job.id, job.runId, this.deps.runId))) return;
    }
    const printer = this.deps.printers.byName(job.printer);
    const found = await printer.client.findJob(job.jobName);
    if (found) {
      const queued = await this.deps.jobs.accepted(job.id, found.jobId, found.state);
      this.deps.log.info(
        { itemId: job.itemId, jobId: found.jobId },
        'a job whose sending was interrupted is on the printer',
      );
      if (queued) await note(this.deps, queued, 'print-sent', `${job.printer} job ${found.jobId}`);
      return;
    }
    const sentAgo = Date.now() - Date.parse(job.createdAt);
    if (sentAgo < NEVER_ARRIVED_WITHIN_MS) {
      await this.end(job, 'unsent', `sending to ${job.printer} was interrupted and it never took the job`);
    } else {
      await this.end(
        job,
        'unknown',
        `sending to ${job.printer} was interrupted and it does not list the job (now): check whether ${job.itemId} came out`,
      );
    }
  }

  /** Notes why the job did not print, then ends it. */
  private async end(job: PrintJobRecord, state: FinalPrintJobState, reason: string): Promise<void> {
    await note(this.deps, job, 'print-failed', reason);
    await this.finish(job, state, reason);
  }

  private async finish(job: PrintJobRecord, state: FinalPrintJobState, reason: string): Promise<void> {
    const ended = await this.deps.jobs.finish(job.id, state, reason);
    if (!ended) return;
    this.deps.log.info({ itemId: ended.itemId, printer: ended.printer, jobId: ended.jobId, state }, 'print job ended');
    this.deps.onEnded(ended);
  }
}
