/**
 * Shapes of `GET /api/orders/summary/breakdown` (admin): paid sales by day and by event,
 * amounts in dollars like the sales summary (`SalesSummary`).
 */
import { z } from 'zod';
import { OrderStatus } from '../../domain/order.js';
import { isTimeZone } from '../../domain/sales.js';
import { ListQuery } from './schemas.js';

export const BreakdownQuery = ListQuery.extend({
  timeZone: z
    .string()
    .min(1)
    .max(64)
    .refine(isTimeZone, 'an IANA time zone such as UTC or America/Los_Angeles')
    // The zone's canonical name (`utc` → `UTC`), as the response states it.
    .transform((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone)
    .default('UTC')
    .describe(
      'IANA time zone whose calendar days `byDay` uses (default `UTC`). An unknown zone: 400 `VALIDATION_FAILED`.',
    ),
});

const revenue = z.number().describe('Sum of the paid totals, dollars (computed in cents)');
const orders = z.number().int().describe('Paid orders');

export const SalesBreakdown = z
  .object({
    eventSlug: z.string().nullable().describe('The event asked for with `?eventSlug=`, or null for all events'),
    timeZone: z.string().describe('The time zone of the `byDay` dates'),
    byDay: z
      .array(
        z.object({
          date: z.string().describe('YYYY-MM-DD: the calendar date of the orders’ `createdAt` in `timeZone`'),
          orders,
          revenue,
        }),
      )
      .describe('Days with paid orders, oldest first'),
    byEvent: z
      .array(
        z.object({
          eventSlug: z.string(),
          eventName: z.string().nullable().describe('The event’s name; null when it is no longer in the photo library'),
          orders,
          revenue,
        }),
      )
      .describe('Events with paid orders, highest revenue first'),
  })
  .meta({ id: 'SalesBreakdown' });
export type SalesBreakdownT = z.infer<typeof SalesBreakdown>;

/** `GET /api/orders/lines`: single order lines, without the customer's details. */
export const OrderLines = z
  .object({
    lines: z
      .array(
        z.object({
          orderNumber: z.string(),
          status: OrderStatus,
          createdAt: z.string().describe('When the order was placed (ISO 8601)'),
          eventSlug: z.string(),
          photoNumber: z.string(),
          photographer: z
            .string()
            .describe("From the photo's metadata (XMP dc:creator, photoshop:Credit, EXIF Artist); `unknown` for none"),
          size: z.string(),
          quantity: z.number().int(),
          amount: z.number().describe("The line's amount, dollars (computed in cents)"),
        }),
      )
      .describe('Newest order first; an order’s lines in their order'),
  })
  .meta({ id: 'OrderLines' });
export type OrderLinesT = z.infer<typeof OrderLines>;
