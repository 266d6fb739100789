/**
 * The print queue (docs/contract.md, "Fulfilment"): every print line (not digital files) of
 * every paid order not yet marked printed, oldest order first, optionally of one event and one size. Read from the
 * orders port's paid list (always current; unchanged orders are the same objects as before).
 * An order shipped or collected has left the queue, whatever its lines say (void and cancelled
 * orders are not paid: they are never in it).
 */
import { isDigitalSize } from '../../domain/offers.js';
import { itemId, type OrderLine, type OrderRecord, parseItemId } from '../../domain/order.js';
import { sizeKey } from '../../domain/prints.js';
import { appError } from '../../errors/catalogue.js';
import type { OrdersPort } from '../../services/store/ports/orders.js';
import { oldestFirst } from './files.js';

/** `waiting`: in the print queue: not printed, and its order not shipped or collected. */
export type QueueLine = {
  order: OrderRecord;
  index: number;
  line: OrderLine;
  itemId: string;
  printed: boolean;
  waiting: boolean;
};

/** Whether the order is in the customer's hands (or on its way): its prints are no longer waited for. */
function handedOver(order: OrderRecord): boolean {
  return order.shippingStatus === 'shipped' || order.pickupStatus === 'collected';
}

export type QueueFilter = { eventSlug?: string | undefined; size?: string | undefined };

/** Every line of the paid orders matching `filter`, oldest order first, printed or not. */
export async function paidLines(orders: Pick<OrdersPort, 'list'>, filter: QueueFilter): Promise<QueueLine[]> {
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
export function copiesBySize(lines: readonly QueueLine[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of lines) counts[l.line.size] = (counts[l.line.size] ?? 0) + l.line.quantity;
  return counts;
}

/**
 * Item ids as the client sent them, checked: each must be `<orderNumber>.<line>`; duplicates
 * are dropped. A malformed id is 400 VALIDATION_FAILED.
 */
export function parseItemIds(
  ids: readonly string[],
  field = 'itemIds',
): { id: string; orderNumber: string; line: number }[] {
  const bad = ids.filter((id) => parseItemId(id) === null);
  if (bad.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: 'An item id is `<orderNumber>.<line number>`, e.g. `AX25-0001.2`',
      details: bad.slice(0, 20).map((id) => ({ in: 'query', field, message: `not an item id: ${id.slice(0, 40)}` })),
    });
  }
  const seen = new Map<string, { id: string; orderNumber: string; line: number }>();
  for (const id of ids) {
    const p = parseItemId(id) as { orderNumber: string; line: number };
    const canonical = itemId(p.orderNumber, p.line);
    if (!seen.has(canonical)) seen.set(canonical, { id: canonical, ...p });
  }
  return [...seen.values()];
}
