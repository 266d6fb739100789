/**
 * Order administration (docs/contract.md, "Status and shipping"), every route behind the admin
 * token. `{id}` and `{orderNumber}` both accept an id or an order number (any case); static
 * paths (`/api/orders/pending`, `/summary`, `/verify`) win over `{id}` in the router. The
 * lists come as ready bytes with their ETag from `fastify.orderReads`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { centsToDollars } from '../../domain/money.js';
import type { OrderRecord, OrderStatus } from '../../domain/order.js';
import { acceptsGzip } from '../../lib/content-encoding.js';
import { errorResponses } from '../../schemas/errors.js';
import { AdminOrder, SalesSummaryByPhotographer, toAdminOrder, toApiSummary } from '../../schemas/order.js';
import { ADMIN_BODY_ERRORS, ADMIN_ERRORS } from '../common/errors.js';
import { etagMatches } from '../common/etag.js';
import { IdParams, OrderChangeResponse, orderChanged } from '../common/order-ref.js';
import {
  ListQuery,
  OrderList,
  SummaryQuery,
  UpdateOrderBody,
  UpdateShippingBody,
  UpdateStatusBody,
} from './schemas.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The finer rules of a status change: which role may move an order to which status. */
const STATUS_ACTIONS = ['status:paid', 'status:pending', 'status:void', 'status:cancelled'] as const;

const authNote =
  'Admin only: `Authorization: Bearer <token>`; without it or with a wrong one 401 `UNAUTHORIZED` ' +
  '(with `WWW-Authenticate`), 429 `RATE_LIMITED` after repeated wrong tokens from the address.';

/** The three admin lists: their path (also their name) and statuses. */
const LISTS: { path: string; statuses: OrderStatus[]; what: string }[] = [
  { path: 'pending', statuses: ['pending'], what: 'Orders waiting for payment (status `pending`)' },
  { path: 'completed', statuses: ['paid'], what: 'Paid orders (status `paid`), shipped or not' },
  {
    path: 'cancelled',
    statuses: ['cancelled', 'void'],
    what: 'Cancelled and voided orders (status `cancelled` or `void`)',
  },
];

const transitionsNote = [
  'Status moves (docs/contract.md, "Status and shipping"): `pending` → `paid`, `void` or `cancelled`; `paid` → `void`; `void` and',
  '`cancelled` are final. `paid` → `pending` undoes "Mark paid": only within 15 minutes of marking it paid,',
  'while no line is printed, it is not shipped and (pickup) not ready or collected (the order view’s',
  '`undoPaidUntil` says until when). Asking for the current status again is 200 with `changed: false` and',
  'changes nothing (no notification). Any other move: 409 `INVALID_TRANSITION`.',
].join('\n');

const adminRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const view = (o: OrderRecord) => toAdminOrder(o, fastify.orderReads.photos);

  // Reading: every role; changing: staff, with voiding and cancelling the owner's (src/domain/roles.ts).
  const read = { config: { access: 'viewer' } } as const;
  const change = { config: { access: { role: 'staff', actions: STATUS_ACTIONS } } } as const;
  const actor = fastify.adminAuth.actor;
  const security = [{ adminToken: [] }];

  for (const list of LISTS) {
    fastify.get(
      `/api/orders/${list.path}`,
      {
        ...read,
        schema: {
          tags: ['admin'],
          summary: `The ${list.path} orders`,
          description: [
            `${list.what}, newest first. Orders waiting for the customer's email confirmation (high value)`,
            'are in no list until confirmed. `?eventSlug=` keeps one event’s orders.',
            'The list carries an `ETag`; `If-None-Match` with it answers 304 while nothing changed. Lists',
            'of 16 KiB or more are sent gzipped to clients whose `Accept-Encoding` allows it.',
            authNote,
          ].join('\n'),
          security,
          querystring: ListQuery,
          response: {
            200: OrderList,
            304: z.null().describe('Not modified: `If-None-Match` names the current `ETag` of this list'),
            ...errorResponses(...ADMIN_ERRORS),
          },
        },
      },
      async (request, reply) => {
        const body = await fastify.orderReads.list(list.statuses, request.query.eventSlug);
        const gzip = body.compressible && acceptsGzip(request.headers['accept-encoding']);
        // One ETag per representation (RFC 9110): the gzipped bytes are other bytes.
        const etag = gzip ? `${body.etag.slice(0, -1)}-gz"` : body.etag;
        reply.header('ETag', etag).header('Vary', 'Accept-Encoding');
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
        if (!gzip) return reply.type(JSON_TYPE).send(body.bytes as never);
        return reply
          .type(JSON_TYPE)
          .header('Content-Encoding', 'gzip')
          .send((await body.gzipped()) as never);
      },
    );
  }

  fastify.get(
    '/api/orders/summary',
    {
      ...read,
      config: {
        ...read.config,
        photographer:
          'the summary of their own lines only: each order cut to the lines of their photos, its amounts those ' +
          'lines’ (no discounts or shipping, `totalDiscounts` 0), and `byPhotographer` their one row.',
      },
      schema: {
        tags: ['admin'],
        summary: 'Sales summary',
        description: [
          '`totalOrders` counts every order except those waiting for email confirmation; `pendingCount`,',
          '`completedCount` and `cancelledCount` are the sizes of the three lists; `totalRevenue` sums the paid',
          'totals, `pendingRevenue` the pending ones; `averageOrderValue` is the mean paid total (0 when none).',
          'Amounts are numbers of dollars, computed in cents. `?eventSlug=` for one event.',
          '`?by=photographer` adds `byPhotographer`: per photographer of the photos (the photographer’s metadata;',
          '`unknown` for none), the paid orders with their photos, the prints and the lines’ revenue.',
          authNote,
        ].join('\n'),
        security,
        querystring: SummaryQuery,
        response: { 200: SalesSummaryByPhotographer, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => {
      const { eventSlug, by } = request.query;
      // A photographer's token: every figure from their lines alone (services/sales/sales.ts).
      const sales = await fastify.sales.summary(
        { photographer: fastify.adminAuth.photographer(request) },
        {
          eventSlug,
          byPhotographer: by === 'photographer',
        },
      );
      const summary = toApiSummary(sales);
      if (sales.byPhotographer === undefined) return summary;
      const byPhotographer = sales.byPhotographer.map((p) => ({
        photographer: p.photographer,
        orders: p.orders,
        prints: p.prints,
        revenue: centsToDollars(p.revenueCents),
      }));
      return { ...summary, byPhotographer };
    },
  );

  fastify.get(
    // `{id}` like PUT on the same path (OpenAPI allows one parameter name per path); the
    // interface calls it `{orderNumber}`: either form is accepted.
    '/api/orders/:id',
    {
      ...read,
      schema: {
        tags: ['admin'],
        summary: 'One order',
        description: [
          'By order number (any case) or id (some clients call this parameter `orderNumber`). Orders',
          'waiting for email confirmation are shown too (`verificationRequired: true`).',
          'Unknown: 404 `ORDER_NOT_FOUND`. With its `history`: every change, when, and by whom.',
          authNote,
        ].join('\n'),
        security,
        params: IdParams,
        response: { 200: AdminOrder, ...errorResponses(...ADMIN_ERRORS, 'ORDER_NOT_FOUND') },
      },
    },
    async (request) => view(await fastify.orderReads.get(request.params.id)),
  );

  fastify.put(
    '/api/orders/:id',
    {
      ...change,
      schema: {
        tags: ['admin'],
        summary: 'Change an order’s status and/or its customer and shipping details',
        description: [
          'Body: any of `status` and the editable fields `customerName`, `customerEmail`, `customerPhone`,',
          '`fulfillmentType`, `shippingAddress`, `city`, `state`, `zipCode`; at least one. Any other field',
          '(amounts, items, tracking, ...): 400 `VALIDATION_FAILED`.',
          transitionsNote,
          'Field edits only before fulfilment (status `pending` or `paid`, not shipped), else 409',
          '`ORDER_FULFILLED`. When the order ships, a change of address or fulfilment needs street, city,',
          'state and ZIP and is checked like a new order (400 `ADDRESS_INVALID` when undeliverable; stored',
          'standardised; `addressVerified` updated). Changing `fulfillmentType` does not reprice the order.',
          'Orders waiting for email confirmation: 409 `ORDER_HELD`. A status change pushes a notification.',
          'Returns the updated Order.',
          authNote,
        ].join('\n'),
        security,
        params: IdParams,
        body: UpdateOrderBody,
        response: {
          200: AdminOrder,
          ...errorResponses(
            ...ADMIN_BODY_ERRORS,
            'ADDRESS_INVALID',
            'ORDER_NOT_FOUND',
            'INVALID_TRANSITION',
            'ORDER_FULFILLED',
            'ORDER_HELD',
            'PAYMENT_UNAVAILABLE',
          ),
        },
      },
    },
    async (request) => {
      const { status, ...fields } = request.body;
      if (status !== undefined) fastify.adminAuth.check(request, `status:${status}`);
      const result = await fastify.orderChanges.change(
        request.params.id,
        { status, fields: definedOnly(fields) },
        actor(request),
      );
      return view(result.order);
    },
  );

  fastify.post(
    '/api/orders/:id/update-status',
    {
      ...change,
      schema: {
        tags: ['admin'],
        summary: 'Mark an order paid, void or cancelled',
        description: [
          'Body `{ status }`: `paid`, `void`, `cancelled`, or `pending` (the undo of "Mark paid", see below).',
          '`cancelled` is accepted as pending → cancelled is an admin move (docs/contract.md, "Status and shipping").',
          transitionsNote,
          'Orders waiting for email confirmation: 409 `ORDER_HELD`. A change pushes a notification.',
          'Returns `{ success, message, changed, order }`.',
          authNote,
        ].join('\n'),
        security,
        params: IdParams,
        body: UpdateStatusBody,
        response: {
          200: OrderChangeResponse,
          ...errorResponses(
            ...ADMIN_BODY_ERRORS,
            'ORDER_NOT_FOUND',
            'INVALID_TRANSITION',
            'ORDER_HELD',
            'PAYMENT_UNAVAILABLE',
          ),
        },
      },
    },
    async (request) => {
      fastify.adminAuth.check(request, `status:${request.body.status}`);
      const result = await fastify.orderChanges.change(
        request.params.id,
        { status: request.body.status, fields: {} },
        actor(request),
      );
      return orderChanged(result, view);
    },
  );

  fastify.post(
    '/api/orders/:id/update-shipping',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['admin'],
        summary: 'Mark an order shipped (with a tracking number) or undo it',
        description: [
          'Body `{ shipped: true }`, `{ trackingNumber }` (implies shipped) or both; `{ shipped: false }` undoes',
          'shipping and clears the tracking number. Shipping needs a paid order that ships, else 409',
          '`ORDER_NOT_SHIPPABLE`; a parcel goes out with its prints: while a print line is not marked printed,',
          'marking it shipped is 409 `NOT_PRINTED` (`details.notPrinted` names the lines) unless `printAll: true`,',
          'which marks them printed with it (a `printed` history entry each; the order leaves the print queue).',
          'Marking shipped (or changing the tracking number) queues the customer’s',
          '"shipped" email with the tracking number and pushes a notification; undoing pushes one too.',
          'Repeating the current state is 200 with `changed: false` and notifies nobody.',
          'Returns `{ success, message, changed, order }`.',
          authNote,
        ].join('\n'),
        security,
        params: IdParams,
        body: UpdateShippingBody,
        response: {
          200: OrderChangeResponse,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'ORDER_NOT_FOUND', 'ORDER_NOT_SHIPPABLE', 'NOT_PRINTED'),
        },
      },
    },
    async (request) => {
      const result = await fastify.orderChanges.ship(request.params.id, request.body, actor(request));
      return orderChanged(result, view);
    },
  );
};

function definedOnly<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export default adminRoutes;
