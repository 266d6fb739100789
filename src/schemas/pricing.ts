/**
 * The price breakdown `POST /api/quote` answers and 400 PRICE_MISMATCH carries
 * (docs/contract.md, "Selling"). `toPriceBreakdown` is the only place a PricedOrder becomes
 * text, so the quote and the refusal can never disagree.
 */
import { z } from 'zod';
import { formatItems } from '../domain/items.js';
import { formatCents } from '../domain/money.js';
import type { PricedOrder } from '../domain/pricing.js';

const money = z
  .string()
  .regex(/^-?\$\d+\.\d{2}$/)
  .describe('Currency text, e.g. "$12.50"');

export const PriceBreakdown = z
  .object({
    items: z.string().describe('The lines as items text: `Photo #<number> (<size>) x<quantity> = $<amount>; ...`'),
    lines: z.array(
      z.object({
        line: z.number().int().describe('1-based'),
        photoNumber: z.string(),
        size: z.string().describe('The size as the price list spells it'),
        quantity: z.number().int(),
        unitPrice: money,
        amount: money.describe('quantity × unitPrice'),
      }),
    ),
    subtotal: money.describe('The sum of the line amounts'),
    packages: z
      .array(
        z.object({
          size: z.string(),
          count: z.number().int(),
          price: money.describe('What `count` copies cost together'),
          sets: z.number().int().describe('Full packages in this order'),
          saving: money,
        }),
      )
      .describe('The packages that applied'),
    packageSavings: money,
    earlyBird: z
      .object({
        percent: z.number().int(),
        until: z.string().describe('ISO 8601 UTC'),
        discount: money,
        applied: z.boolean().describe('False when the coupon gives more'),
      })
      .nullable()
      .describe('The early bird when it runs at the time of the order; null otherwise'),
    coupon: z
      .object({
        code: z.string(),
        kind: z.enum(['percent', 'amount', 'freeShipping']),
        percent: z.number().int().nullable().describe('For `percent` coupons'),
        amount: money.nullable().describe('For `amount` coupons'),
        discount: money,
        applied: z.boolean().describe('False when the early bird gives as much or more'),
      })
      .nullable()
      .describe('The coupon given with the order, once accepted; null when none was given'),
    discount: money.describe('packageSavings plus the applied early bird or coupon'),
    shippingFee: money.describe('The event fee when the order ships and holds a print; $0.00 otherwise'),
    total: money.describe('subtotal − discount + shippingFee, never below $0.00'),
  })
  .meta({ id: 'PriceBreakdown' });
export type PriceBreakdown = z.infer<typeof PriceBreakdown>;

export function toPriceBreakdown(p: PricedOrder): PriceBreakdown {
  return {
    items: formatItems(p.lines),
    lines: p.lines.map((l, i) => ({
      line: i + 1,
      photoNumber: l.photoNumber,
      size: l.size,
      quantity: l.quantity,
      unitPrice: formatCents(l.unitCents),
      amount: formatCents(l.lineCents),
    })),
    subtotal: formatCents(p.subtotalCents),
    packages: p.packages.map((u) => ({
      size: u.size,
      count: u.count,
      price: formatCents(u.priceCents),
      sets: u.sets,
      saving: formatCents(u.savingCents),
    })),
    packageSavings: formatCents(p.packageSavingsCents),
    earlyBird: p.earlyBird && {
      percent: p.earlyBird.percent,
      until: p.earlyBird.until,
      discount: formatCents(p.earlyBird.discountCents),
      applied: p.earlyBird.applied,
    },
    coupon: p.coupon && {
      code: p.coupon.code,
      kind: p.coupon.kind,
      percent: p.coupon.kind === 'percent' ? p.coupon.value : null,
      amount: p.coupon.kind === 'amount' && p.coupon.value !== null ? formatCents(p.coupon.value) : null,
      discount: formatCents(p.coupon.discountCents),
      applied: p.coupon.applied,
    },
    discount: formatCents(p.discountCents),
    shippingFee: formatCents(p.shippingFeeCents),
    total: formatCents(p.totalCents),
  };
}
