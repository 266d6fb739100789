/**
 * The coupons port (docs/contract.md, "Selling"): the coupons an admin made, with the number
 * of orders using each; rows are parsed with the domain's `CouponRecord`. Uses are counted in
 * the order's own transaction (sql/orders.ts), so `maxUses` is never exceeded in any number
 * of processes.
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
