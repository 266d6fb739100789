/**
 * `POST /api/photos/{event}/{photo}/takedown` (docs/contract.md, "Takedown requests", and
 * "Hardening, round 2" for the hiding limit per client address).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { CustomerEmail } from '../../schemas/customer.js';
import { errorResponses } from '../../schemas/errors.js';
import { captchaTokenOf } from '../../services/captcha/token.js';
import { isWellFormed } from '../../services/orders/text.js';
import { clientDigest } from '../../services/rate-limit/client-key.js';
import { TakedownReason, TakedownRecord } from '../../services/store/ports/takedowns.js';
import { CAPTCHA_ERRORS, PUBLIC_BODY_ERRORS } from '../common/errors.js';
import { findByRef } from './photo-locate.js';
import { PhotoLookupParams } from './photo-lookup-schemas.js';

const MAX_TAKEDOWN_MESSAGE = 2000;
/** C0 controls but tab and newline, DEL, C1 controls. */
const FORBIDDEN_CHARS = /(?![\t\n])\p{Cc}/u;

export const TakedownBody = z
  .strictObject({
    reason: TakedownReason.describe(
      '`me`: I am in this photo and want it down; `copyright`: it is my work or infringes it; `other`',
    ),
    email: CustomerEmail.describe('Where the decision is sent'),
    // Normalised (line breaks, trimmed) in the handler: a transform here would give the OpenAPI
    // document an input and an output form of this schema.
    message: z
      .string()
      .refine((s) => [...s].length <= MAX_TAKEDOWN_MESSAGE, `at most ${MAX_TAKEDOWN_MESSAGE} characters`)
      .refine((s) => !FORBIDDEN_CHARS.test(s), 'must not contain control characters (tabs and line breaks are fine)')
      .refine(isWellFormed, 'must be well-formed Unicode')
      .optional()
      .describe(`Optional, at most ${MAX_TAKEDOWN_MESSAGE} characters`),
    captchaToken: z.string().max(16_384).optional().describe('The CAPTCHA solution (or `X-Captcha-Token`)'),
  })
  .meta({ id: 'TakedownRequest' });

const TakedownAccepted = z
  .object({
    requestId: TakedownRecord.shape.id.describe('The request, as the admin’s takedown queue names it'),
    hidden: TakedownRecord.shape.hides.describe(
      'Whether the photo left the public now (hide-first, within the per-address limit), or waits for review',
    ),
  })
  .meta({ id: 'TakedownAccepted' });

/**
 * A staff or owner token, or else a solved CAPTCHA. Returns the key the hiding limit counts
 * the request under: none for the owner, who decides takedowns anyway.
 */
export async function takedownRequester(
  fastify: FastifyInstance,
  request: FastifyRequest,
): Promise<string | undefined> {
  const { adminAuth, captcha } = fastify;
  const role = adminAuth.isAdmin(request) ? adminAuth.role(request) : undefined;
  if (role === undefined) await captcha.verify(captchaTokenOf(request), request.ip);
  return role === 'owner' ? undefined : clientDigest(request.ip);
}

const takedownRequestRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photos, takedowns } = fastify;

  fastify.post(
    '/api/photos/:event/:photo/takedown',
    {
      config: {
        rateLimit: fastify.rateLimits.takedown,
        access: { role: 'staff', public: 'with a CAPTCHA' },
      },
      schema: {
        tags: ['gallery'],
        summary: 'Ask for a photo to be taken down',
        description: [
          'Body `{ reason, email, message? }` and the CAPTCHA as for orders (`captchaToken` or',
          '`X-Captcha-Token`; missing 400 `CAPTCHA_REQUIRED`, invalid 403 `CAPTCHA_FAILED`), or a staff or owner',
          'token. `{photo}` is an id or a photo number. 202 `{ requestId, hidden }`.',
          'With `TAKEDOWN_MODE=hide-first` (the default) the photo leaves the public before the answer: gone',
          'from listings, counts, the finder and `/api/proxy-events` thumbnails; its thumbnail and preview',
          'answer 404 `PHOTO_NOT_FOUND`; new orders naming it 400 `UNKNOWN_PHOTO`. At most',
          `${takedowns.hidesPerHour} photos per client address per hour are hidden so (the owner's requests are not counted); further`,
          'requests are still 202, kept for review with `hidden: false`, and hide nothing until decided. With',
          '`review-first` every photo stays until the owner decides. A digital download already paid for stays',
          'available until a `remove` decision. The requester is emailed the decision. Rate limited per client address',
          'like feedback (`RATE_LIMIT_FEEDBACK_PER_MIN`, counted apart; 429 with `Retry-After`).',
          'Unknown event 404 `EVENT_NOT_FOUND`, unknown photo 404 `PHOTO_NOT_FOUND`.',
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        params: PhotoLookupParams,
        body: TakedownBody,
        response: {
          202: TakedownAccepted,
          ...errorResponses(...PUBLIC_BODY_ERRORS, ...CAPTCHA_ERRORS, 'EVENT_NOT_FOUND', 'PHOTO_NOT_FOUND'),
        },
      },
    },
    async (request, reply) => {
      const { event, photo: ref } = request.params;
      if (!photos.getEvent(event)) throw appError('EVENT_NOT_FOUND', { details: event });
      // A photo hidden already (someone asked first) takes more requests: each requester hears the decision.
      const photo = findByRef(photos, event, ref) ?? photos.findHiddenPhoto(event, ref);
      if (!photo) throw appError('PHOTO_NOT_FOUND', { details: `${event}/${ref}` });
      const client = await takedownRequester(fastify, request);
      const { reason, email, message } = request.body;
      const text = (message ?? '').replace(/\r\n?/g, '\n').trim();
      const record = await takedowns.request({ photo, reason, email, message: text, client });
      return reply.code(202).send({ requestId: record.id, hidden: record.hides });
    },
  );
};

export default takedownRequestRoutes;
