/**
 * `POST /api/payments/stripe/webhook` (docs/contract.md, "Selling"). The signature covers the
 * exact bytes Stripe sent, so the body is read raw, in this plugin's scope only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';

/** Stripe's events are a few KB; a checkout session with many line items stays far below this. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

const WebhookHeaders = z.looseObject({
  'stripe-signature': z
    .string()
    .max(4096)
    .optional()
    .describe('`t=<unix time>,v1=<HMAC-SHA256 of "<t>.<body>" with the endpoint signing secret>`'),
});

const WebhookAnswer = z
  .object({
    received: z.literal(true),
    eventId: z.string(),
    kind: z.enum(['checkoutCompleted', 'checkoutFailed', 'refunded', 'ignored']),
    duplicate: z.boolean().describe('True when this event id was handled before (a redelivery)'),
  })
  .meta({ id: 'PaymentWebhookAnswer' });

const paymentRoutes: FastifyPluginAsyncZod = async (fastify) => {
  // The raw bytes, not parsed JSON: re-serialising would break the signature.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_r, body, done) => done(null, body),
  );

  fastify.post(
    '/api/payments/stripe/webhook',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ['payments'],
        summary: 'Stripe webhook (payment events)',
        description: [
          'Set this URL as a webhook endpoint in the Stripe dashboard (events `checkout.session.completed`,',
          '`checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`,',
          '`checkout.session.expired`, `charge.refunded`) and its signing secret as `STRIPE_WEBHOOK_SECRET`.',
          'The body is the JSON event exactly as Stripe sent it; `Stripe-Signature` must verify against it',
          'with the signing secret and be at most 5 minutes old, else 400 `WEBHOOK_SIGNATURE_INVALID`.',
          'Each event id is handled once: a redelivery answers 200 with `duplicate: true`.',
          'Without `PAYMENT_PROVIDER=stripe`: 404 `NOT_FOUND`.',
        ].join('\n'),
        headers: WebhookHeaders,
        response: {
          200: WebhookAnswer,
          ...errorResponses(
            'WEBHOOK_SIGNATURE_INVALID',
            'NOT_FOUND',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await fastify.payments.receive(raw, request.headers['stripe-signature']);
      request.log.info(outcome, 'payment webhook');
      return { received: true as const, ...outcome };
    },
  );
};

export default paymentRoutes;
