/** `GET /api/faces/status` (admin): face indexing's progress (docs/contract.md, "Find me by face"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';

const FaceStatus = z
  .object({
    state: z
      .enum(['off', 'missing', 'on'])
      .describe(
        '`off`: FACE_SEARCH=off; `missing`: FACE_SEARCH=on but the face packages are not installed; `on`: working',
      ),
    events: z
      .array(
        z.object({
          eventSlug: z.string(),
          indexed: z.number().int().describe('Public photos whose faces are indexed (at their current version)'),
          total: z.number().int().describe('Public photos of the event'),
        }),
      )
      .describe('Every event with face search on (its setting `faceSearch`)'),
  })
  .meta({ id: 'FaceStatus' });

const faceStatusRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/faces/status',
    {
      config: { access: 'viewer' }, // reads only
      schema: {
        tags: ['admin'],
        summary: 'Face search: indexing progress (admin)',
        description:
          'Per event with face search on: its public photos (`total`) and how many have their faces indexed. ' +
          'New photos are indexed in the background after their thumbnails.',
        security: [{ adminToken: [] }],
        response: { 200: FaceStatus, ...errorResponses('UNAUTHORIZED', 'STORE_UNAVAILABLE') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return fastify.faces.status();
    },
  );
};

export default faceStatusRoutes;
