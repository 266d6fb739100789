/**
 * Find me by face, and "this is me" takedowns (docs/contract.md, "Find me by face"). The
 * selfie is read into memory, handed to the faces service and dropped: never written or logged.
 */
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { named } from '../../lib/plugin-name.js';
import { errorResponses } from '../../schemas/errors.js';
import { TakedownRecord } from '../../services/store/ports/takedowns.js';
import { CAPTCHA_ERRORS, PUBLIC_BODY_ERRORS } from '../common/errors.js';
import { notIndexedYet } from './library-errors.js';
import { photoItemBuilder } from './photo-item.js';
import { PhotoItem } from './schemas.js';
import { TakedownBody, takedownRequester } from './takedown.js';

const SELFIE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const SELFIE_MAX_BYTES = 8 * 1024 * 1024;
/** The selfie as base64 in JSON: 4 characters for every 3 bytes, and the other fields. */
const TAKEDOWN_MAX_BYTES = Math.ceil(SELFIE_MAX_BYTES / 3) * 4 + 64 * 1024;

const Params = z.object({
  eventCode: z.string().min(1).max(200).describe('Event code (the event folder name), case-sensitive'),
});

const FaceSearchAnswer = z
  .object({
    photos: z
      .array(PhotoItem)
      .describe('Public photos of the event holding a face that matches the selfie’s largest face, best match first'),
    totalCount: z.number().int().describe('How many photos matched (all of them are listed)'),
  })
  .meta({ id: 'FaceSearchResult' });

const SelfieTakedownBody = TakedownBody.omit({ reason: true })
  .extend({
    reason: z.literal('me').describe('Only `me`: I am in these photos and want them down'),
    selfie: z
      .base64()
      .max(Math.ceil(SELFIE_MAX_BYTES / 3) * 4, 'at most 8 MB')
      .describe('The selfie: a JPEG, PNG or WebP image, base64-encoded (at most 8 MB before encoding)'),
  })
  .meta({ id: 'SelfieTakedownRequest' });

const SelfieTakedownAccepted = z
  .object({
    requestIds: z
      .array(TakedownRecord.shape.id)
      .describe('One takedown request per photo the selfie found, as the admin’s takedown queue names them'),
  })
  .meta({ id: 'SelfieTakedownAccepted' });

const faceSearchRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photos, faces } = fastify;
  const items = photoItemBuilder(fastify.config.publicBaseUrl);

  const eventOf = (eventCode: string) => {
    if (!photos.getEvent(eventCode)) throw appError('EVENT_NOT_FOUND', { details: eventCode.slice(0, 200) });
    if (!photos.isReady) throw notIndexedYet();
    return eventCode;
  };

  // The search takes the picture itself as the body, and nothing else (JSON included: 415).
  async function selfieRoutes(plain: FastifyInstance): Promise<void> {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(SELFIE_TYPES, { parseAs: 'buffer', bodyLimit: SELFIE_MAX_BYTES }, (_r, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/events/:eventCode/face-search',
      {
        bodyLimit: SELFIE_MAX_BYTES,
        config: { rateLimit: scope.rateLimits.faceSearch },
        schema: {
          tags: ['gallery'],
          summary: 'Find my photos with a selfie',
          description: [
            'The body is a picture of the visitor (`Content-Type: image/jpeg`, `image/png` or `image/webp`,',
            'at most 8 MB). Answers the event’s public photos holding a face that matches the picture’s largest',
            'face, best match first (`{ photos, totalCount }`, gallery photo items); none: an empty list. No face',
            'in the picture: 422 `NO_FACE`; not a readable image: 400 `VALIDATION_FAILED`; another content type:',
            '415. The picture is processed in memory and never stored or logged; nothing about faces (no vector,',
            'no box, nobody else) is returned. Hidden, rejected and photo-code frames never match.',
            'Only where face search is on (`FACE_SEARCH=on` and the event’s setting `faceSearch`): else 404',
            '`FACE_SEARCH_OFF`. Rate limited per client address (`RATE_LIMIT_FACE_SEARCH_PER_MIN`, 10 a minute;',
            '429 `RATE_LIMITED` with `Retry-After`).',
          ].join('\n'),
          params: Params,
          response: {
            200: FaceSearchAnswer,
            ...errorResponses(
              'SERVICE_UNAVAILABLE',
              ...PUBLIC_BODY_ERRORS,
              'EVENT_NOT_FOUND',
              'FACE_SEARCH_OFF',
              'NO_FACE',
            ),
          },
        },
      },
      async (request, reply) => {
        const eventCode = eventOf(request.params.eventCode);
        const picture = request.body;
        if (!Buffer.isBuffer(picture) || picture.length === 0) {
          throw appError('VALIDATION_FAILED', { details: 'the body is the picture (JPEG, PNG or WebP)' });
        }
        const found = await faces.find(eventCode, picture);
        reply.header('cache-control', 'no-store');
        return { photos: found.map(items.item), totalCount: found.length };
      },
    );
  }
  await fastify.register(named(selfieRoutes));

  fastify.post(
    '/api/events/:eventCode/takedown',
    {
      bodyLimit: TAKEDOWN_MAX_BYTES,
      config: {
        rateLimit: fastify.rateLimits.takedown,
        access: { role: 'staff', public: 'with a CAPTCHA' },
      },
      schema: {
        tags: ['gallery'],
        summary: 'Ask for every photo of me to be taken down, with a selfie',
        description: [
          'As `POST /api/photos/{event}/{photo}/takedown` with `reason: "me"`, but the body carries a selfie',
          '(`selfie`, base64) instead of naming a photo: a request is filed for every public photo of the event',
          'the selfie finds (as `face-search` does), each handled as a request for that photo (hidden at once',
          'with `TAKEDOWN_MODE=hide-first`, each photo counting towards the address’s 5 hides an hour). 202 `{ requestIds }` (empty when no photo',
          'matched). The CAPTCHA as for orders, or a staff or owner token. No face in the selfie: 422',
          '`NO_FACE`; face search not on for the event: 404 `FACE_SEARCH_OFF`. Rate limited like the takedown',
          'of one photo (counted together).',
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        params: Params,
        body: SelfieTakedownBody,
        response: {
          202: SelfieTakedownAccepted,
          ...errorResponses(
            'SERVICE_UNAVAILABLE',
            ...PUBLIC_BODY_ERRORS,
            ...CAPTCHA_ERRORS,
            'EVENT_NOT_FOUND',
            'FACE_SEARCH_OFF',
            'NO_FACE',
          ),
        },
      },
    },
    async (request, reply) => {
      const eventCode = eventOf(request.params.eventCode);
      // Each photo found counts against the address's hiding limit, as one-photo requests do.
      const client = await takedownRequester(fastify, request);
      const { email, message, selfie } = request.body;
      const text = (message ?? '').replace(/\r\n?/g, '\n').trim();
      const records = await faces.takedown(eventCode, Buffer.from(selfie, 'base64'), { email, message: text, client });
      return reply.code(202).send({ requestIds: records.map((r) => r.id) });
    },
  );
};

export default faceSearchRoutes;
