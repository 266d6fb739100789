/**
 * `POST /api/orders/lookup`: a customer reads their own order. POST, so the email is never in
 * a URL or a log; a wrong email and an unknown order are the same 404, so no one learns which
 * order numbers exist; rate limited, so guessing an email is a few tries a minute.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas/errors.js';
import { PUBLIC_BODY_ERRORS } from '../common/errors.js';
import { CustomerOrder, LookupBody, toCustomerOrder } from './lookup-schemas.js';

const lookupRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(
    '/api/orders/lookup',
    {
      config: { rateLimit: fastify.rateLimits.lookup },
      schema: {
        tags: ['orders'],
        summary: 'A customer looks up their order',
        description: [
          'Body `{ orderNumber, email }`: the order number (`AX25-0001`; any case, zero padding optional)',
          'and the email address it was placed with (compared case-insensitively). Public; POST so the',
          'address never appears in a URL. Returns the customer’s view of the order (`CustomerOrder`):',
          'number, event, status, shipping status and tracking number, fulfilment, items and amounts,',
          'times, `verificationRequired` (waiting for the emailed confirmation link), `paymentUrl` (online',
          'payment, while pending), `paymentInstructions` (how to pay, while pending), `tracking` (the carrier’s',
          'page, once shipped) and `downloads` (the signed links of its digital files, once paid). It holds no id,',
          'no name, email, phone or address. Unknown order and wrong email are the same 404',
          '`ORDER_NOT_FOUND`. Rate limited per client address (`RATE_LIMIT_LOOKUP_PER_MIN`, default 10',
          'a minute; 429 `RATE_LIMITED` with `Retry-After`). `Cache-Control: no-store`.',
        ].join('\n'),
        body: LookupBody,
        response: {
          200: CustomerOrder,
          ...errorResponses(...PUBLIC_BODY_ERRORS, 'ORDER_NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const found = await fastify.orderIntake.lookup(request.body.orderNumber, request.body.email);
      reply.header('Cache-Control', 'no-store');
      return toCustomerOrder(found.order, found.eventName, found.downloads, found.paymentInstructions);
    },
  );
};

export default lookupRoutes;
