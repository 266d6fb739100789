/**
 * The orders handed out so far, frozen, by id: a read that finds an order at the version it
 * had then answers the same object instead of parsing the row again. This replaces the
 * 30-second order cache (docs/store.md, "Reads"): a list is always read through (the ids and
 * versions of its orders, a few milliseconds for 10,000), so it is current in every process
 * at once, and only orders that changed are read and parsed. Unchanged orders being the same
 * objects is what lets the admin list reuse their JSON (src/services/order-reads/list-bytes.ts).
 */
import { LRUCache } from 'lru-cache';
import type { OrderRecord } from '../../../domain/order.js';
import { entryBound } from '../../../lib/lru.js';
import type { Row } from './db.js';
import { rowToOrder } from './order-rows.js';

export class OrderCopies {
  private readonly byId: LRUCache<string, OrderRecord>;

  constructor(max = 50_000) {
    this.byId = new LRUCache(entryBound(max));
  }

  /** The copy of order `id` at `version`, if one was handed out. */
  get(id: string, version: number): OrderRecord | undefined {
    const copy = this.byId.get(id);
    return copy?.version === version ? copy : undefined;
  }

  /** Freezes `order` (it is shared from now on) and keeps it as the copy of its id. */
  keep(order: OrderRecord): OrderRecord {
    for (const line of order.items) Object.freeze(line);
    Object.freeze(order.items);
    for (const entry of order.history) Object.freeze(entry);
    Object.freeze(order.history);
    Object.freeze(order);
    this.byId.set(order.id, order);
    return order;
  }

  /** The order of a row read from the table: the copy handed out at its version, or a new one. */
  adopt(row: Row): OrderRecord {
    return this.get(row.id as string, Number(row.version)) ?? this.keep(rowToOrder(row));
  }
}
