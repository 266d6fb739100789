/**
 * The coupons port (docs/contract.md, "Selling"): the coupons an admin made, with the number
 * of orders using each. The record's schema is the domain's `CouponRecord`
 * (src/domain/coupons.ts); every row read is parsed with it.
 *
 * Uses are not counted here but in the order's own transaction (sql/orders.ts): an order
 * with a coupon takes one use as it is created, atomically (`maxUses` is never exceeded,
 * in any number of processes), and gives it back when it becomes void or cancelled.
 */
import type { CouponRecord } from '../../../domain/coupons.js';

export type { CouponRecord };

export interface CouponsPort {
  /** Stores a new coupon (`uses` starts at 0); a code taken already is AppError COUPON_EXISTS. */
  create(coupon: Omit<CouponRecord, 'uses'>): Promise<CouponRecord>;
  /** By code, in any case; null when there is none. */
  get(code: string): Promise<CouponRecord | null>;
  /** Every coupon, newest first. */
  list(): Promise<CouponRecord[]>;
  /**
   * Removes it: later orders are refused its code. Orders that used it keep their discount
   * and code. False when there was none.
   */
  delete(code: string): Promise<boolean>;
}
