/**
 * Coupons (docs/contract.md, "Selling"): the record a coupon store keeps, and whether a code
 * may be used on an order, as a pure function of the record, the order and the time. Codes
 * are matched case-insensitively and kept upper-case.
 */
import { z } from 'zod';
import { type AppError, appError } from '../errors/catalogue.js';
import { formatCents } from './money.js';

export const COUPON_KINDS = ['percent', 'amount', 'freeShipping'] as const;
export const CouponKind = z.enum(COUPON_KINDS);
export type CouponKind = z.infer<typeof CouponKind>;

/** 3–32 letters, digits, `-` or `_`. */
export const COUPON_CODE = /^[A-Za-z0-9_-]{3,32}$/;

/** The stored spelling of a code: trimmed and upper-case. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

const isoTimestamp = z.iso.datetime({ offset: true });

export const CouponRecord = z
  .object({
    code: z
      .string()
      .regex(COUPON_CODE)
      .refine((c) => c === c.toUpperCase(), 'stored upper-case'),
    eventSlug: z.string().min(1).nullable().describe('The event it is good for; null: all'),
    kind: CouponKind,
    /** percent: 1–100; amount: cents (≥ 1); freeShipping: null. */
    value: z.number().int().min(1).nullable(),
    expiresAt: isoTimestamp.nullable().describe('Refused from this instant on; null: never expires'),
    maxUses: z.number().int().min(1).nullable().describe('Orders that may use it; null: no limit'),
    uses: z.number().int().min(0).describe('Orders using it now (a void or cancelled order gives its use back)'),
    /** The goods (lines after packages) must cost at least this; 0: no minimum. */
    minSubtotalCents: z.number().int().min(0),
    createdAt: isoTimestamp,
  })
  .superRefine((c, ctx) => {
    const problem =
      c.kind === 'freeShipping'
        ? c.value !== null && 'a free-shipping coupon has no value'
        : c.value === null
          ? `a ${c.kind} coupon needs a value`
          : c.kind === 'percent' && c.value > 100 && 'a percentage is 1 to 100';
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
export type CouponRecord = z.infer<typeof CouponRecord>;

export type CouponRefusal = 'unknown' | 'otherEvent' | 'expired' | 'exhausted' | 'belowMinimum';

export type CouponCheck =
  | { ok: true; coupon: CouponRecord }
  | { ok: false; reason: CouponRefusal; message: string; minSubtotalCents?: number };

export type CouponContext = {
  /** The code as the customer typed it. */
  code: string;
  eventSlug: string;
  /** The goods: the lines after packages, before any discount or shipping. */
  goodsCents: number;
  now: Date;
};

/**
 * Whether `coupon` (what the store found for the code, or undefined) may be used on this
 * order. Checked in this order, so the reason given is the most basic one.
 */
export function validateCoupon(coupon: CouponRecord | undefined, ctx: CouponContext): CouponCheck {
  const shown = normalizeCouponCode(ctx.code).slice(0, 32);
  if (!coupon) return { ok: false, reason: 'unknown', message: `There is no coupon ${shown}` };
  if (coupon.eventSlug !== null && coupon.eventSlug !== ctx.eventSlug) {
    return { ok: false, reason: 'otherEvent', message: `Coupon ${shown} is for another event` };
  }
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= ctx.now.getTime()) {
    return { ok: false, reason: 'expired', message: `Coupon ${shown} expired on ${coupon.expiresAt}` };
  }
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) {
    return { ok: false, reason: 'exhausted', message: `Coupon ${shown} has been used up` };
  }
  if (ctx.goodsCents < coupon.minSubtotalCents) {
    return {
      ok: false,
      reason: 'belowMinimum',
      minSubtotalCents: coupon.minSubtotalCents,
      message: `Coupon ${shown} needs an order of at least ${formatCents(coupon.minSubtotalCents)} (this one is ${formatCents(ctx.goodsCents)})`,
    };
  }
  return { ok: true, coupon };
}

/** 400 COUPON_INVALID for a refusal; `details` carry the code and the reason. */
export function couponInvalid(code: string, refusal: Extract<CouponCheck, { ok: false }>): AppError {
  return appError('COUPON_INVALID', {
    message: refusal.message,
    details: {
      couponCode: normalizeCouponCode(code).slice(0, 32),
      reason: refusal.reason,
      ...(refusal.minSubtotalCents === undefined ? {} : { minSubtotal: formatCents(refusal.minSubtotalCents) }),
    },
  });
}
