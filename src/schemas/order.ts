/**
 * The Order as the API shows it (docs/contract.md, "Orders" and "Status and shipping"): money as "$12.50" text,
 * items as the semicolon-separated text. `toApiOrder` is the only place a stored
 * OrderRecord becomes a response, and the schema is an allow-list.
 */
import { z } from 'zod';
import { formatItems } from '../domain/items.js';
import { centsToDollars, formatCents } from '../domain/money.js';
import { HISTORY_ACTIONS, type OrderRecord, type SalesSummaryCents } from '../domain/order.js';

const money = z
  .string()
  .regex(/^-?\$\d+\.\d{2}$/)
  .describe('Currency text, e.g. "$12.50"');

export const ApiOrder = z
  .object({
    id: z.string().describe('Opaque unique id (UUID)'),
    orderNumber: z.string().describe('`<eventPrefix>-<sequence>`, e.g. `AX25-0001`'),
    eventSlug: z.string(),
    customerName: z.string(),
    customerEmail: z.string(),
    customerPhone: z.string(),
    fulfillmentType: z.enum(['ship', 'pickup']),
    shippingAddress: z.string().describe('Street address; empty for pickup'),
    city: z.string(),
    state: z.string(),
    zipCode: z.string(),
    items: z.string().describe('`Photo #<number> (<size>) x<quantity> = $<amount>` lines separated by `; `'),
    subtotal: money,
    shippingFee: money,
    total: money,
    status: z.enum(['pending', 'paid', 'void', 'cancelled']),
    shippingStatus: z
      .enum(['ship', 'shipped', 'pickup'])
      .describe(
        '`ship`: to be shipped; `shipped`: marked shipped (`trackingNumber` when given); `pickup`: collected at the booth, never shipped',
      ),
    trackingNumber: z.string().describe('Empty until shipped with a tracking number'),
    feedback: z.string().describe('Customer feedback, entries `[<ISO time>] <text>` separated by a blank line'),
    createdAt: z.string().describe('ISO 8601'),
    updatedAt: z.string().describe('ISO 8601'),
    verificationRequired: z.boolean().describe('True while a high-value order waits for email confirmation'),
    addressVerified: z
      .boolean()
      .nullable()
      .describe('Postal check result; null when not checked (pickup, verifier off)'),
    channel: z.enum(['web', 'booth']).describe('web: public checkout; booth: entered with admin credentials'),
  })
  .meta({ id: 'Order' });
export type ApiOrder = z.infer<typeof ApiOrder>;

export function toApiOrder(o: OrderRecord): ApiOrder {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    eventSlug: o.eventSlug,
    customerName: o.customerName,
    customerEmail: o.customerEmail,
    customerPhone: o.customerPhone,
    fulfillmentType: o.fulfillmentType,
    shippingAddress: o.shippingAddress,
    city: o.city,
    state: o.state,
    zipCode: o.zipCode,
    items: formatItems(o.items),
    subtotal: formatCents(o.subtotalCents),
    shippingFee: formatCents(o.shippingFeeCents),
    total: formatCents(o.totalCents),
    status: o.status,
    shippingStatus: o.shippingStatus,
    trackingNumber: o.trackingNumber,
    feedback: o.feedback,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    verificationRequired: o.held,
    addressVerified: o.addressVerified,
    channel: o.channel,
  };
}

const HistoryEntry = z
  .object({
    at: z.string().describe('ISO 8601'),
    action: z.enum(HISTORY_ACTIONS),
    field: z
      .string()
      .optional()
      .describe('`edit`: the field changed; `photo-removed`: `photo`, with the number in `to`'),
    from: z.string().optional().describe('The status, shipping status or field value before'),
    to: z.string().optional().describe('...and after'),
    by: z
      .string()
      .describe(
        '`customer`, `system` (hold expiry), `sheet` (a hand edit in the spreadsheet), `admin:<first 8 hex of the SHA-256 of the admin token>`, or `admin` (before history was kept)',
      ),
  })
  .meta({ id: 'OrderHistoryEntry' });

/** The Order as admins see it: with its history. */
export const AdminOrder = ApiOrder.extend({
  history: z.array(HistoryEntry).describe('Every change to the order, oldest first'),
  removedPhotos: z
    .array(z.string())
    .describe(
      'Numbers of this order’s photos taken down for good while it was unpaid (docs/contract.md, "Takedown requests"): the photographer should settle these lines with the customer',
    ),
}).meta({ id: 'AdminOrder' });
export type AdminOrder = z.infer<typeof AdminOrder>;

export function toAdminOrder(o: OrderRecord): AdminOrder {
  const view = toApiOrder(o) as AdminOrder;
  // Field by field: the stored entries are the allow-list's fields already, but a record
  // could carry more in future and the response must not leak it.
  view.history = o.history.map((h) => {
    const entry: AdminOrder['history'][number] = { at: h.at, action: h.action, by: h.by };
    if (h.field !== undefined) entry.field = h.field;
    if (h.from !== undefined) entry.from = h.from;
    if (h.to !== undefined) entry.to = h.to;
    return entry;
  });
  view.removedPhotos = o.history.flatMap((h) => (h.action === 'photo-removed' && h.to ? [h.to] : []));
  return view;
}

export const SalesSummary = z
  .object({
    totalOrders: z.number().int().describe('All orders (held high-value orders excluded)'),
    pendingCount: z.number().int(),
    completedCount: z.number().int().describe('Paid orders'),
    cancelledCount: z.number().int().describe('Cancelled and void orders'),
    totalRevenue: z.number().describe('Sum of paid totals, dollars'),
    pendingRevenue: z.number().describe('Sum of pending totals, dollars'),
    averageOrderValue: z.number().describe('Mean total of paid orders, dollars, rounded to cents; 0 when none'),
  })
  .meta({ id: 'SalesSummary' });

export function toApiSummary(s: SalesSummaryCents): z.infer<typeof SalesSummary> {
  return {
    totalOrders: s.totalOrders,
    pendingCount: s.pendingCount,
    completedCount: s.completedCount,
    cancelledCount: s.cancelledCount,
    totalRevenue: centsToDollars(s.totalRevenueCents),
    pendingRevenue: centsToDollars(s.pendingRevenueCents),
    averageOrderValue: centsToDollars(s.averageOrderValueCents),
  };
}
