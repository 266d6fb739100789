/**
 * The order after a change (order-changes.ts, order-fulfilment.ts): its history entries
 * appended, `version` bumped, `updatedAt` set, parsed again.
 */
import { type HistoryEntry, OrderRecord } from './order.js';

/** What a change gives back; `changed: false`: the order as it was (no write, no history, no mail). */
export type Applied = { order: OrderRecord; changed: boolean };

/** The order after a change: history appended, version bumped, parsed (a bug shows here, not in the row). */
export function next(
  order: OrderRecord,
  changes: Partial<OrderRecord>,
  entries: HistoryEntry[],
  now: Date,
): OrderRecord {
  return OrderRecord.parse({
    ...order,
    ...changes,
    updatedAt: now.toISOString(),
    version: order.version + 1,
    history: [...order.history, ...entries],
  });
}
