/**
 * Orders on either engine (ports/orders.ts): table `orders`. Creates are group-committed
 * (group-commit.ts); each prefix's next number is max(seq) + 1 read under the prefix's lock in
 * that transaction, so numbers are unique and consecutive in any number of processes, and a
 * failed create uses none. If a batch fails for one bad create, each is written alone.
 */
import { couponInvalid } from '../../../domain/coupons.js';
import {
  type Actor,
  NewOrder,
  type OrderPayment,
  type OrderRecord,
  type OrderStatus,
  type PickupStatus,
  parseOrderNumber,
  type SalesSummaryCents,
} from '../../../domain/order.js';
import {
  type Applied,
  applyFeedback,
  applyHoldExpiry,
  applyOrderPatch,
  applyPayment,
  applyPhotoRemoved,
  applyPickup,
  applyPrinted,
  applyPrintNote,
  applyRelease,
  applyShipping,
  buildNewOrder,
  claimsCoupon,
  type FeedbackProof,
  releasesCoupon,
} from '../../../domain/order-changes.js';
import { isAppError } from '../../../errors/catalogue.js';
import { newId } from '../../../lib/ids.js';
import { duplicateOrderId, orderNotFound } from '../errors.js';
import { GroupCommit, type Outcome } from '../group-commit.js';
import type { MailJob } from '../ports/mail-outbox.js';
import type {
  ChangeOptions,
  CreateOptions,
  OrderListQuery,
  OrdersPort,
  PrintedLines,
  PrintedResult,
  PrintNote,
  UpdateResult,
} from '../ports/orders.js';
import { SqlCoupons } from './coupons.js';
import type { Db, Param, Queryable, Tx } from './db.js';
import { SqlIdempotencyKeys } from './idempotency-keys.js';
import { SqlMailOutbox } from './mail-outbox.js';
import { OrderCopies } from './order-copies.js';
import { OrderLists } from './order-lists.js';
import { INSERT_COLUMNS, insertValues, rowToOrder, SELECT_COLUMNS, UPDATE_SQL, updateValues } from './order-rows.js';
import { SqlPaymentEvents } from './payment-events.js';
import { placeholders } from './values.js';

// Exported for bench/orders.bench.ts, which times them without the store around them.
/** @public read from the built module (dist/) by bench/orders.bench.ts, out of knip's sight. */
export const INSERT_ORDER_SQL = `INSERT INTO orders (${INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(INSERT_COLUMNS.length)})`;
/** @public read from the built module by bench/orders.bench.ts. */
export const NEXT_SEQUENCE_SQL = 'SELECT coalesce(max(seq), 0) + 1 AS n FROM orders WHERE prefix = ?';

type PendingCreate = { input: NewOrder; id: string; now: Date; jobs: MailJob[]; opts: CreateOptions };

/**
 * How an order is found by a ref: an order number through the (prefix, seq) key, anything else
 * as an id (as given, or lower-cased: ids are stored lower-case). One index lookup either way.
 */
function byRef(ref: string): { where: string; params: Param[] } {
  const trimmed = ref.trim();
  const n = parseOrderNumber(trimmed.toUpperCase());
  if (n) return { where: 'WHERE prefix = ? AND seq = ?', params: [n.prefix, n.sequence] };
  const lower = trimmed.toLowerCase();
  if (lower === trimmed) return { where: 'WHERE id = ?', params: [trimmed] };
  return { where: 'WHERE id IN (?, ?)', params: [trimmed, lower] };
}

/** Per-status count and total of orders not held, as GROUP BY gives them. */
export type StatusTotals = Partial<
  Record<OrderStatus, { count: number; totalCents: number; discountCents?: number | undefined }>
>;

/** The sales summary's figures from per-status totals (docs/contract.md, "Status and shipping"). */
function summaryFromTotals(totals: StatusTotals): SalesSummaryCents {
  const of = (s: OrderStatus) => totals[s] ?? { count: 0, totalCents: 0 };
  const paid = of('paid');
  const pending = of('pending');
  return {
    totalOrders: pending.count + paid.count + of('void').count + of('cancelled').count,
    pendingCount: pending.count,
    completedCount: paid.count,
    cancelledCount: of('cancelled').count + of('void').count,
    totalRevenueCents: paid.totalCents,
    pendingRevenueCents: pending.totalCents,
    averageOrderValueCents: paid.count === 0 ? 0 : Math.round(paid.totalCents / paid.count),
    totalDiscountsCents: paid.discountCents ?? 0,
  };
}

/** A coupon with no use left for an order (or gone): AppError COUPON_INVALID. */
function claimRefused(code: string, reason: 'unknown' | 'exhausted') {
  const message = reason === 'exhausted' ? `Coupon ${code} has been used up` : `There is no coupon ${code}`;
  return couponInvalid(code, { ok: false, reason, message });
}

const isUnavailable = (err: unknown) => isAppError(err) && err.code === 'STORE_UNAVAILABLE';

export class SqlOrders implements OrdersPort {
  private readonly copies = new OrderCopies();
  private readonly creates = new GroupCommit<PendingCreate, OrderRecord>((batch) => this.writeCreates(batch));

  private readonly lists: OrderLists;

  constructor(private readonly db: Db) {
    this.lists = new OrderLists(db, this.copies);
  }

  /** Resolves once every create submitted so far is written (the store closes after it). */
  idle(): Promise<void> {
    return this.creates.idle();
  }

  async create(input: NewOrder, opts: CreateOptions): Promise<OrderRecord> {
    const parsed = NewOrder.parse(input);
    const now = new Date();
    const id = parsed.id ?? newId();
    // Built (and checked) before the transaction, so a bad job fails before a number is used.
    const jobs = SqlMailOutbox.build(opts.mail ?? [], now, id);
    return this.creates.submit({ input: parsed, id, now, jobs, opts });
  }

  /** A batch in one transaction; if it fails for one create's sake, each create alone. */
  private async writeCreates(batch: PendingCreate[]): Promise<Outcome<OrderRecord>[]> {
    try {
      // Several creates at once: orders are arriving faster than one at a time (sql/db.ts).
      const durability = batch.length > 1 ? 'grouped' : 'durable';
      const outcomes = await this.db.transaction((tx) => this.insert(tx, batch), durability);
      return outcomes.map((o) => (o.ok ? { ok: true, value: this.copies.keep(o.value) } : o));
    } catch (error) {
      if (batch.length === 1 || isUnavailable(error)) return batch.map(() => ({ ok: false, error }));
    }
    const out: Outcome<OrderRecord>[] = [];
    for (const p of batch) out.push(...(await this.writeCreates([p])));
    return out;
  }

  /**
   * Takes the batch's coupon uses (a create whose coupon has none left is refused alone, in
   * its outcome), numbers the rest (each prefix's next number read once, under its lock),
   * then writes them all.
   */
  private async insert(tx: Tx, all: PendingCreate[]): Promise<Outcome<OrderRecord>[]> {
    const refused = new Map<PendingCreate, Outcome<OrderRecord>>();
    for (const p of all) {
      const code = p.input.couponCode;
      // A held order takes its use when it is confirmed (releaseHold), not before.
      if (!code || p.input.held) continue;
      const claim = await SqlCoupons.claim(tx, code);
      if (!claim.ok) {
        refused.set(p, { ok: false, error: claimRefused(code, claim.reason) });
      }
    }
    const batch = refused.size === 0 ? all : all.filter((p) => !refused.has(p));
    const written = batch.length === 0 ? [] : await this.insertNumbered(tx, batch);
    const byCreate = new Map(batch.map((p, i) => [p, written[i] as OrderRecord]));
    return all.map((p) => refused.get(p) ?? { ok: true, value: byCreate.get(p) as OrderRecord });
  }

  private async insertNumbered(tx: Tx, batch: PendingCreate[]): Promise<OrderRecord[]> {
    const next = new Map<string, number>();
    const orders: OrderRecord[] = [];
    const rows: Param[][] = [];
    for (const p of batch) {
      const { prefix } = p.input;
      let seq = next.get(prefix);
      if (seq === undefined) {
        await tx.lock(`order-number:${prefix}`);
        seq = Number((await tx.get<{ n: number }>(NEXT_SEQUENCE_SQL, [prefix]))?.n);
      }
      const order = buildNewOrder(p.input, seq, p.now, p.id, p.opts.by);
      next.set(prefix, seq + 1);
      orders.push(order);
      rows.push(insertValues(order, prefix, seq));
    }
    try {
      await tx.insert('orders', INSERT_COLUMNS, rows);
    } catch (err) {
      // A taken id (the caller's bug): retried create by create (writeCreates), it fails alone.
      if ((err as { uniqueColumns?: string }).uniqueColumns === 'id') throw duplicateOrderId(batch[0]?.id ?? '');
      throw err;
    }
    await SqlMailOutbox.insert(
      tx,
      batch.flatMap((p) => p.jobs),
    );
    for (const [i, p] of batch.entries()) {
      const key = p.opts.idempotency;
      const order = orders[i] as OrderRecord;
      if (key) await SqlIdempotencyKeys.completeWithOrder(tx, key.key, key.reservedAt, order.id, key.respond(order));
    }
    return orders;
  }

  async get(ref: string): Promise<OrderRecord | null> {
    const { where, params } = byRef(ref);
    // Its id and version first: an order handed out before at that version is answered as it
    // is, without reading and parsing its row (most reads of an order repeat an earlier one).
    const head = await this.db.get<{ id: string; version: number }>(`SELECT id, version FROM orders ${where}`, params);
    if (!head) return null;
    const copy = this.copies.get(head.id, Number(head.version));
    if (copy) return copy;
    const row = await this.db.get(`SELECT ${SELECT_COLUMNS} FROM orders WHERE id = ?`, [head.id]);
    return row ? this.copies.adopt(row) : null;
  }

  list(query: OrderListQuery = {}): Promise<OrderRecord[]> {
    return this.lists.read(query);
  }

  /** Reads the order locked for update, applies the change and writes it with its mail, in one transaction. */
  private async modify(ref: string, opts: ChangeOptions, apply: (o: OrderRecord) => Applied): Promise<UpdateResult> {
    const result = await this.db.transaction(async (tx) => {
      const { where, params } = byRef(ref);
      const row = await tx.get(`SELECT ${SELECT_COLUMNS} FROM orders ${where}${this.db.dialect.forUpdate}`, params);
      if (!row) throw orderNotFound(ref);
      const current = rowToOrder(row);
      const event = opts.paymentEvent;
      if (event && !(await SqlPaymentEvents.insert(tx, { ...event, orderId: current.id }, new Date()))) {
        return { order: current, changed: false, duplicate: true };
      }
      const applied = apply(current);
      if (applied.changed) {
        // A held order's confirmation takes its coupon's use now; none left: refused, nothing written.
        if (claimsCoupon(current, applied.order)) {
          const code = applied.order.couponCode as string;
          const claim = await SqlCoupons.claim(tx, code);
          if (!claim.ok) throw claimRefused(code, claim.reason);
        }
        await this.write(tx, applied.order, current.version);
        if (releasesCoupon(current, applied.order)) await SqlCoupons.giveBack(tx, applied.order.couponCode as string);
        await SqlMailOutbox.insert(tx, SqlMailOutbox.build(opts.mail ?? [], new Date(), current.id));
      }
      return { ...applied, duplicate: false };
    });
    return {
      order: this.copies.keep(result.order),
      changed: result.changed,
      ...(opts.paymentEvent ? { duplicate: result.duplicate } : {}),
    };
  }

  private async write(tx: Queryable, order: OrderRecord, fromVersion: number): Promise<void> {
    const changed = await tx.run(UPDATE_SQL, updateValues(order, fromVersion));
    if (changed !== 1) throw new Error(`order ${order.orderNumber} changed under its lock`);
  }

  update(ref: string, patch: Parameters<OrdersPort['update']>[1], opts: ChangeOptions): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyOrderPatch(o, patch, now, opts.by));
  }

  setShipping(ref: string, patch: Parameters<OrdersPort['setShipping']>[1], opts: ChangeOptions) {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyShipping(o, patch, now, opts.by));
  }

  async appendFeedback(
    ref: string,
    text: string,
    at: Date,
    opts: ChangeOptions & { proof: FeedbackProof },
  ): Promise<OrderRecord> {
    const now = new Date();
    return (await this.modify(ref, opts, (o) => applyFeedback(o, text, at, now, opts.by, opts.proof))).order;
  }

  attachPayment(ref: string, payment: OrderPayment, opts: ChangeOptions): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyPayment(o, payment, now, opts.by));
  }

  setPickup(ref: string, status: PickupStatus, opts: ChangeOptions, printAll = false): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyPickup(o, status, now, opts.by, printAll));
  }

  async markPrinted(lines: PrintedLines, opts: ChangeOptions): Promise<PrintedResult[]> {
    const now = new Date();
    // Rows locked in one order (by ref) whatever the caller's order, so two batches marking
    // overlapping orders wait for each other instead of deadlocking.
    const refs = [...lines.keys()].sort();
    const results = await this.db.transaction(async (tx) => {
      const out: (Applied & { marked: number[] })[] = [];
      for (const ref of refs) {
        const { where, params } = byRef(ref);
        const row = await tx.get(`SELECT ${SELECT_COLUMNS} FROM orders ${where}${this.db.dialect.forUpdate}`, params);
        if (!row) throw orderNotFound(ref);
        const current = rowToOrder(row);
        const applied = applyPrinted(current, lines.get(ref) ?? [], now, opts.by);
        if (applied.changed) await this.write(tx, applied.order, current.version);
        const had = new Set(current.printed.map((p) => p.line));
        out.push({ ...applied, marked: applied.order.printed.map((p) => p.line).filter((l) => !had.has(l)) });
      }
      return out;
    });
    return results.map((r) => ({ order: this.copies.keep(r.order), changed: r.changed, marked: r.marked }));
  }

  notePrint(ref: string, note: PrintNote, opts: ChangeOptions): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyPrintNote(o, note, now, opts.by));
  }

  flagRemovedPhoto(ref: string, photoNumber: string, opts: ChangeOptions): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyPhotoRemoved(o, photoNumber, now, opts.by));
  }

  releaseHold(ref: string, opts: ChangeOptions): Promise<UpdateResult> {
    const now = new Date();
    return this.modify(ref, opts, (o) => applyRelease(o, now, opts.by));
  }

  async expireHolds(now: Date): Promise<OrderRecord[]> {
    const at = new Date();
    const expired = await this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT ${SELECT_COLUMNS} FROM orders WHERE held = TRUE AND status = 'pending' AND hold_expires_at <= ?
         ORDER BY pk${this.db.dialect.forUpdate}`,
        [now.toISOString()],
      );
      const out: OrderRecord[] = [];
      for (const row of rows) {
        const current = rowToOrder(row);
        const { order } = applyHoldExpiry(current, at);
        await this.write(tx, order, current.version);
        if (releasesCoupon(current, order)) await SqlCoupons.giveBack(tx, order.couponCode as string);
        out.push(order);
      }
      return out;
    });
    return expired.map((o) => this.copies.keep(o));
  }

  async summary(query: { eventSlug?: string | undefined } = {}): Promise<SalesSummaryCents> {
    const byEvent = query.eventSlug !== undefined;
    const rows = await this.db.all<{ status: OrderStatus; n: number; total: number; discount: number }>(
      `SELECT status, CAST(count(*) AS INTEGER) AS n, CAST(coalesce(sum(total_cents), 0) AS BIGINT) AS total,
         CAST(coalesce(sum(discount_cents), 0) AS BIGINT) AS discount
       FROM orders WHERE held = FALSE${byEvent ? ' AND event_slug = ?' : ''} GROUP BY status`,
      byEvent ? [query.eventSlug as string] : [],
    );
    const totals: StatusTotals = {};
    for (const r of rows) {
      totals[r.status] = { count: Number(r.n), totalCents: Number(r.total), discountCents: Number(r.discount) };
    }
    return summaryFromTotals(totals);
  }
}

export type { Actor };
