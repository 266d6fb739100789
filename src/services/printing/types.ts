/**
 * The print queue and printing at the booth (docs/contract.md, "Fulfilment", "Printing at the
 * booth"), decorated as `fastify.printing`. Routes depend on this interface, never on the IPP library.
 */
import type { Actor, OrderRecord } from '../../domain/order.js';
import type { PrintJobRecord } from '../store/ports/print-jobs.js';
import type { PrintQueue } from './queue.js';

/** A printer as the dashboard shows it: its settings and what it said just now over IPP. */
export type PrinterView = {
  name: string;
  /** Without credentials. */
  url: string;
  sizes: string[];
  /** `unreachable`: no answer within PRINTER_TIMEOUT_MS, or not an IPP printer at that URL. */
  state: 'idle' | 'processing' | 'stopped' | 'unreachable';
  /** `media-empty`, `marker-supply-low`, ... (severity suffixes dropped). */
  stateReasons: string[];
  /** The printer's own words, or why it could not be read. */
  message: string;
  queuedJobs: number | null;
  acceptingJobs: boolean | null;
  mediaReady: string[];
};

/** An order line to print: the order as read, and the line's 0-based index. */
export type LineRef = { order: OrderRecord; index: number };

export type SentJob = {
  itemId: string;
  printer: string;
  /** The printer's job id; null when the printer did not answer the Print-Job in time (it is looked up). */
  jobId: number | null;
};

export type NotSent = { itemId: string; reason: string };

export type PrintOutcome = { jobs: SentJob[]; notSent: NotSent[] };

export type PrintOptions = {
  /** A printer's name; absent: the first idle printer holding each line's size. */
  printer?: string | undefined;
  by: Actor;
  auto?: boolean;
};

export interface Printing extends PrintQueue {
  /** Whether PRINTERS names any printer. */
  readonly configured: boolean;
  /** Every printer of PRINTERS with its state, read now (in parallel, each within PRINTER_TIMEOUT_MS). */
  printers(): Promise<PrinterView[]>;
  /** Jobs in flight (oldest first) and the latest ended ones. */
  jobs(): Promise<{ inFlight: PrintJobRecord[]; recent: PrintJobRecord[] }>;
  /**
   * Sends the lines' print files as IPP Print-Jobs, in order, and follows them. Throws
   * PRINTER_NOT_FOUND, PRINTER_LACKS_SIZE (before anything is sent), ALREADY_PRINTING (every
   * line is in flight already), PRINTER_UNAVAILABLE (no printer answers: nothing sent).
   */
  print(lines: readonly LineRef[], opts: PrintOptions): Promise<PrintOutcome>;
  /** An order was just marked paid: auto-print looks at it at once (docs/contract.md, "Printing at the booth"). */
  orderPaid(order: OrderRecord): void;
}
