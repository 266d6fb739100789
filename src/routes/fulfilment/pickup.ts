/** `POST /api/orders/{id}/pickup` (admin): a pickup order's booth status (docs/contract.md, "Fulfilment"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PICKUP_STATUSES } from '../../domain/order.js';
import { errorResponses } from '../../schemas/errors.js';
import { toAdminOrder } from '../../schemas/order.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { IdParams, OrderChangeResponse, orderChanged, PrintAll } from '../common/order-ref.js';

const PickupBody = z
  .strictObject({
    status: z.enum(PICKUP_STATUSES).describe('`waiting`, `ready` or `collected`'),
    printAll: PrintAll,
  })
  .meta({ id: 'PickupUpdate' });

const pickupRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photos } = fastify.orderReads;

  fastify.post(
    '/api/orders/:id/pickup',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['admin', 'fulfilment'],
        summary: 'Mark a pickup order ready or collected',
        description: [
          'Body `{ status }`. Pickup orders go `waiting` → `ready` → `collected` (straight to `collected` when',
          'the customer comes first; one step back undoes a slip). Only for `paid` orders collected at the',
          'booth: an order that ships is 409 `ORDER_NOT_PICKUP`, one that is not paid or a move not listed 409',
          '`INVALID_TRANSITION`. `ready` emails the customer ("ready for pickup", with the link to their order',
          'page and its QR code) and pushes to their subscriptions; every change is in the history and pushes',
          'to admin subscriptions. The current status again is 200 with `changed: false` and notifies nobody.',
          '`ready` and `collected` need the prints: while a print line is not marked printed they are 409',
          '`NOT_PRINTED` (`details.notPrinted` names the lines) unless `printAll: true`, which marks them',
          'printed with the change (a `printed` history entry each; the order leaves the print queue).',
          'Returns `{ success, message, changed, order }`.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        params: IdParams,
        body: PickupBody,
        response: {
          200: OrderChangeResponse,
          ...errorResponses(
            ...ADMIN_BODY_ERRORS,
            'ORDER_NOT_FOUND',
            'ORDER_NOT_PICKUP',
            'INVALID_TRANSITION',
            'NOT_PRINTED',
          ),
        },
      },
    },
    async (request) => {
      const result = await fastify.orderChanges.pickup(
        request.params.id,
        request.body,
        fastify.adminAuth.actor(request),
      );
      return orderChanged(result, (o) => toAdminOrder(o, photos));
    },
  );
};

export default pickupRoutes;
