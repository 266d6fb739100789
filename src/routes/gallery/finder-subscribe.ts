/**
 * `POST /api/finder/{code}/subscribe` (docs/contract.md, "Finding one's photos, and intake"):
 * be told by push or email when new photos join a photo code. An email waits for its
 * confirmation (finder-confirm.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { named } from '../../lib/plugin-name.js';
import { errorResponses } from '../../schemas/errors.js';
import { MAX_PER_CODE as MAX_SUBSCRIPTIONS_PER_CODE } from '../../services/finder/subscriptions.js';
import { PUBLIC_BODY_ERRORS } from '../common/errors.js';
import finderConfirmRoutes from './finder-confirm.js';
import { CodeParams, CodeSubscribeBody, CodeSubscribeResponse } from './finder-schemas.js';

const subscribeRoutes: FastifyPluginAsyncZod = async (fastify) => {
  await fastify.register(named(finderConfirmRoutes));

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
          'An email address is double opt-in: the first mail only asks its owner to confirm (a link to a page',
          'whose button POSTs to `/api/finder/confirm-email`), and no photo mail goes out before that',
          '(`confirmed: false` until then). Asking again for the same address sends no second mail.',
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
          ...errorResponses(...PUBLIC_BODY_ERRORS, 'CODE_NOT_FOUND', 'SUBSCRIPTION_LIMIT'),
        },
      },
    },
    async (request, reply) => {
      const { email, endpoint, keys } = request.body;
      const subscriber =
        email !== undefined ? { email } : { endpoint: endpoint as string, keys: keys ?? { p256dh: '', auth: '' } };
      const { code, created, channel, confirmed } = await fastify.finder.subscribe(request.params.code, subscriber);
      return reply.code(created ? 201 : 200).send({
        success: true as const,
        message: subscribedMessage(channel, confirmed, created, code),
        channel,
        confirmed,
      });
    },
  );
};

/** What the attendee is told: an email waits for its confirmation. */
function subscribedMessage(channel: 'push' | 'email', confirmed: boolean, created: boolean, code: string): string {
  if (!confirmed) {
    return created
      ? `Check your email: we sent a link to confirm that you want to hear about new photos of ${code}`
      : `Check your email: the link we sent confirms that you want to hear about new photos of ${code}`;
  }
  const how = channel === 'email' ? 'by email' : 'on this device';
  return created ? `You will be told ${how} when new photos of ${code} arrive` : `Already subscribed ${how} to ${code}`;
}

export default subscribeRoutes;
