/**
 * The print jobs port (docs/contract.md, "Printing at the booth"): every order line sent to a
 * printer over IPP, from the moment it is about to be sent until the printer says how it ended.
 * It is what lets a restart neither lose a print nor print it twice (docs/fulfilment.md,
 * "Printing at the booth: what a restart does").
 *
 * - `sending`: written (durably) before the Print-Job goes out; its `jobName` is unique, so the
 *   job can be found on the printer again if the process stops before the answer is recorded.
 * - `queued`: the printer accepted it (`jobId`); followed until it ends.
 * - Ends: `completed` (the line is marked printed), `canceled` / `aborted` (back in the queue,
 *   with the reason in the order's history), `refused` (the printer answered the Print-Job with
 *   an error), `unsent` (the printer certainly never took it: auto-print may send it again),
 *   `unknown` (the printer stopped answering for good, or no longer knows the job).
 * - One line has at most one job `sending` or `queued`, across processes: `begin` of a line
 *   already in flight begins nothing (a unique index on the line for those two states).
 * - Each move is one conditional statement: of two processes finishing the same job, one wins
 *   (the other gets null), so a job's consequences happen once.
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
  /** The printer's `job-id`, once it accepted the job. */
  jobId: z.number().int().nullable(),
  state: PrintJobState,
  /** The printer's last `job-state` (`pending`, `processing`, ...). */
  printerState: z.string().nullable(),
  /** Why it ended as it did, or what the printer last said. */
  reason: z.string().nullable(),
  /** Sent by auto-print (a pickup order marked paid) rather than by a person. */
  auto: z.boolean(),
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
