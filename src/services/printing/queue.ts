/**
 * The print queue (docs/contract.md, "Fulfilment"): every print line (not digital files) of
 * every paid order not yet marked printed, oldest order first, optionally of one event and one
 * size; the print files of a batch of them, or of one order; marking them printed. Read from
 * the orders port's paid list (always current). An order shipped or collected has left the
 * queue, whatever its lines say (void and cancelled orders are not paid: never in it).
 */
import { isDigitalSize } from '../../domain/offers.js';
import { type Actor, itemId, type OrderLine, type OrderRecord, oldestFirst, parseItemId } from '../../domain/order.js';
import { sizeKey } from '../../domain/prints.js';
import { appError } from '../../errors/catalogue.js';
import { loadOrder } from '../orders/load-order.js';
import type { PrintFiles, PrintLine } from '../prints/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { PrintJobRecord, PrintJobsPort } from '../store/ports/print-jobs.js';
import type { LineRef, PrintOptions, PrintOutcome } from './types.js';

/** `waiting`: in the print queue: not printed, and its order not shipped or collected. */
export type QueueLine = LineRef & { line: OrderLine; itemId: string; printed: boolean; waiting: boolean };

export type QueueFilter = { eventSlug?: string | undefined; size?: string | undefined };

/** A waiting line as the queue shows it: its print file's name and its job in flight. */
export type QueueEntry = QueueLine & { fileName: string; printing: PrintJobRecord | undefined };

export type PrintQueue = ReturnType<typeof createPrintQueue>;

/** An order line as the print files know it. */
export function printLineOf(order: OrderRecord, line: OrderLine): PrintLine {
  const { photoNumber, size, quantity, crop } = line;
  return { orderNumber: order.orderNumber, eventSlug: order.eventSlug, photoNumber, size, quantity, crop };
}

/** Whether the order is in the customer's hands (or on its way): its prints are no longer waited for. */
function handedOver(order: OrderRecord): boolean {
  return order.shippingStatus === 'shipped' || order.pickupStatus === 'collected';
}

/** Every line of the paid orders matching `filter`, oldest order first, printed or not. */
async function paidLines(orders: Pick<OrdersPort, 'list'>, filter: QueueFilter): Promise<QueueLine[]> {
  const paid = (await orders.list({ statuses: ['paid'], eventSlug: filter.eventSlug })).slice().sort(oldestFirst);
  const size = filter.size === undefined ? undefined : sizeKey(filter.size);
  const out: QueueLine[] = [];
  for (const order of paid) {
    const printed = new Set(order.printed.map((p) => p.line));
    const over = handedOver(order);
    order.items.forEach((line, index) => {
      if (size !== undefined && sizeKey(line.size) !== size) return;
      // A digital file is downloaded, never printed (docs/contract.md, "Selling").
      if (isDigitalSize(line.size)) return;
      const done = printed.has(index);
      out.push({
        order,
        index,
        line,
        itemId: itemId(order.orderNumber, index),
        printed: done,
        waiting: !done && !over,
      });
    });
  }
  return out;
}

/** Copies per size, in the order sizes first appear. */
function copiesBySize(lines: readonly QueueLine[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of lines) counts[l.line.size] = (counts[l.line.size] ?? 0) + l.line.quantity;
  return counts;
}

type ItemRef = { id: string; orderNumber: string; line: number };

/**
 * Item ids as the client sent them, checked: each must be `<orderNumber>.<line>`; duplicates
 * are dropped. A malformed id is 400 VALIDATION_FAILED.
 */
function parseItemIds(ids: readonly string[]): ItemRef[] {
  const bad = ids.filter((id) => parseItemId(id) === null);
  if (bad.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: 'An item id is `<orderNumber>.<line number>`, e.g. `AX25-0001.2`',
      details: bad
        .slice(0, 20)
        .map((id) => ({ in: 'query', field: 'itemIds', message: `not an item id: ${id.slice(0, 40)}` })),
    });
  }
  const seen = new Map<string, ItemRef>();
  for (const id of ids) {
    const p = parseItemId(id) as { orderNumber: string; line: number };
    const canonical = itemId(p.orderNumber, p.line);
    if (!seen.has(canonical)) seen.set(canonical, { id: canonical, ...p });
  }
  return [...seen.values()];
}

/** The lines `wanted` names among `all`, or VALIDATION_FAILED naming those it does not find. */
function named(all: readonly QueueLine[], wanted: readonly ItemRef[], where: 'query' | 'body', filtered: boolean) {
  const byId = new Map(all.map((q) => [q.itemId, q]));
  const missing = wanted.filter((w) => !byId.has(w.id));
  if (missing.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: `${missing.length} item id(s) name no ${where === 'body' ? 'print ' : ''}line of a paid order${filtered ? ' matching the filters' : ''}`,
      details: missing.slice(0, 20).map((m) => ({ in: where, field: 'itemIds', message: `no paid line ${m.id}` })),
    });
  }
  return wanted.map((w) => byId.get(w.id) as QueueLine);
}

export function createPrintQueue(deps: {
  orders: Pick<OrdersPort, 'get' | 'list' | 'markPrinted'>;
  prints: Pick<PrintFiles, 'plan' | 'zip'>;
  jobs: Pick<PrintJobsPort, 'inFlight'>;
  print(lines: readonly LineRef[], opts: PrintOptions): Promise<PrintOutcome>;
}) {
  const { orders, prints } = deps;
  return {
    /** The waiting lines, oldest order first, with their print file names and jobs in flight. */
    async queue(filter: QueueFilter): Promise<{ entries: QueueEntry[]; counts: Record<string, number> }> {
      const waiting = (await paidLines(orders, filter)).filter((q) => q.waiting);
      const lines = waiting.map((q) => printLineOf(q.order, q.line));
      const [plan, inFlight] = await Promise.all([prints.plan(lines), deps.jobs.inFlight()]);
      const jobs = new Map(inFlight.map((j) => [j.itemId, j]));
      const names = new Map([...plan.jobs, ...plan.problems].map((j) => [j.line, j.fileName]));
      const entries = waiting.map((q, i) => ({
        ...q,
        fileName: names.get(lines[i] as PrintLine) ?? '',
        printing: jobs.get(q.itemId),
      }));
      return { entries, counts: copiesBySize(waiting) };
    },

    /**
     * The ZIP of the queue's lines, or with `itemIds` of exactly those lines (printed already or
     * not). Throws VALIDATION_FAILED (an id naming no paid line) and NOTHING_TO_PRINT.
     */
    async files({ eventSlug, size, itemIds }: QueueFilter & { itemIds?: readonly string[] | undefined }) {
      const all = await paidLines(orders, { eventSlug, size });
      const chosen =
        itemIds === undefined
          ? all.filter((q) => q.waiting)
          : named(all, parseItemIds(itemIds), 'query', Boolean(eventSlug || size));
      if (chosen.length === 0) {
        throw appError('NOTHING_TO_PRINT', {
          message: 'No line of a paid order is waiting to be printed here',
          details: { eventSlug: eventSlug ?? null, size: size ?? null },
        });
      }
      const plan = await prints.plan(chosen.map((q) => printLineOf(q.order, q.line)));
      return { count: plan.jobs.length, zip: await prints.zip(plan) };
    },

    /** The ZIP of the print lines (of one size) of the order `ref` names. Throws ORDER_NOT_FOUND, NOTHING_TO_PRINT. */
    async orderFiles(ref: string, size: string | undefined) {
      const order = await loadOrder(orders, ref);
      const lines = order.items
        // Digital files are downloaded, never printed (docs/contract.md, "Selling").
        .filter((l) => !isDigitalSize(l.size) && (size === undefined || sizeKey(l.size) === sizeKey(size)))
        .map((l) => printLineOf(order, l));
      if (lines.length === 0) {
        throw appError('NOTHING_TO_PRINT', {
          message: `Order ${order.orderNumber} has no ${size} prints`,
          details: { orderNumber: order.orderNumber, size },
        });
      }
      return { orderNumber: order.orderNumber, zip: await prints.zip(await prints.plan(lines)) };
    },

    /** Marks the lines printed, all or nothing; lines marked before are left as they were. */
    async markPrinted(itemIds: readonly string[], by: Actor) {
      const items = parseItemIds(itemIds);
      const byOrder = new Map<string, number[]>();
      for (const it of items) byOrder.set(it.orderNumber, [...(byOrder.get(it.orderNumber) ?? []), it.line]);
      const results = await orders.markPrinted(byOrder, { by });
      const gained = new Set(results.flatMap((r) => r.marked.map((line) => itemId(r.order.orderNumber, line))));
      return {
        marked: items.filter((i) => gained.has(i.id)).map((i) => i.id),
        alreadyPrinted: items.filter((i) => !gained.has(i.id)).map((i) => i.id),
      };
    },

    /**
     * Sends the lines named to a printer, in their order; lines printed already are not sent.
     * Throws VALIDATION_FAILED, NOTHING_TO_PRINT (every line printed already) and what `print` throws.
     */
    async printNamed(itemIds: readonly string[], opts: PrintOptions): Promise<PrintOutcome> {
      const wanted = parseItemIds(itemIds);
      const lines = named(await paidLines(orders, {}), wanted, 'body', false);
      const printed = lines.filter((q) => q.printed).map((q) => ({ itemId: q.itemId, reason: 'printed already' }));
      const toPrint = lines.filter((q) => !q.printed);
      if (toPrint.length === 0) {
        throw appError('NOTHING_TO_PRINT', {
          message: 'Every line named is printed already',
          details: { itemIds: printed.map((p) => p.itemId) },
        });
      }
      const outcome = await deps.print(toPrint, opts);
      return { jobs: outcome.jobs, notSent: [...printed, ...outcome.notSent] };
    },
  };
}
