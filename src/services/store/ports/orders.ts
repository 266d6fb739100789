/**
 * The orders port (docs/contract.md, "Orders" and "Status and shipping"). Rows are parsed
 * with the domain's `OrderRecord`, and every change goes through src/domain/order-changes.ts
 * inside the write's transaction, so checks and writes are atomic. Orders are found by id or
 * number (any case); unknown: null from `get`, ORDER_NOT_FOUND from a change. Every write
 * bumps `version` and appends to `history`.
 */
import type {
  Actor,
  NewOrder,
  OrderPayment,
  OrderRecord,
  OrderStatus,
  PickupStatus,
  SalesSummaryCents,
} from '../../../domain/order.js';
import type { FeedbackProof, OrderPatch, PrintNote, ShippingPatch } from '../../../domain/order-changes.js';
import type { StoredResponse } from './idempotency-keys.js';
import type { MailJobInput } from './mail-outbox.js';

export type { OrderPatch, PrintNote, ShippingPatch };

export type OrderListQuery = {
  /** Any of these statuses; all when absent. */
  statuses?: readonly OrderStatus[];
  eventSlug?: string | undefined;
  /** Held (unconfirmed high-value) orders are left out unless this is true. */
  includeHeld?: boolean;
};

/** `duplicate`: the change's payment event was handled before (nothing was changed). */
export type UpdateResult = { order: OrderRecord; changed: boolean; duplicate?: boolean };

/** Lines to mark printed: per order (id or number), 0-based indexes into its items. */
export type PrintedLines = ReadonlyMap<string, readonly number[]>;

/** An order after `markPrinted`, with the lines this call marked (not those marked before). */
export type PrintedResult = UpdateResult & { marked: number[] };

/**
 * Who made a change, and the mail it causes (enqueued in the same transaction, only if
 * something changed). `paymentEvent`: the payment provider's webhook event the change comes
 * from, recorded in the same transaction (ports/payment-events.ts); one recorded already
 * makes the change a no-op with `duplicate: true`.
 */
export type ChangeOptions = {
  by: Actor;
  mail?: readonly MailJobInput[];
  paymentEvent?: { id: string; kind: string };
};

export type CreateOptions = ChangeOptions & {
  /**
   * The Idempotency-Key this create runs under, reserved at `reservedAt`: the key is completed
   * with `respond(order)` and the order's id in the order's transaction. If the reservation
   * was taken over meanwhile, nothing is written (IDEMPOTENCY_IN_PROGRESS).
   */
  idempotency?: { key: string; reservedAt: string; respond: (order: OrderRecord) => StoredResponse };
};

export interface OrdersPort {
  /**
   * Assigns the id (unless `input.id`), the next number of `input.prefix`, timestamps,
   * `pending` and the first history entry, and takes one use of `input.couponCode` (none left:
   * COUPON_INVALID; a held order takes it at `releaseHold`). Resolves once the order, its mail
   * and its key are durable; creates arriving together share one fsync. A taken id is
   * INTERNAL. A failed create writes nothing and uses no number.
   */
  create(input: NewOrder, opts: CreateOptions): Promise<OrderRecord>;
  /** By id or order number; null when unknown. */
  get(ref: string): Promise<OrderRecord | null>;
  /**
   * Newest first. Always current (read through, in any process); records unchanged since an
   * earlier read are the same frozen objects as then, so whatever was derived from them can
   * be reused. An order changed during the read is listed as it was before or after, once.
   */
  list(query?: OrderListQuery): Promise<OrderRecord[]>;
  /**
   * A status move and/or field edits. A move into `void` or `cancelled` gives the order's
   * coupon use back, in the same transaction.
   */
  update(ref: string, patch: OrderPatch, opts: ChangeOptions): Promise<UpdateResult>;
  /** Records the online checkout opened for the order (its `paymentUrl`). */
  attachPayment(ref: string, payment: OrderPayment, opts: ChangeOptions): Promise<UpdateResult>;
  /**
   * `shipped: true` needs paid + ship and every print line printed (else AppError NOT_PRINTED;
   * `printAll` marks them printed in the same change); sets tracking. `shipped: false` undoes it.
   */
  setShipping(ref: string, patch: ShippingPatch, opts: ChangeOptions): Promise<UpdateResult>;
  /**
   * Appends `[at] text` to the feedback, sent with `proof` of the order (its email, or admin
   * credentials); the 11th such entry is AppError FEEDBACK_LIMIT.
   */
  appendFeedback(
    ref: string,
    text: string,
    at: Date,
    opts: ChangeOptions & { proof: FeedbackProof },
  ): Promise<OrderRecord>;
  /**
   * A paid pickup order's booth status (waiting → ready → collected); else AppError
   * ORDER_NOT_PICKUP or INVALID_TRANSITION. The same status again changes nothing. `ready` and
   * `collected` need every print line printed (else AppError NOT_PRINTED), or `printAll`, which
   * marks them printed in the same change.
   */
  setPickup(ref: string, status: PickupStatus, opts: ChangeOptions, printAll?: boolean): Promise<UpdateResult>;
  /**
   * Marks lines printed, across orders, in one transaction: all or nothing. An unknown order
   * is AppError ORDER_NOT_FOUND, an order that is not paid INVALID_TRANSITION (nothing is
   * written then). Lines marked before are left as they were. Returns every order named,
   * with the lines this call marked.
   */
  markPrinted(lines: PrintedLines, opts: ChangeOptions): Promise<PrintedResult[]>;
  /** A `print-sent` or `print-failed` history entry for one line; the same note again changes nothing. */
  notePrint(ref: string, note: PrintNote, opts: ChangeOptions): Promise<UpdateResult>;
  /** Flags the order: photo `photoNumber` of it was taken down for good (a `photo-removed` history entry). */
  flagRemovedPhoto(ref: string, photoNumber: string, opts: ChangeOptions): Promise<UpdateResult>;
  /**
   * Confirms a held order (no-op if not held), taking its coupon's use in the same
   * transaction: none left (or the coupon gone) is AppError COUPON_INVALID, and the order
   * stays held.
   */
  releaseHold(ref: string, opts: ChangeOptions): Promise<UpdateResult>;
  /** Held pending orders whose hold expired by `now` become `cancelled` (by `system`); returns them. */
  expireHolds(now: Date): Promise<OrderRecord[]>;
  /** The sales summary's figures over orders not held, optionally for one event. */
  summary(query?: { eventSlug?: string | undefined }): Promise<SalesSummaryCents>;
}
