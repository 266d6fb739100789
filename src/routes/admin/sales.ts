/**
 * `GET /api/orders/summary/breakdown` (admin): revenue and counts of paid orders by day and by
 * event, so the dashboard's charts no longer download every paid order to draw them.
 *
 * A route of its own next to `/api/orders/summary` (whose query and response stay as the
 * interface has them); `?eventSlug=` works as on the summary. Paid orders are those of the
 * completed list (status `paid`), read like that list, so the figures agree
 * with `completedCount` and `totalRevenue` of the summary. The grouping is domain/sales.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { centsToDollars } from '../../domain/money.js';
import { salesBreakdown } from '../../domain/sales.js';
import { errorResponses } from '../../schemas/errors.js';
import { BreakdownQuery, SalesBreakdown, type SalesBreakdownT } from './sales-schemas.js';

const salesRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photos } = fastify;
  const { orders } = fastify.store;

  fastify.get(
    '/api/orders/summary/breakdown',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['admin'],
        summary: 'Paid sales by day and by event',
        description: [
          'Revenue (dollars, computed in cents) and counts of paid orders (status `paid`, the completed',
          'list) grouped by calendar day and by event. A day is the date of the order’s `createdAt` in UTC,',
          'or in the IANA zone given as `?timeZone=`. Only days and events with paid orders are listed.',
          'Totals match `completedCount` and `totalRevenue` of `/api/orders/summary`. `?eventSlug=` for one event.',
          'Admin only: `Authorization: Bearer <token>`; without it or with a wrong one 401 `UNAUTHORIZED`',
          '(with `WWW-Authenticate`), 429 `RATE_LIMITED` after repeated wrong tokens from the address.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: BreakdownQuery,
        response: {
          200: SalesBreakdown,
          ...errorResponses('VALIDATION_FAILED', 'UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'),
        },
      },
    },
    async (request): Promise<SalesBreakdownT> => {
      const { eventSlug, timeZone } = request.query;
      const paid = await orders.list({ statuses: ['paid'], eventSlug });
      const { byDay, byEvent } = salesBreakdown(paid, { timeZone });
      return {
        eventSlug: eventSlug ?? null,
        timeZone,
        byDay: byDay.map((d) => ({ date: d.date, orders: d.orders, revenue: centsToDollars(d.revenueCents) })),
        byEvent: byEvent.map((e) => ({
          eventSlug: e.eventSlug,
          eventName: photos.getEvent(e.eventSlug)?.name ?? null,
          orders: e.orders,
          revenue: centsToDollars(e.revenueCents),
        })),
      };
    },
  );
};

export default salesRoutes;
