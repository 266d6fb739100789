/**
 * Where the order intake and the quote endpoint look coupons up (docs/contract.md,
 * "Selling"), decorated as `fastify.coupons`. Validation is not here: it is the pure
 * `validateCoupon` of src/domain/coupons.ts, applied by the pricing rules.
 *
 * For now the book is the in-memory one of memory.ts, which starts empty: every code is
 * refused as unknown until coupons are kept in the order store with their use counts (and
 * created through the admin API); that store port replaces this one behind the same `find`.
 */
import type { CouponRecord } from '../../domain/coupons.js';

export interface CouponBook {
  /** The coupon for a code as a customer typed it (any case, surrounding spaces); undefined when none. */
  find(code: string): Promise<CouponRecord | undefined>;
}
