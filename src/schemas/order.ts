/**
 * The Order as the API shows it (docs/contract.md, "Orders"). Its fields are the order field
 * table's (src/domain/order-fields.ts, `ORDER_API`); `toApiOrder` is the only place a stored
 * OrderRecord becomes a response, and the schema is an allow-list.
 */

import { z } from 'zod';
import { centsToDollars, formatCents } from '../domain/money.js';
import { HISTORY_ACTIONS, itemId, type OrderRecord, type SalesSummaryCents } from '../domain/order.js';
import { type ApiShown, money, ORDER_API } from '../domain/order-fields.js';
import { apiReader } from '../domain/order-text.js';
import { lastPaidAt, UNDO_PAID_WINDOW_MS, undoPaidRefusal } from '../domain/transitions.js';

type Api = typeof ORDER_API;

/** The zod shape of a view showing the fields whose `ORDER_API` entry has `Only` (`unknown`: all of them). */
export type ViewShape<Only> = {
  [K in keyof Api as Api[K] extends Only
    ? Api[K] extends { as: infer A extends string }
      ? A
      : K
    : never]: Api[K]['schema'];
};

/**
 * A view of an order declared once, from the table's API column: a zod allow-list and the
 * function that shapes a record into it. A field added to the table needs no other edit.
 */
export function orderView<Shape extends z.ZodRawShape>(typeOf: (shown: ApiShown) => z.ZodType | undefined) {
  const fields: { name: string; read: (o: OrderRecord) => unknown }[] = [];
  const shape: Record<string, z.ZodType> = {};
  for (const [field, shown] of Object.entries(ORDER_API) as [keyof Api, ApiShown][]) {
    const type = typeOf(shown);
    if (type === undefined) continue;
    shape[shown.as ?? field] = type;
    fields.push({ name: shown.as ?? field, read: apiReader(shown.text, field) });
  }
  const schema = z.object(shape as unknown as Shape);
  const view = (o: OrderRecord) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f.name] = f.read(o);
    return out as z.infer<typeof schema>;
  };
  return { schema, view };
}

const orderFields = orderView<ViewShape<unknown>>((shown) => shown.schema);
export const ApiOrder = orderFields.schema.meta({ id: 'Order' });
export type ApiOrder = z.infer<typeof ApiOrder>;
export const toApiOrder: (o: OrderRecord) => ApiOrder = orderFields.view;

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
        '`customer`, `system` (hold expiry, an online checkout opened), `sheet` (a hand edit in the spreadsheet), `stripe` (paid or refunded online), `admin:<first 8 hex of the SHA-256 of the admin token>`, or `admin` (before history was kept)',
      ),
  })
  .meta({ id: 'OrderHistoryEntry' });

/** A line's photo as the library has it now (docs/contract.md, "Fulfilment"). */
export const AdminPhoto = z
  .object({
    id: z.string().describe('The photo’s id in the gallery'),
    number: z.string().describe('The photo number the customer ordered'),
    file: z.string().describe('The original’s path under PHOTOS_DIR (`<event>/<day>/<session>/<file>`)'),
    thumbnail: z.string().describe('Absolute URL of its thumbnail'),
  })
  .meta({ id: 'AdminOrderPhoto' });
export type AdminPhoto = z.infer<typeof AdminPhoto>;

/** Finds a line's photo in the library; `generation` changes whenever the answers may. */
export type PhotoRefs = {
  find(eventSlug: string, photoNumber: string): AdminPhoto | null;
  readonly generation: number;
};

export const NO_PHOTOS: PhotoRefs = { find: () => null, generation: 0 };

const AdminOrderLine = z
  .object({
    itemId: z.string().describe('`<orderNumber>.<line number>`: the line in the print queue'),
    photoNumber: z.string(),
    size: z.string(),
    quantity: z.number().int(),
    unitPrice: money,
    lineTotal: money,
    crop: z
      .object({ x: z.number(), y: z.number() })
      .describe('Centre of the print’s crop window, fractions of the photo (0.5, 0.5 when the customer chose none)'),
    printedAt: z.string().nullable().describe('When the line was marked printed (ISO 8601); null while not printed'),
    photo: AdminPhoto.nullable().describe('The photo; null when it is no longer in the library'),
  })
  .meta({ id: 'AdminOrderLine' });

/** The Order as admins see it: with its history, and each line with its photo. */
export const AdminOrder = ApiOrder.extend({
  lines: z.array(AdminOrderLine).describe('The order lines, in order, with their photos and print state'),
  undoPaidUntil: z
    .string()
    .nullable()
    .describe(
      'While "Mark paid" can be undone (`status: pending`; an admin, 15 minutes, nothing printed, shipped or handed over): until when (ISO 8601); else null',
    ),
  history: z.array(HistoryEntry).describe('Every change to the order, oldest first'),
  removedPhotos: z
    .array(z.string())
    .describe(
      'Numbers of this order’s photos taken down for good while it was unpaid (docs/contract.md, "Takedown requests"): the photographer should settle these lines with the customer',
    ),
}).meta({ id: 'AdminOrder' });
export type AdminOrder = z.infer<typeof AdminOrder>;

/** Until when "Mark paid" can be undone, as the rules stand for the order (ignoring the clock). */
function undoPaidUntil(o: OrderRecord): string | null {
  const paidAt = lastPaidAt(o);
  if (paidAt === null) return null;
  if (undoPaidRefusal(o, new Date(Date.parse(paidAt)), 'admin') !== null) return null;
  return new Date(Date.parse(paidAt) + UNDO_PAID_WINDOW_MS).toISOString();
}

export function toAdminOrder(o: OrderRecord, photos: PhotoRefs = NO_PHOTOS): AdminOrder {
  const view = toApiOrder(o) as AdminOrder;
  const printedAt = new Map(o.printed.map((p) => [p.line, p.at]));
  view.lines = o.items.map((l, i) => ({
    itemId: itemId(o.orderNumber, i),
    photoNumber: l.photoNumber,
    size: l.size,
    quantity: l.quantity,
    unitPrice: formatCents(l.unitCents),
    lineTotal: formatCents(l.lineCents),
    crop: { x: l.crop?.x ?? 0.5, y: l.crop?.y ?? 0.5 },
    printedAt: printedAt.get(i) ?? null,
    photo: photos.find(o.eventSlug, l.photoNumber),
  }));
  view.undoPaidUntil = undoPaidUntil(o);
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
    totalDiscounts: z
      .number()
      .describe('What paid orders were given off (packages, early bird, coupons), dollars; not in totalRevenue'),
  })
  .meta({ id: 'SalesSummary' });

/** The summary with `?by=photographer`. */
export const SalesSummaryByPhotographer = SalesSummary.extend({
  byPhotographer: z
    .array(
      z.object({
        photographer: z
          .string()
          .describe("From the photo's metadata (XMP dc:creator, photoshop:Credit, EXIF Artist); `unknown` for none"),
        orders: z.number().int().describe('Paid orders with at least one line of their photos'),
        prints: z.number().int().describe('Copies (line quantities) of their photos in paid orders'),
        revenue: z
          .number()
          .describe("Those lines' amounts, dollars (before an order's discounts and shipping, which are no one's)"),
      }),
    )
    .optional()
    .describe('With `?by=photographer`: highest revenue first'),
}).meta({ id: 'SalesSummaryByPhotographer' });

export function toApiSummary(s: SalesSummaryCents): z.infer<typeof SalesSummary> {
  return {
    totalOrders: s.totalOrders,
    pendingCount: s.pendingCount,
    completedCount: s.completedCount,
    cancelledCount: s.cancelledCount,
    totalRevenue: centsToDollars(s.totalRevenueCents),
    pendingRevenue: centsToDollars(s.pendingRevenueCents),
    averageOrderValue: centsToDollars(s.averageOrderValueCents),
    totalDiscounts: centsToDollars(s.totalDiscountsCents),
  };
}
