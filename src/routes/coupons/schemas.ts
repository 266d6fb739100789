/** Coupon shapes of the admin API (docs/contract.md, "Selling"): dollars here, cents in the record. */
import { z } from 'zod';
import { COUPON_CODE, COUPON_KINDS, CouponRecord, normalizeCouponCode } from '../../domain/coupons.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { Dollars } from '../../schemas/dollars.js';

export const CouponCodeParam = z.object({
  code: z.string().regex(COUPON_CODE).describe('The coupon code, any case'),
});

export const CouponCreate = z
  .object({
    code: z
      .string()
      .trim()
      .regex(COUPON_CODE, '3–32 letters, digits, - or _')
      .describe('3–32 letters, digits, `-` or `_`; matched in any case, stored upper-case'),
    eventSlug: z.string().min(1).max(200).nullable().optional().describe('The one event it is good for; absent: all'),
    kind: z.enum(COUPON_KINDS).describe('`percent` of the goods, an `amount` off them, or `freeShipping`'),
    value: z
      .number()
      .positive()
      .optional()
      .describe('percent: a whole percent 1–100; amount: dollars off (whole cents); freeShipping: none'),
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe('Refused from this instant on (ISO 8601 with an offset); absent: never'),
    maxUses: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .optional()
      .describe('Orders that may use it; absent: no limit'),
    minSubtotal: Dollars.optional().describe('The goods (after packages) must cost at least this many dollars'),
  })
  .strict()
  .superRefine((c, ctx) => {
    const problem =
      c.kind === 'freeShipping'
        ? c.value !== undefined && 'a free-shipping coupon takes no value'
        : c.value === undefined
          ? `a ${c.kind} coupon needs a value`
          : c.kind === 'percent'
            ? (!Number.isInteger(c.value) || c.value > 100) && 'a whole percent from 1 to 100'
            : // at least a cent: 0.001 would pass the decimals check and round to nothing
              (!Dollars.safeParse(c.value).success || Math.round(c.value * 100) < 1) &&
              'dollars from 0.01, with at most 2 decimals, up to 100000';
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  })
  .meta({ id: 'CouponCreate' });
export type CouponCreate = z.infer<typeof CouponCreate>;

/** The coupon as the admin sees it: the record's fields (domain/coupons.ts), with dollars for cents. */
const record = CouponRecord.shape;
export const Coupon = z
  .object({
    code: record.code,
    eventSlug: record.eventSlug,
    kind: record.kind,
    value: z.number().nullable().describe('percent: percent; amount: dollars; freeShipping: null'),
    expiresAt: record.expiresAt,
    maxUses: record.maxUses,
    uses: record.uses,
    remaining: z.number().int().nullable().describe('Uses left; null: no limit'),
    minSubtotal: z.number().describe('Dollars the goods must cost at least'),
    createdAt: record.createdAt,
  })
  .meta({ id: 'Coupon' });
export type CouponT = z.infer<typeof Coupon>;

export const CouponList = z.object({ coupons: z.array(Coupon) }).meta({ id: 'CouponList' });

export const CouponDeleted = z.object({ success: z.literal(true), code: z.string() });

/** The record to store for a request (`createdAt` now). */
export function toCouponRecord(body: CouponCreate, now: Date): Omit<CouponRecord, 'uses'> {
  return {
    code: normalizeCouponCode(body.code),
    eventSlug: body.eventSlug ?? null,
    kind: body.kind,
    value:
      body.kind === 'freeShipping'
        ? null
        : body.kind === 'amount'
          ? dollarsToCents(body.value ?? 0)
          : (body.value ?? 0),
    expiresAt: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
    maxUses: body.maxUses ?? null,
    minSubtotalCents: dollarsToCents(body.minSubtotal ?? 0),
    createdAt: now.toISOString(),
  };
}

export function toCoupon(c: CouponRecord): CouponT {
  return {
    code: c.code,
    eventSlug: c.eventSlug,
    kind: c.kind,
    value: c.value === null ? null : c.kind === 'amount' ? centsToDollars(c.value) : c.value,
    expiresAt: c.expiresAt,
    maxUses: c.maxUses,
    uses: c.uses,
    remaining: c.maxUses === null ? null : Math.max(0, c.maxUses - c.uses),
    minSubtotal: centsToDollars(c.minSubtotalCents),
    createdAt: c.createdAt,
  };
}
