/**
 * Auto-print (docs/contract.md, "Printing at the booth"): with `autoPrint: pickup`, a pickup
 * order's prints go to an idle printer as soon as it is marked paid, however it was marked.
 * What is due is read from the record, not remembered, so an order marked paid just before a
 * crash is found at the next start; a line is sent by auto-print once (a cancelled or refused
 * job waits for a person). Looked at on `kick`, when a job never reached its printer, and every
 * SCAN_EVERY_MS (another process, the spreadsheet, printers back after an outage).
 */
import { isDigitalSize } from '../../domain/offers.js';
import { itemId, type OrderRecord } from '../../domain/order.js';
import { sizeKey } from '../../domain/prints.js';
import { lastPaidAt } from '../../domain/transitions.js';
import { isAppError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import { RerunningPass } from '../../lib/rerun.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PrintJobsPort } from '../store/ports/print-jobs.js';
import type { LineRef, PrintOptions, PrintOutcome } from './types.js';

const SCAN_EVERY_MS = 15_000;

export type AutoPrintEvent = { code: string; autoPrint: 'off' | 'pickup'; autoPrintSince: string | null };

export type AutoPrintDeps = {
  events(): Promise<AutoPrintEvent[]>;
  orders: Pick<OrdersPort, 'list'>;
  jobs: Pick<PrintJobsPort, 'forItems'>;
  print(lines: readonly LineRef[], opts: PrintOptions): Promise<PrintOutcome>;
  log: Logger;
};

/** The lines of `order` auto-print would send, if they were never sent. */
function candidateLines(order: OrderRecord, since: string): LineRef[] {
  if (order.fulfillmentType !== 'pickup' || order.held || order.status !== 'paid') return [];
  if (order.pickupStatus === 'collected') return [];
  const paidAt = lastPaidAt(order);
  if (paidAt === null || paidAt < since) return [];
  const printed = new Set(order.printed.map((p) => p.line));
  return order.items.flatMap((line, index) =>
    printed.has(index) || isDigitalSize(line.size) ? [] : [{ order, index }],
  );
}

export class AutoPrinter {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly pass = new RerunningPass(
    () => this.scan(),
    (err) => this.deps.log.warn({ err }, 'auto-print could not look for paid pickup orders'),
    () => this.stopped,
  );
  /** What was last said about a size that could not be sent, so it is logged once, not every scan. */
  private readonly said = new Map<string, string>();

  constructor(private readonly deps: AutoPrintDeps) {}

  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), SCAN_EVERY_MS);
    this.timer.unref();
  }

  /** Looks for lines to send now (after the current look, if one is under way). */
  kick(): void {
    void this.pass.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pass.idle();
  }

  private async scan(): Promise<void> {
    const events = (await this.deps.events()).filter((e) => e.autoPrint === 'pickup' && e.autoPrintSince !== null);
    for (const event of events) {
      const paid = await this.deps.orders.list({ statuses: ['paid'], eventSlug: event.code });
      const lines = paid
        .flatMap((o) => candidateLines(o, event.autoPrintSince as string))
        // Oldest paid first: the customer who paid first gets their prints first.
        .sort((a, b) => (lastPaidAt(a.order) ?? '').localeCompare(lastPaidAt(b.order) ?? '') || a.index - b.index);
      if (lines.length === 0) continue;
      const ids = lines.map((l) => itemId(l.order.orderNumber, l.index));
      const sent = new Set(
        (await this.deps.jobs.forItems(ids)).filter((j) => j.state !== 'unsent').map((j) => j.itemId),
      );
      const due = lines.filter((_, i) => !sent.has(ids[i] as string));
      await this.send(due);
    }
  }

  /** Sends the due lines, one size at a time (a size no printer can take now leaves the others going). */
  private async send(due: readonly LineRef[]): Promise<void> {
    const bySize = new Map<string, LineRef[]>();
    for (const ref of due) {
      const key = sizeKey(ref.order.items[ref.index]?.size ?? '');
      bySize.set(key, [...(bySize.get(key) ?? []), ref]);
    }
    for (const [size, lines] of bySize) {
      try {
        const outcome = await this.deps.print(lines, { by: 'system', auto: true });
        this.said.delete(size);
        for (const n of outcome.notSent) {
          this.deps.log.warn({ itemId: n.itemId, reason: n.reason }, 'auto-print could not send a line');
        }
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) {
          if (!isAppError(err) || err.code !== 'PRINTER_UNAVAILABLE') throw err;
        }
        // Logged once per cause: the scan tries again every few seconds.
        if (this.said.get(size) !== err.message) {
          this.said.set(size, err.message);
          this.deps.log.warn({ size, code: err.code, reason: err.message }, 'auto-print is waiting for a printer');
        }
      }
    }
  }
}
