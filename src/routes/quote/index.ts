/**
 * `POST /api/quote` (docs/contract.md, "Selling"): priced by the order intake's own code, so
 * the cart shows what the server will charge. Nothing is stored.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fulfilmentOf } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { toPriceBreakdown } from '../../schemas/pricing.js';
import { priceRequest } from '../../services/orders/lines.js';
import { PUBLIC_BODY_ERRORS } from '../common/errors.js';
import { Quote, QuoteBody } from './schemas.js';

const quoteRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { events, photos } = fastify;
  const { coupons } = fastify.store;

  fastify.post(
    '/api/quote',
    {
      config: { rateLimit: fastify.rateLimits.quote },
      schema: {
        tags: ['orders'],
        summary: 'Price an order without placing it',
        description: [
          'The breakdown an order with these lines would get now: each line at its unit price, `subtotal`,',
          'the `packages` that apply (per size, every full `count` copies cost the package price), the early',
          'bird and the coupon (the larger applies, never both), `discount`, `shippingFee` (for `ship` when a',
          'print is ordered; digital files alone never ship) and `total` = subtotal − discount + shippingFee.',
          'The order routes price with the same rules, so these are the figures to send with `POST /api/orders`.',
          'Unknown event 404 `EVENT_NOT_FOUND`; unknown photo 400 `UNKNOWN_PHOTO`; size off the price list',
          '400 `VALIDATION_FAILED`; a refused coupon 400 `COUPON_INVALID` with `details.reason` (`unknown`,',
          '`otherEvent`, `expired`, `exhausted`, `belowMinimum`). Nothing is stored. Rate limited per client',
          'address (`RATE_LIMIT_QUOTE_PER_MIN`, default 60 a minute).',
        ].join('\n'),
        body: QuoteBody,
        response: {
          200: Quote,
          ...errorResponses(...PUBLIC_BODY_ERRORS, 'UNKNOWN_PHOTO', 'COUPON_INVALID', 'EVENT_NOT_FOUND'),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const event = await events.get(body.eventSlug);
      if (!event) throw appError('EVENT_NOT_FOUND', { details: body.eventSlug.slice(0, 200) });
      const coupon =
        body.couponCode === undefined
          ? undefined
          : { code: body.couponCode, record: (await coupons.get(body.couponCode)) ?? undefined };
      const priced = priceRequest(
        event,
        {
          kind: 'list',
          items: body.lines.map((l) => ({ photo: String(l.photo), size: l.size, quantity: l.quantity })),
        },
        body.fulfillmentType,
        (ref) => photos.findPhoto(event.code, ref),
        { now: new Date(), eventSlug: event.code, coupon },
      );
      const fulfillmentType = fulfilmentOf(priced.lines, body.fulfillmentType);
      return { ...toPriceBreakdown(priced), eventSlug: event.code, fulfillmentType };
    },
  );
};

export default quoteRoutes;
