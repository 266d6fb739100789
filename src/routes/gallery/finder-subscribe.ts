/**
 * `POST /api/finder/{code}/subscribe` (docs/contract.md, "Finding one's photos, and intake"):
 * be told, by push or by email, when new photos join a photo code. The notices themselves
 * are sent by services/finder/arrivals.ts, once per arrival batch.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parsePhotoCode } from '../../domain/photo-code.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { CodeParams, CodeSubscribeBody, CodeSubscribeResponse } from './finder-schemas.js';

/** Subscriptions one code may have: an attendee's phone, tablet and an email or two. */
const MAX_SUBSCRIPTIONS_PER_CODE = 10;

const subscribeRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photoCodeRegistry, photos: library } = fastify;
  const port = fastify.store.photoCodes;

  fastify.post(
    '/api/finder/:code/subscribe',
    {
      config: { rateLimit: fastify.rateLimits.lookup },
      schema: {
        tags: ['gallery'],
        summary: 'Be told when new photos join a photo code',
        description: [
          'Body: a browser `PushSubscription` as JSON (`endpoint`, `keys.p256dh`, `keys.auth`, checked as for',
          '`POST /api/push/subscribe`: an https endpoint at a public host name, a P-256 key), or `{ email }`.',
          'The subscriber is told once per arrival batch (the photos a copied-in card brings), counting from the',
          'photos the code has now: a push that opens the photos page, or an email with its link.',
          '',
          '201 when new; 200 when that endpoint or email (any case) is subscribed to the code already.',
          'Unknown code: 404 `CODE_NOT_FOUND`; not a code: 400 `VALIDATION_FAILED`; a code with',
          `${MAX_SUBSCRIPTIONS_PER_CODE} subscriptions: 409 \`SUBSCRIPTION_LIMIT\`. Rate limited with the`,
          'code lookup’s limit and counter (`RATE_LIMIT_LOOKUP_PER_MIN`).',
        ].join('\n'),
        params: CodeParams,
        body: CodeSubscribeBody,
        response: {
          200: CodeSubscribeResponse,
          201: CodeSubscribeResponse,
          ...errorResponses(
            'VALIDATION_FAILED',
            'CODE_NOT_FOUND',
            'SUBSCRIPTION_LIMIT',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'RATE_LIMITED',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const code = parsePhotoCode(request.params.code);
      if (!code) throw appError('VALIDATION_FAILED', { details: 'a photo code is 8 characters of Crockford base32' });
      if (body.endpoint !== undefined) {
        // Where the server would be sent, checked like every push subscription.
        const refusal = fastify.push.endpointRefusal(body.endpoint);
        if (refusal !== undefined) {
          throw appError('VALIDATION_FAILED', { details: [{ in: 'body', field: 'endpoint', message: refusal }] });
        }
      }
      if (!(await photoCodeRegistry.isIssued(code))) {
        throw appError('CODE_NOT_FOUND', { details: { code: request.params.code.slice(0, 32) } });
      }
      // Told from now on: the photos the code has already are on the page the subscriber is looking at.
      const notifiedCount = library.photosForCode(code)?.length ?? 0;
      const result =
        body.email !== undefined
          ? await port.subscribe(
              { code, channel: 'email', email: body.email, notifiedCount },
              MAX_SUBSCRIPTIONS_PER_CODE,
            )
          : await port.subscribe(
              {
                code,
                channel: 'push',
                endpoint: body.endpoint as string,
                p256dh: (body.keys?.p256dh ?? '').replace(/=+$/, ''),
                auth: (body.keys?.auth ?? '').replace(/=+$/, ''),
                notifiedCount,
              },
              MAX_SUBSCRIPTIONS_PER_CODE,
            );
      if (result.outcome === 'full') {
        throw appError('SUBSCRIPTION_LIMIT', {
          details: `A photo code takes at most ${MAX_SUBSCRIPTIONS_PER_CODE} subscriptions`,
        });
      }
      const channel = result.subscription.channel;
      const how = channel === 'email' ? 'by email' : 'on this device';
      const created = result.outcome === 'created';
      return reply.code(created ? 201 : 200).send({
        success: true as const,
        message: created
          ? `You will be told ${how} when new photos of ${code} arrive`
          : `Already subscribed ${how} to ${code}`,
        channel,
      });
    },
  );
};

export default subscribeRoutes;
