/** `POST /api/quote` (docs/contract.md, "Selling"): the body, and the answer (a PriceBreakdown). */
import { z } from 'zod';
import { MAX_ORDER_LINES, MAX_QUANTITY } from '../../domain/pricing.js';
import { PriceBreakdown } from '../../schemas/pricing.js';

const PhotoRef = z.union([z.string().trim().min(1).max(64), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]);

export const QuoteBody = z
  .object({
    eventSlug: z.string().trim().min(1).max(200).describe('The event (gallery code)'),
    lines: z
      .array(
        z.object({
          photo: PhotoRef.describe('Photo number (or id)'),
          size: z
            .string()
            .trim()
            .min(1)
            .max(32)
            .optional()
            .describe("A size of the event's price list; default: its default size"),
          quantity: z.number().int().min(1).max(MAX_QUANTITY).default(1).describe(`1–${MAX_QUANTITY}, default 1`),
        }),
      )
      .min(1)
      .max(MAX_ORDER_LINES)
      .describe(`1–${MAX_ORDER_LINES} lines`),
    fulfillmentType: z
      .enum(['ship', 'pickup', 'digital'])
      .default('ship')
      .describe(
        '`ship` adds the shipping fee when a print is ordered; default `ship`. Digital files alone are `digital` whatever is asked',
      ),
    couponCode: z.string().trim().min(1).max(64).optional().describe('A coupon code to try (any case)'),
  })
  .meta({ id: 'QuoteRequest' });
export type QuoteBody = z.infer<typeof QuoteBody>;

export const Quote = PriceBreakdown.extend({
  eventSlug: z.string(),
  fulfillmentType: z
    .enum(['ship', 'pickup', 'digital'])
    .describe('The order’s fulfilment: `digital` when every line is a digital file (no delivery to choose)'),
}).meta({ id: 'Quote' });
