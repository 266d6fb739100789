/**
 * `GET /api/orders/export.csv` (admin): orders for the books (docs/contract.md, "Fulfilment"),
 * in the spreadsheet's columns and cell texts, so an export and the operators' sheet read alike.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ORDER_STATUSES, type OrderRecord, type OrderStatus } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { csvRow, UTF8_BOM } from '../../lib/csv.js';
import { errorResponses } from '../../schemas/errors.js';
import { ORDER_COLUMNS } from '../../services/mirror/sheets/layout.js';
import { toCells } from '../../services/mirror/sheets/row-cells.js';
import { attachment, BINARY } from './files.js';

/** The spreadsheet's columns A–U, then the coupon and discount: what was taken off each total. */
const EXPORT_COLUMNS = [
  ...ORDER_COLUMNS.slice(0, ORDER_COLUMNS.indexOf('updatedAt') + 1),
  'couponCode',
  'discount',
] as const satisfies readonly (typeof ORDER_COLUMNS)[number][];

const CSV_TYPE = 'text/csv; charset=utf-8';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A day (`2026-07-03`, UTC) or an instant (ISO 8601 with an offset). */
const DayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const StatusList = z
  .string()
  .max(100)
  .transform((text, ctx) => {
    const list = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const wrong = list.filter((s) => !(ORDER_STATUSES as readonly string[]).includes(s));
    if (wrong.length > 0 || list.length === 0) {
      ctx.addIssue({ code: 'custom', message: `statuses are ${ORDER_STATUSES.join(', ')} (comma-separated)` });
      return z.NEVER;
    }
    return list as OrderStatus[];
  });

const ExportQuery = z.object({
  eventSlug: z.string().min(1).max(200).optional().describe('Only orders of this event (its code)'),
  from: DayOrInstant.optional().describe(
    'Orders created at or after this: a day (`2026-07-03`, from 00:00 UTC) or an ISO 8601 instant',
  ),
  to: DayOrInstant.optional().describe(
    'Orders created at or before this: a day (`2026-07-05`, through 23:59:59.999 UTC) or an ISO 8601 instant',
  ),
  status: StatusList.optional().describe(
    `Only orders in these statuses, comma-separated (${ORDER_STATUSES.join(', ')}); default all`,
  ),
});

/** The instant range the query asks for; a day `to` runs to the end of that day. */
function range(q: { from?: string | undefined; to?: string | undefined }): { from: number; to: number } {
  const from = q.from === undefined ? Number.NEGATIVE_INFINITY : Date.parse(q.from);
  const to =
    q.to === undefined ? Number.POSITIVE_INFINITY : Date.parse(DATE.test(q.to) ? `${q.to}T23:59:59.999Z` : q.to);
  if (from > to) {
    throw appError('VALIDATION_FAILED', {
      message: '`from` is after `to`',
      details: [{ in: 'querystring', field: 'from', message: 'must not be after `to`' }],
    });
  }
  return { from, to };
}

function ordersCsv(orders: readonly OrderRecord[]): string {
  let out = UTF8_BOM + csvRow(EXPORT_COLUMNS);
  for (const order of orders) {
    const cells = toCells(order);
    out += csvRow(EXPORT_COLUMNS.map((c) => cells[c]));
  }
  return out;
}

const ordersExportRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/orders/export.csv',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['fulfilment'],
        summary: 'Orders as CSV, for the books',
        description: [
          'One row per order, oldest first, after a header row of the Orders sheet column names',
          `(${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(', ')}), with the same cell texts as the sheet`,
          '(money as `$12.50`, times ISO 8601 UTC). UTF-8 with a byte order mark and CRLF line ends, so',
          'Excel, LibreOffice and Numbers open it cleanly. A cell beginning with `=`, `+`, `-`, `@`, a tab or',
          "a carriage return is prefixed with `'` so that no spreadsheet takes it for a formula. Held",
          'orders (waiting for the customer to confirm by email) are left out. Filters combine; none: every',
          'order. `from` after `to`, or an unknown status: 400 `VALIDATION_FAILED`.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: ExportQuery,
        response: {
          200: {
            description:
              'The CSV. `Content-Disposition: attachment; filename="orders-<eventSlug or all>-<from>-<to>.csv"`, `Cache-Control: no-store`.',
            content: { [CSV_TYPE]: { schema: BINARY } },
          },
          ...errorResponses('VALIDATION_FAILED', 'UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const orders = await fastify.orderReads.booked({ eventSlug: q.eventSlug, statuses: q.status, ...range(q) });
      const name = ['orders', q.eventSlug ?? 'all', q.from, q.to]
        .filter((p): p is string => p !== undefined)
        .map((p) => p.slice(0, 40).replace(/[^\p{L}\p{N}-]+/gu, '-'))
        .join('-');
      return attachment(reply, CSV_TYPE, `${name}.csv`).send(ordersCsv(orders));
    },
  );
};

export default ordersExportRoutes;
