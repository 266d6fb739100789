/**
 * `GET /api/photos/{event}/{photo}`: one photo and its page in each list, for the app's
 * "Find photo #". Not under `/event/{code}/...`: any name there could be a day folder's.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { unknownEvent } from './library-errors.js';
import { photoItemBuilder } from './photo-item.js';
import { locatePhoto } from './photo-locate.js';
import { PhotoLookup, PhotoLookupParams, PhotoLookupQuery } from './photo-lookup-schemas.js';

const photoRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const library = fastify.photos;
  const items = photoItemBuilder(fastify.config.publicBaseUrl);

  fastify.get(
    '/api/photos/:event/:photo',
    {
      schema: {
        tags: ['gallery'],
        summary: 'Find a photo by number (or id), with its folder and page',
        description: [
          'The photo as the gallery pages show it (`GalleryPhoto`), the event’s `code` and `name`, its',
          '`folder` (`day`, `session` and the session’s gallery `path`), and its `position` in the event,',
          'day and session lists: 0-based `index`, the `page` that shows it for `?limit=` (default 50,',
          'values above 100 clamped to 100, returned in `limit`), the list’s `totalCount` and gallery `path`.',
          '`{photo}` is an id or a photo number; `#12` and `012` mean photo 12.',
          'Unknown event: 404 `EVENT_NOT_FOUND`; unknown photo: 404 `PHOTO_NOT_FOUND`; right after a start-up',
          'on a large library that is not indexed yet: 503 `SERVICE_UNAVAILABLE` with `Retry-After`.',
        ].join('\n'),
        params: PhotoLookupParams,
        querystring: PhotoLookupQuery,
        response: {
          200: PhotoLookup,
          ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'PHOTO_NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    async (request) => {
      const { event, photo } = request.params;
      const found = locatePhoto(library, items, event, photo, request.query.limit);
      if (found.ok) return found.body;
      if (!library.isReady || found.reason === 'event') throw unknownEvent(library, event);
      throw appError('PHOTO_NOT_FOUND', { details: { eventCode: event, photo: photo.slice(0, 200) } });
    },
  );
};

export default photoRoutes;
