/**
 * The customer's view of an order (`POST /api/orders/lookup`): what the customer needs to
 * follow it, nothing an attacker who guessed a number and an email could use (never the id,
 * which opens `{id}` paths, nor any contact or address detail).
 */

import { z } from 'zod';
import type { OrderRecord } from '../../domain/order.js';
import { trackingLink } from '../../domain/tracking.js';
import { orderView, type ViewShape } from '../../schemas/order.js';

/** `AX25-0001`; `ax25-1`, `#AX25-0001` and ` AX25-00001 ` too (normalised to `AX25-0001`). */
const ORDER_NUMBER = /^#?([A-Za-z0-9]{1,8})-0*(\d{1,12})$/;

export const LookupBody = z
  .strictObject({
    orderNumber: z
      .string()
      .trim()
      .max(64)
      .regex(ORDER_NUMBER, 'an order number such as AX25-0001')
      .transform((s) => {
        const [, prefix, seq] = ORDER_NUMBER.exec(s) as unknown as [string, string, string];
        return `${prefix.toUpperCase()}-${seq.padStart(4, '0')}`;
      })
      .describe('The order number from the confirmation or receipt (`AX25-0001`; any case, zero padding optional)'),
    email: z
      .string()
      .trim()
      .min(1)
      .max(254)
      .describe('The email address the order was placed with, compared case-insensitively'),
  })
  .meta({ id: 'OrderLookupRequest' });
export type LookupBody = z.infer<typeof LookupBody>;

/** The order fields the customer sees: those the field table marks `customer`, with their description there. */
const customerFields = orderView<ViewShape<{ customer: true | string }>>(({ schema, customer }) =>
  customer === undefined ? undefined : customer === true ? schema : schema.describe(customer),
);

export const CustomerOrder = customerFields.schema
  .extend({
    eventName: z.string().nullable().describe('The event’s name; null when its photos are no longer online'),
    paymentInstructions: z
      .string()
      .nullable()
      .describe(
        'How to pay (the photographer’s business settings), while the order waits for payment; null once paid, cancelled, or while held',
      ),
    tracking: z
      .object({ carrier: z.enum(['USPS', 'UPS', 'FedEx']), url: z.string() })
      .nullable()
      .describe('The carrier’s tracking page, for a USPS, UPS or FedEx tracking number; null otherwise'),
    downloads: z
      .array(
        z.object({
          line: z.number().int().describe('The order line (1-based)'),
          photoNumber: z.string(),
          url: z.string().describe('`GET /api/downloads/{token}`: the file, DOWNLOAD_MAX times'),
          expiresAt: z.string().describe('ISO 8601: DOWNLOAD_TTL_DAYS after payment'),
        }),
      )
      .describe('Once the order is paid, one signed link per digital file; empty before'),
  })
  .meta({ id: 'CustomerOrder' });
export type CustomerOrder = z.infer<typeof CustomerOrder>;

export type DownloadLinkView = CustomerOrder['downloads'][number];

export function toCustomerOrder(
  o: OrderRecord,
  eventName: string | null,
  downloads: readonly DownloadLinkView[] = [],
  paymentInstructions = '',
): CustomerOrder {
  return {
    ...customerFields.view(o),
    eventName,
    paymentInstructions: o.status === 'pending' && !o.held && paymentInstructions ? paymentInstructions : null,
    tracking: o.shippingStatus === 'shipped' && o.trackingNumber ? trackingLink(o.trackingNumber) : null,
    downloads: downloads.map((d) => ({ line: d.line, photoNumber: d.photoNumber, url: d.url, expiresAt: d.expiresAt })),
  };
}
