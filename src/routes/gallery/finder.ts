/**
 * The finder's routes, and here `GET /api/finder/{code}`: a photo code's photos
 * (docs/contract.md, "Finding one's photos, and intake"). Rate limited like the order lookup,
 * so codes can't be guessed at speed; the code space (40 bits) does the rest.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { named } from '../../lib/plugin-name.js';
import { errorResponses } from '../../schemas/errors.js';
import issueRoutes from './finder-issue.js';
import { CodeParams as Params } from './finder-schemas.js';
import subscribeRoutes from './finder-subscribe.js';
import { notIndexedYet } from './library-errors.js';
import { photoItemBuilder } from './photo-item.js';
import { PhotoItem } from './schemas.js';

const FinderAnswer = z
  .object({
    code: z.string().describe('The code, canonical (upper case)'),
    photos: z
      .array(PhotoItem)
      .describe(
        'The photos its frames introduced, in gallery order, across events: each frame showing the code opens ' +
          'a group of the following photos of its session folder, up to the next code frame or a pause over ' +
          '`FINDER_GAP_MS` (default 10 minutes). The code frames themselves are never listed.',
      ),
  })
  .meta({ id: 'FinderPhotos' });

const finderRoutes: FastifyPluginAsyncZod = async (fastify) => {
  await fastify.register(named(issueRoutes));
  await fastify.register(named(subscribeRoutes));
  const items = photoItemBuilder(fastify.config.publicBaseUrl);
  const { finder, photos: library } = fastify;
  // Bytes built once per library generation and code, for `npm run bench -- finder`.
  const answers = new LRUCache<string, Buffer>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (b) => b.length + 64 });

  fastify.get(
    '/api/finder/:code',
    {
      config: { rateLimit: fastify.rateLimits.lookup },
      schema: {
        tags: ['gallery'],
        summary: 'The photos of a photo code',
        description: [
          'An attendee shows a QR (their phone or a printed card) holding `PUBLIC_BASE_URL/me/<code>`; the',
          'photographer shoots it as the first frame. This returns `{ code, photos }` (gallery photo items).',
          'Only issued codes are known (`POST /api/finder`, card sheets); one whose frame has not been shot yet',
          'answers with no photos. Unknown: 404 `CODE_NOT_FOUND`; not a code at all: 400 `VALIDATION_FAILED`.',
          'Rate limited per client address like the',
          'order lookup (`RATE_LIMIT_LOOKUP_PER_MIN`; 429 `RATE_LIMITED` with `Retry-After`).',
        ].join('\n'),
        params: Params,
        response: {
          200: FinderAnswer,
          ...errorResponses('VALIDATION_FAILED', 'CODE_NOT_FOUND', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      if (!library.isReady) throw notIndexedYet();
      const found = await finder.lookup(request.params.code);
      if (!found.ok) {
        if (found.reason === 'malformed') {
          throw appError('VALIDATION_FAILED', { details: 'a photo code is 8 characters of Crockford base32' });
        }
        // No code in the details: they are logged (src/lib/photo-code-log.ts says why).
        throw appError('CODE_NOT_FOUND', { details: 'No photo code like that has been issued' });
      }
      const key = `${library.generation}\u0000${found.code}`;
      let bytes = answers.get(key);
      if (!bytes) {
        bytes = Buffer.from(
          JSON.stringify(FinderAnswer.parse({ code: found.code, photos: found.photos.map(items.item) })),
        );
        answers.set(key, bytes);
      }
      reply.type('application/json; charset=utf-8').send(bytes as never);
    },
  );
};

export default finderRoutes;
