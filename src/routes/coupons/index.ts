/** Coupons (admin; docs/contract.md, "Selling"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { normalizeCouponCode } from '../../domain/coupons.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import {
  Coupon,
  CouponCodeParam,
  CouponCreate,
  CouponDeleted,
  CouponList,
  toCoupon,
  toCouponRecord,
} from './schemas.js';

const ADMIN_ONLY = 'Admin only: `Authorization: Bearer <token>`; without it or with a wrong one 401 `UNAUTHORIZED`.';

const couponRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { coupons } = fastify.store;
  const { events } = fastify;

  fastify.post(
    '/api/coupons',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['coupons'],
        summary: 'Create a coupon (admin)',
        description: [
          'A code customers give with an order (`couponCode`): a `percent` of the goods (the lines after',
          'packages), an `amount` of dollars off them (at most what they cost), or `freeShipping`. Not combined',
          'with the early bird: the larger discount applies, and a coupon that does not win is not used.',
          '`eventSlug` limits it to one event (an unknown event: 404 `EVENT_NOT_FOUND`); `expiresAt`, `maxUses`',
          'and `minSubtotal` limit it further. A code that exists already: 409 `COUPON_EXISTS`.',
          ADMIN_ONLY,
        ].join('\n'),
        security: [{ adminToken: [] }],
        body: CouponCreate,
        response: {
          201: Coupon,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'EVENT_NOT_FOUND', 'COUPON_EXISTS'),
        },
      },
    },
    async (request, reply) => {
      const { eventSlug } = request.body;
      if (eventSlug && !(await events.get(eventSlug))) {
        throw appError('EVENT_NOT_FOUND', { details: eventSlug.slice(0, 200) });
      }
      const created = await coupons.create(toCouponRecord(request.body, new Date()));
      request.log.info({ coupon: created.code }, 'coupon created');
      return reply.code(201).send(toCoupon(created));
    },
  );

  fastify.get(
    '/api/coupons',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['coupons'],
        summary: 'Every coupon, with its uses (admin)',
        description: `Newest first. \`uses\` counts the orders using the coupon now. ${ADMIN_ONLY}`,
        security: [{ adminToken: [] }],
        response: { 200: CouponList, ...errorResponses('UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE') },
      },
    },
    async () => ({ coupons: (await coupons.list()).map(toCoupon) }),
  );

  fastify.delete(
    '/api/coupons/:code',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['coupons'],
        summary: 'Delete a coupon (admin)',
        description: [
          'Later orders are refused the code (400 `COUPON_INVALID`, reason `unknown`); orders that used it keep',
          `their discount. No such coupon: 404 \`COUPON_NOT_FOUND\`. ${ADMIN_ONLY}`,
        ].join('\n'),
        security: [{ adminToken: [] }],
        params: CouponCodeParam,
        response: {
          200: CouponDeleted,
          ...errorResponses(
            'VALIDATION_FAILED',
            'UNAUTHORIZED',
            'COUPON_NOT_FOUND',
            // a DELETE may still carry a body, which is parsed (and refused) like any other
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'RATE_LIMITED',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request) => {
      const code = normalizeCouponCode(request.params.code);
      if (!(await coupons.delete(code))) throw appError('COUPON_NOT_FOUND', { details: code });
      request.log.info({ coupon: code }, 'coupon deleted');
      return { success: true as const, code };
    },
  );
};

export default couponRoutes;
