/**
 * Order lists (`OrdersPort.list`) for sql/orders.ts: the matching orders' ids and versions in
 * pages, then only the orders not already parsed at that version, a slice at a time between
 * yields, so that a 10,000-order list never holds the event loop for long (bench/store.bench.ts,
 * "longest event-loop stall of a cold read", target 50 ms). A list read again with nothing
 * committed since is answered from memory.
 */
import { setImmediate } from 'node:timers/promises';
import type { OrderRecord } from '../../../domain/order.js';
import type { OrderListQuery } from '../ports/orders.js';
import type { Db, Param } from './db.js';
import type { OrderCopies } from './order-copies.js';
import { SELECT_COLUMNS } from './order-rows.js';
import { placeholders } from './values.js';

/** Orders read and parsed between two yields to the event loop in a long list: a few milliseconds' work. */
export const LIST_SLICE = 200;

/** Lists kept with the change marker they were read at. */
const LIST_MEMO = 64;
/** Ids and versions read per statement of a list. */
const HEADS_PAGE = 2000;

export class OrderLists {
  /** Lists as last read, with the change marker read before them. */
  private readonly memo = new Map<string, { marker: string; orders: OrderRecord[] }>();

  constructor(
    private readonly db: Db,
    private readonly copies: Pick<OrderCopies, 'get' | 'adopt'>,
  ) {}

  async read(query: OrderListQuery = {}): Promise<OrderRecord[]> {
    if (query.statuses?.length === 0) return [];
    const where: string[] = [];
    const params: Param[] = [];
    if (!query.includeHeld) where.push('held = FALSE');
    if (query.statuses) {
      where.push(`status IN (${placeholders(query.statuses.length)})`);
      params.push(...query.statuses);
    }
    if (query.eventSlug !== undefined) {
      where.push('event_slug = ?');
      params.push(query.eventSlug);
    }
    const filter = where.length > 0 ? where.join(' AND ') : 'TRUE';
    // Nothing committed anywhere since this list was last read: it is still current.
    const key = `${filter}\u0000${params.join('\u0000')}`;
    const marker = await this.db.changeMarker();
    const memo = this.memo.get(key);
    if (memo?.marker === marker) return memo.orders.slice();
    // Ids and versions in pages: one statement over 10,000 rows would hold the event loop.
    const heads: { pk: number; id: string; version: number }[] = [];
    for (let before = Number.MAX_SAFE_INTEGER; ; ) {
      const page = await this.db.all<{ pk: number; id: string; version: number }>(
        `SELECT pk, id, version FROM orders WHERE ${filter} AND pk < ? ORDER BY pk DESC LIMIT ${HEADS_PAGE}`,
        [...params, before],
      );
      heads.push(...page);
      if (page.length < HEADS_PAGE) break;
      before = Number(page[page.length - 1]?.pk);
      await setImmediate();
    }
    const found = new Map<number, OrderRecord>();
    const missing: number[] = [];
    for (const h of heads) {
      const copy = this.copies.get(h.id, Number(h.version));
      if (copy) found.set(Number(h.pk), copy);
      else missing.push(Number(h.pk));
    }
    // The others a slice at a time, yielding between slices. An order changed meanwhile is
    // read as it is now; one that left the list meanwhile is left out.
    for (let i = 0; i < missing.length; i += LIST_SLICE) {
      if (i > 0) await setImmediate();
      const slice = missing.slice(i, i + LIST_SLICE);
      const size = slice.length <= 16 ? 16 : LIST_SLICE; // two statement texts, padded with pk 0 (none)
      const pks = [...slice, ...Array.from({ length: size - slice.length }, () => 0)];
      const rows = await this.db.all(
        `SELECT ${SELECT_COLUMNS} FROM orders WHERE pk IN (${placeholders(size)}) AND ${filter}`,
        [...pks, ...params],
      );
      for (const row of rows) found.set(Number(row.pk), this.copies.adopt(row));
    }
    const out: OrderRecord[] = [];
    for (const h of heads) {
      const order = found.get(Number(h.pk));
      if (order) out.push(order);
    }
    if (this.memo.size >= LIST_MEMO) this.memo.clear();
    this.memo.set(key, { marker, orders: out.slice() });
    return out;
  }
}
