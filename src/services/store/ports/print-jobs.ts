/**
 * The print jobs port (docs/contract.md, "Printing at the booth"): every order line sent to a
 * printer over IPP, so a restart neither loses a print nor prints it twice (docs/fulfilment.md,
 * "Printing at the booth: what a restart does"). A job is written `sending`, durably, before
 * the Print-Job goes out, under a unique `jobName` it can be found by on the printer again.
 * One line has at most one job `sending` or `queued` (a unique index). Each move is one
 * conditional statement: of two processes finishing the same job, one wins, so its
 * consequences happen once.
 */
import { z } from 'zod';
import { Actor } from '../../../domain/order.js';

const PRINT_JOB_STATES = [
  'sending',
  'queued',
  'completed',
  'canceled',
  'aborted',
  'refused',
  'unsent',
  'unknown',
] as const;
export const PrintJobState = z.enum(PRINT_JOB_STATES);
export type PrintJobState = z.infer<typeof PrintJobState>;
export type FinalPrintJobState = Exclude<PrintJobState, 'sending' | 'queued'>;

const isoTimestamp = z.iso.datetime({ offset: true });

export const PrintJobRecord = z.object({
  id: z.string().min(1),
  /** The order line: `<orderNumber>.<line number>` (1-based), its order and its 0-based index. */
  itemId: z.string().min(1),
  orderId: z.string().min(1),
  line: z.number().int().min(0),
  orderNumber: z.string().min(1),
  eventSlug: z.string().min(1),
  /** The printer's name in PRINTERS. */
  printer: z.string().min(1),
  size: z.string().min(1),
  copies: z.number().int().min(1),
  /** The IPP `job-name` sent: unique to this attempt. */
  jobName: z.string().min(1),
  jobId: z.number().int().nullable().describe('The printer’s job id; null while it is being sent'),
  state: PrintJobState.describe(
    '`sending`, `queued` (at the printer): in flight. Ended: `completed` (the line is printed), `canceled`, ' +
      '`aborted`, `refused`, `unsent`, `unknown` (the line is back in the print queue; `reason` says why)',
  ),
  printerState: z.string().nullable().describe('The printer’s last `job-state`: `pending`, `processing`, ...'),
  /** Why it ended as it did, or what the printer last said. */
  reason: z.string().nullable(),
  auto: z.boolean().describe('Sent by auto-print (a pickup order marked paid) rather than by a person'),
  /** Who sent it: marks the line printed in the order's history under this name. */
  by: Actor,
  /** The server process that is sending it (while `sending`). */
  runId: z.string().min(1),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  finishedAt: isoTimestamp.nullable(),
});
export type PrintJobRecord = z.infer<typeof PrintJobRecord>;

export type NewPrintJob = Pick<
  PrintJobRecord,
  'itemId' | 'orderId' | 'line' | 'orderNumber' | 'eventSlug' | 'printer' | 'size' | 'copies' | 'auto' | 'by' | 'runId'
>;

export interface PrintJobsPort {
  /**
   * Records the jobs as `sending`, in one durable transaction, each with a fresh id and job
   * name. A line already `sending` or `queued` is not begun again: it is in `busy`.
   */
  begin(jobs: readonly NewPrintJob[]): Promise<{ begun: PrintJobRecord[]; busy: string[] }>;
  /** `sending` → `queued` with the printer's job id; null when the job is no longer `sending`. */
  accepted(id: string, jobId: number, printerState: string): Promise<PrintJobRecord | null>;
  /** What the printer says of a `queued` job now (no-op when unchanged or no longer queued). */
  observe(id: string, printerState: string, reason: string | null): Promise<void>;
  /** Ends a `sending` or `queued` job; null when it had ended already (another process won). */
  finish(id: string, state: FinalPrintJobState, reason: string | null): Promise<PrintJobRecord | null>;
  /**
   * Takes over a `sending` job left by another process (`fromRunId`): true for the one caller
   * that moved it to `toRunId`.
   */
  claim(id: string, fromRunId: string, toRunId: string): Promise<boolean>;
  get(id: string): Promise<PrintJobRecord | null>;
  /** Jobs `sending` or `queued`, oldest first. */
  inFlight(): Promise<PrintJobRecord[]>;
  /** Ended jobs, the latest first. */
  recent(limit: number): Promise<PrintJobRecord[]>;
  /** Every job of these lines, in any state, oldest first. */
  forItems(itemIds: readonly string[]): Promise<PrintJobRecord[]>;
}
