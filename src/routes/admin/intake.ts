/** `GET /api/admin/intake` (admin): the photo intake's state (docs/contract.md, "Finding one's photos, and intake"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';

const IntakeStatus = z
  .object({
    pending: z.number().int().describe('Files seen but not settled yet (being copied, or just written)'),
    inspecting: z
      .number()
      .int()
      .describe('Settled photos being inspected (photo code, thumbnails): listed once that is done'),
    broken: z
      .array(
        z.object({
          event: z.string(),
          path: z.string().describe('Inside the event folder: `<day>/<session>/<file>`'),
          reason: z.string().describe('Why it cannot be read (cut off, not an image, ...)'),
          size: z.number().int(),
          since: z.string().describe('ISO time it was first reported'),
        }),
      )
      .describe('Files that stayed unreadable once settled: not listed until replaced'),
  })
  .meta({ id: 'IntakeStatus' });

const intakeRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/admin/intake',
    {
      config: { access: 'viewer' }, // reads only
      schema: {
        tags: ['admin'],
        summary: 'Photo intake status (admin)',
        description:
          'Files waiting to settle, photos being inspected, and broken files (a settled file that cannot be ' +
          'read: a cut-off copy, not an image). Broken files are never listed.',
        security: [{ adminToken: [] }],
        response: { 200: IntakeStatus, ...errorResponses('UNAUTHORIZED') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return fastify.photos.intake();
    },
  );
};

export default intakeRoutes;
