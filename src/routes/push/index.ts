/**
 * `GET /api/push/public-key` and `POST /api/push/subscribe` (docs/contract.md, "Notifications",
 * who may subscribe to what; "Hardening, round 2", the cap per order). A wrong admin token is
 * 401, never silently treated as a customer.
 */

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { MAX_PUSH_PER_ORDER } from '../../services/push/subscribe.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { PublicKeyResponse, SubscribeBody, SubscribeResponse } from './schemas.js';

const pushRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/push/public-key',
    {
      schema: {
        tags: ['push'],
        summary: 'The VAPID public key for PushManager.subscribe()',
        description: 'Pass it as `applicationServerKey` (base64url) when subscribing in the browser.',
        response: { 200: PublicKeyResponse, ...errorResponses() },
      },
    },
    async () => ({ publicKey: fastify.push.publicKey }),
  );

  fastify.post(
    '/api/push/subscribe',
    {
      config: {
        rateLimit: { max: fastify.config.RATE_LIMIT_PUSH_PER_MIN, timeWindow: 60_000, groupId: 'push' },
        // Every role may hear of new orders (src/domain/roles.ts).
        access: { role: 'viewer', public: "with an order's number and email" },
      },
      schema: {
        tags: ['push'],
        summary: 'Register a browser push subscription',
        description: [
          'Body: the browser `PushSubscription` as JSON (`endpoint`, `keys.p256dh`, `keys.auth`), plus either',
          '`Authorization: Bearer <admin token>` (scope `admin`: every new order, status and shipping change) or',
          "`orderNumber` and that order's `email` (scope `order`: that order's status and shipping changes).",
          '',
          '`endpoint` must be an https URL of a push service on port 443 (no IP address or local name such as',
          '`localhost`, a trailing dot ignored; the server contacts it only at a public address); `keys.p256dh` must be a',
          'base64url uncompressed point on P-256 (65 bytes), `keys.auth` base64url of 16 bytes.',
          '',
          '201 when new; 200 when the same endpoint is registered already for that scope or order.',
          `An order takes at most ${MAX_PUSH_PER_ORDER} subscriptions: 409 \`SUBSCRIPTION_LIMIT\` beyond.`,
          'Neither credentials nor order: 401 `UNAUTHORIZED`. Only one of `orderNumber`/`email`: 400.',
          'Unknown order or another email: 404 `ORDER_NOT_FOUND` (not told apart).',
          'Subscriptions the push service answers 404/410 for are removed.',
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        body: SubscribeBody,
        response: {
          200: SubscribeResponse,
          201: SubscribeResponse,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'ORDER_NOT_FOUND', 'SUBSCRIPTION_LIMIT'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // Before anything else, like the schema's own checks: where the server would be sent.
      const refusal = fastify.push.endpointRefusal(body.endpoint);
      if (refusal !== undefined) {
        throw appError('VALIDATION_FAILED', { details: [{ in: 'body', field: 'endpoint', message: refusal }] });
      }
      const { created, label, scope } = await fastify.push.subscribe(body, fastify.adminAuth.isAdmin(request));
      return reply.code(created ? 201 : 200).send({
        success: true as const,
        message: created ? `Subscribed to ${label}` : `Already subscribed to ${label}`,
        scope,
      });
    },
  );
};

export default pushRoutes;
