/**
 * A coupon book held in memory: nothing survives a restart and uses are not counted.
 * It stands in until the order store keeps coupons (see types.ts); `put` is how tests and
 * that future admin API add one.
 */
import { CouponRecord, normalizeCouponCode } from '../../domain/coupons.js';
import type { CouponBook } from './types.js';

export type MemoryCouponBook = CouponBook & {
  /** Adds or replaces a coupon (validated with the record schema). */
  put(coupon: CouponRecord): void;
};

export function createMemoryCouponBook(): MemoryCouponBook {
  const coupons = new Map<string, CouponRecord>();
  return {
    async find(code) {
      return coupons.get(normalizeCouponCode(code));
    },
    put(coupon) {
      const parsed = CouponRecord.parse(coupon);
      coupons.set(parsed.code, parsed);
    },
  };
}
