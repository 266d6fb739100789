/**
 * The Printing behind `fastify.printing` (types.ts): the print queue (queue.ts), the printers of
 * PRINTERS, sending (send.ts), following (follow.ts) and auto-print (auto-print.ts) put together. Plain module,
 * so the tests and the bench use it without Fastify too.
 */

import { randomUUID } from 'node:crypto';
import type { PrinterEntry } from '../../domain/printers.js';
import type { Logger } from '../../lib/logger.js';
import type { PrintFiles } from '../prints/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PrintJobsPort } from '../store/ports/print-jobs.js';
import { type AutoPrintEvent, AutoPrinter } from './auto-print.js';
import { JobFollower } from './follow.js';
import { PrinterSet } from './printers.js';
import { createPrintQueue } from './queue.js';
import { type SendDeps, sendLines } from './send.js';
import type { Printing } from './types.js';

/** Ended jobs the dashboard shows beside those in flight. */
const RECENT_JOBS = 10;
/**
 * On PostgreSQL several processes share the record: a `sending` job of another process is
 * taken over only once that process would have given up on it. On SQLite one process owns the
 * file, so a job left `sending` by an earlier run is taken over at once.
 */
const POSTGRES_ORPHAN_AFTER_MS = 2 * 60_000;

export type PrintingDeps = {
  printers: readonly PrinterEntry[];
  timeoutMs: number;
  pollMs: number;
  engine: 'sqlite' | 'postgres';
  prints: Pick<PrintFiles, 'plan' | 'render' | 'zip'>;
  jobs: PrintJobsPort;
  orders: Pick<OrdersPort, 'get' | 'list' | 'markPrinted' | 'notePrint'>;
  events(): Promise<AutoPrintEvent[]>;
  log: Logger;
};

export type PrintingService = Printing & { start(): void; stop(): Promise<void> };

export function createPrintingService(deps: PrintingDeps): PrintingService {
  const printers = new PrinterSet(deps.printers, deps.timeoutMs);
  const runId = randomUUID();
  const sending = new Set<string>();
  const send: SendDeps = {
    printers,
    prints: deps.prints,
    jobs: deps.jobs,
    orders: deps.orders,
    runId,
    sending,
    log: deps.log,
  };
  const follower = new JobFollower({
    printers,
    jobs: deps.jobs,
    orders: deps.orders,
    runId,
    sending,
    orphanAfterMs: deps.engine === 'sqlite' ? 0 : POSTGRES_ORPHAN_AFTER_MS,
    pollMs: deps.pollMs,
    log: deps.log,
    // A line that never reached its printer is due again for auto-print.
    onEnded: (job) => {
      if (job.auto && job.state === 'unsent') autoPrinter.kick();
    },
  });
  const print: Printing['print'] = async (lines, opts) => {
    try {
      return await sendLines(send, lines, opts);
    } finally {
      follower.wake();
    }
  };
  const autoPrinter = new AutoPrinter({
    events: deps.events,
    orders: deps.orders,
    jobs: deps.jobs,
    print,
    log: deps.log,
  });
  const configured = printers.all.length > 0;

  return {
    ...createPrintQueue({ orders: deps.orders, prints: deps.prints, jobs: deps.jobs, print }),
    configured,
    async printers() {
      const readings = await Promise.all(printers.all.map((p) => printers.read(p)));
      return readings.map((r) => printers.view(r));
    },
    async jobs() {
      const [inFlight, recent] = await Promise.all([deps.jobs.inFlight(), deps.jobs.recent(RECENT_JOBS)]);
      return { inFlight, recent };
    },
    print,
    orderPaid(order) {
      if (configured && order.fulfillmentType === 'pickup' && order.status === 'paid') autoPrinter.kick();
    },
    start() {
      // Without printers nothing is followed: jobs of a PRINTERS set aside for a while stay as they were.
      if (!configured) return;
      follower.wake();
      autoPrinter.start();
    },
    async stop() {
      await Promise.all([autoPrinter.stop(), follower.stop()]);
      printers.close();
    },
  };
}
