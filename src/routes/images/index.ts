/**
 * Thumbnails and watermarked previews. Photos are looked up in the library's index, never
 * through a path built from the URL, so no parameter can reach a file outside PHOTOS_DIR.
 * Originals are never served. The hot path (an image in memory) does no I/O and no
 * per-request formatting.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { type ImageKind, TILE_WIDTHS, type TileWidth, tileKind } from '../../services/images/types.js';
import { etagMatches } from '../common/etag.js';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, imageHeaders } from './http-cache.js';
import { negotiateFormat } from './negotiate.js';

const Params = z.object({
  event: z.string().min(1).max(200).describe('Event code'),
  photo: z.string().min(1).max(200).describe('Photo id or photo number'),
});

const Query = z.object({
  v: z
    .string()
    .max(200)
    .optional()
    .describe(
      "The photo's current `version`, as in the gallery's URLs. When it matches, the response may be cached for a year.",
    ),
  size: z
    .enum(['1x', '2x'])
    .optional()
    .describe('Thumbnails only: `2x` is twice `THUMBNAIL_SIZE`, for 2× screens (the photo item’s `srcset`)'),
});

const TILE_VALUES = TILE_WIDTHS.map(String) as [`${TileWidth}`, ...`${TileWidth}`[]];

const ThumbnailQuery = Query.extend({
  tile: z
    .enum(TILE_VALUES)
    .optional()
    .describe(
      `A square tile of this many pixels a side (${TILE_WIDTHS.join(', ')}) instead of the whole photo: its centre ` +
        'square, as a square grid cell with CSS `object-fit: cover` shows it (never upscaled: a smaller photo gives ' +
        'the square of its short edge). For `<img srcset>` with `w` descriptors, one candidate per width. ' +
        'Not together with `size`.',
    ),
}).refine((q) => q.tile === undefined || q.size === undefined, {
  message: 'give `tile` or `size`, not both',
  path: ['tile'],
});

const Binary = z.string().meta({ format: 'binary' });

function responses(what: string) {
  return {
    200: {
      description: `${what}: WebP when \`Accept\` names \`image/webp\`, else JPEG. Headers: \`ETag\`, \`Vary: Accept\`, \`Cache-Control\` (\`${CACHE_IMMUTABLE}\` when \`v\` is the current version, else \`${CACHE_REVALIDATE}\`).`,
      content: { 'image/jpeg': { schema: Binary }, 'image/webp': { schema: Binary } },
    },
    304: z.null().describe('Not modified: `If-None-Match` names the current ETag. Same `ETag` and `Cache-Control`.'),
    ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'PHOTO_NOT_FOUND', 'IMAGE_UNAVAILABLE', 'BUSY'),
  };
}

const cachingNote = [
  'Caching: every image has a strong `ETag`; `If-None-Match` with it answers 304.',
  `With \`?v=\` equal to the photo's current version the image is \`${CACHE_IMMUTABLE}\`:`,
  'a replaced original gets a new version, hence a new URL in the gallery.',
  `Without \`v\`, or with an outdated one, the current image is served with \`${CACHE_REVALIDATE}\``,
  'so a replaced original shows within five minutes, revalidated cheaply by ETag.',
  'Errors are `Cache-Control: no-store`. 503 `IMAGE_UNAVAILABLE` when the original cannot be decoded;',
  '503 `BUSY` with `Retry-After` when the render cannot start within `IMAGE_QUEUE_TIMEOUT_MS` (default 10 s).',
].join(' ');

type ImageRequest = FastifyRequest<{
  Params: z.infer<typeof Params>;
  Querystring: z.infer<typeof Query> & { tile?: `${TileWidth}` | undefined };
}>;

/** The kind of image a request asks for: the route's own, or for a thumbnail its 2x or a tile. */
function requestedKind(kind: ImageKind, query: ImageRequest['query']): ImageKind {
  if (kind !== 'thumbnail') return kind;
  if (query.tile !== undefined) return tileKind(Number(query.tile) as TileWidth);
  return query.size === '2x' ? 'thumbnail2x' : kind;
}

const imageRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { photos, images } = fastify;

  function handler(kind: ImageKind) {
    return async (request: ImageRequest, reply: FastifyReply) => {
      const { event, photo: ref } = request.params;
      const photo = photos.findPhoto(event, ref);
      if (!photo) {
        if (!photos.getEvent(event)) throw appError('EVENT_NOT_FOUND', { details: event });
        throw appError('PHOTO_NOT_FOUND', { details: `${event}/${ref}` });
      }
      const format = negotiateFormat(request.headers.accept);
      const which = requestedKind(kind, request.query);
      const img = images.peek(which, photo, format) ?? (await images.get(which, photo, format));
      const versioned = request.query.v === img.version;
      if (etagMatches(request.headers['if-none-match'], img.etag)) {
        return reply
          .code(304)
          .headers(imageHeaders(img, versioned, true))
          .send();
      }
      return reply.headers(imageHeaders(img, versioned, false)).send(img.body);
    };
  }

  fastify.get(
    '/api/proxy-image/:event/:photo',
    {
      schema: {
        tags: ['images'],
        summary: 'Thumbnail of a photo',
        description: `A JPEG \`THUMBNAIL_SIZE\` (default 400) px on its long edge (never upscaled), auto-oriented, without metadata; with \`tile\`, a square tile of that width (the gallery's grid). ${cachingNote}`,
        params: Params,
        querystring: ThumbnailQuery,
        response: responses('The thumbnail'),
      },
    },
    handler('thumbnail'),
  );

  fastify.get(
    '/api/preview/:event/:photo',
    {
      schema: {
        tags: ['images'],
        summary: 'Watermarked preview of a photo',
        description: `A JPEG \`PREVIEW_SIZE\` (default 1600) px on its long edge (never upscaled) with the \`WATERMARK_TEXT\` tiled across it; the original file is never served. ${cachingNote}`,
        params: Params,
        querystring: Query,
        response: responses('The watermarked preview'),
      },
    },
    handler('preview'),
  );
};

export default imageRoutes;
