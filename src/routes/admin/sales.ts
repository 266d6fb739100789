/**
 * `GET /api/orders/summary/breakdown` (admin): paid orders by day and by event, for the
 * dashboard's charts; `GET /api/orders/lines`: order lines with each photo's photographer
 * (docs/contract.md, "The photographer's metadata"). Paid orders are read like the completed
 * list, so the figures agree with the summary's. Who sees what: services/sales/sales.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { centsToDollars } from '../../domain/money.js';
import { errorResponses } from '../../schemas/errors.js';
import { ADMIN_ERRORS } from '../common/errors.js';
import { BreakdownQuery, OrderLines, type OrderLinesT, SalesBreakdown, type SalesBreakdownT } from './sales-schemas.js';
import { ListQuery } from './schemas.js';

const AUTH_NOTE = [
  'Admin only: `Authorization: Bearer <token>`; without it or with a wrong one 401 `UNAUTHORIZED`',
  '(with `WWW-Authenticate`), 429 `RATE_LIMITED` after repeated wrong tokens from the address.',
];

const salesRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { sales, adminAuth } = fastify;

  fastify.get(
    '/api/orders/summary/breakdown',
    {
      config: {
        access: 'viewer',
        photographer:
          'the paid orders with a line of their photos, each counted at those lines’ amounts (no discounts or shipping).',
      },
      schema: {
        tags: ['admin'],
        summary: 'Paid sales by day and by event',
        description: [
          'Revenue (dollars, computed in cents) and counts of paid orders (status `paid`, the completed',
          'list) grouped by calendar day and by event. A day is the date of the order’s `createdAt` in UTC,',
          'or in the IANA zone given as `?timeZone=`. Only days and events with paid orders are listed.',
          'Totals match `completedCount` and `totalRevenue` of `/api/orders/summary`. `?eventSlug=` for one event.',
          ...AUTH_NOTE,
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: BreakdownQuery,
        response: { 200: SalesBreakdown, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request): Promise<SalesBreakdownT> => {
      const { eventSlug, timeZone } = request.query;
      const { byDay, byEvent } = await sales.breakdown(
        { photographer: adminAuth.photographer(request) },
        { eventSlug, timeZone },
      );
      return {
        eventSlug: eventSlug ?? null,
        timeZone,
        byDay: byDay.map((d) => ({ date: d.date, orders: d.orders, revenue: centsToDollars(d.revenueCents) })),
        byEvent: byEvent.map((e) => ({
          eventSlug: e.eventSlug,
          eventName: e.eventName,
          orders: e.orders,
          revenue: centsToDollars(e.revenueCents),
        })),
      };
    },
  );

  fastify.get(
    '/api/orders/lines',
    {
      config: { access: 'viewer', photographer: 'only the lines of their own photos.' },
      schema: {
        tags: ['admin'],
        summary: 'Order lines with the photographer of each photo',
        description: [
          'Every line of the listed orders (pending, paid, cancelled and void; orders waiting for email',
          'confirmation are in no list), newest order first, lines in order: the order’s number, status and',
          'date, the photo, who took it (`unknown` when its metadata names no one), the size, the quantity and',
          'the line’s amount (dollars, before the order’s discounts and shipping). No customer details.',
          '`?eventSlug=` for one event.',
          ...AUTH_NOTE,
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: ListQuery,
        response: { 200: OrderLines, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request): Promise<OrderLinesT> => {
      const lines = await sales.lines(
        { photographer: adminAuth.photographer(request) },
        { eventSlug: request.query.eventSlug },
      );
      return {
        lines: lines.map(({ order, line, photographer }) => ({
          orderNumber: order.orderNumber,
          status: order.status,
          createdAt: order.createdAt,
          eventSlug: order.eventSlug,
          photoNumber: line.photoNumber,
          photographer,
          size: line.size,
          quantity: line.quantity,
          amount: centsToDollars(line.lineCents),
        })),
      };
    },
  );
};

export default salesRoutes;
