/** The owner's takedown queue (docs/contract.md, "Takedown requests"): deciding what the public sees is the owner's. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import type { TakedownRecord } from '../../services/store/ports/takedowns.js';
import { ADMIN_BODY_ERRORS, ADMIN_ERRORS } from '../common/errors.js';
import {
  type Takedown,
  TakedownDecided,
  TakedownDecisionBody,
  TakedownIdParams,
  TakedownList,
  TakedownListQuery,
} from './schemas.js';

const takedownRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { takedowns, photos, images } = fastify;
  const base = fastify.config.publicBaseUrl;
  const security = [{ adminToken: [] }];
  const owner = { config: { access: 'owner' } } as const;

  /** Whether the photo is kept from the public now: not found by the public lookup. */
  const isHidden = (r: TakedownRecord) => !photos.findPhoto(r.eventSlug, r.photoId);

  function view(r: TakedownRecord): Takedown {
    const photo = takedowns.photoOf(r);
    const removed = r.decision === 'remove';
    return {
      id: r.id,
      eventSlug: r.eventSlug,
      eventName: photos.getEvent(r.eventSlug)?.name ?? r.eventSlug,
      photo: {
        id: r.photoId,
        number: r.photoNumber,
        thumbnail: photo && !removed ? `${base}/api/takedowns/${encodeURIComponent(r.id)}/photo` : null,
      },
      reason: r.reason,
      email: r.email,
      message: r.message,
      hidden: isHidden(r),
      createdAt: r.createdAt,
      status: r.status,
      decision: r.decision,
      decidedAt: r.decidedAt,
      decidedBy: r.decidedBy,
    };
  }

  fastify.get(
    '/api/takedowns',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'Takedown requests',
        description:
          'Newest first. `?status=open` for those waiting for a decision, `decided` for the others. Each with ' +
          'the photo (number, and its thumbnail for the queue), reason, requester’s email, message, `createdAt`, ' +
          '`status`, `decision`, and whether the photo is hidden from the public now.',
        security,
        querystring: TakedownListQuery,
        response: { 200: TakedownList, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { takedowns: (await takedowns.list(request.query.status)).map(view) };
    },
  );

  fastify.post(
    '/api/takedowns/:id',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'Decide a takedown request',
        description: [
          'Body `{ decision }`. `remove`: the photo stays hidden for good (its file stays on disk; its cached',
          'renders are deleted), and unpaid orders holding it get a `photo-removed` history entry and list it in',
          '`removedPhotos`. `restore`: it is listed again (unless another decision removed it). Every open request',
          'for the same photo is decided with it, and each requester is emailed the decision. The same decision',
          'again: 200 with `changed: false`; the other one: 409 `TAKEDOWN_DECIDED`. Unknown id: 404',
          '`TAKEDOWN_NOT_FOUND`.',
        ].join('\n'),
        security,
        params: TakedownIdParams,
        body: TakedownDecisionBody,
        response: {
          200: TakedownDecided,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'TAKEDOWN_NOT_FOUND', 'TAKEDOWN_DECIDED'),
        },
      },
    },
    async (request) => {
      const result = await takedowns.decide(request.params.id, request.body.decision, fastify.adminAuth.actor(request));
      return { changed: result.changed, takedowns: result.decided.map(view), flaggedOrders: result.flaggedOrders };
    },
  );

  fastify.get(
    '/api/takedowns/:id/photo',
    {
      ...owner,
      schema: {
        tags: ['admin'],
        summary: 'The photo of a takedown request (thumbnail, for the queue)',
        description:
          'A JPEG thumbnail of the photo the request names, hidden or not, for the owner deciding. A photo removed ' +
          'for good has no renders any more: 404 `PHOTO_NOT_FOUND`, as when its file is gone.',
        security,
        params: TakedownIdParams,
        response: {
          200: {
            description: 'The thumbnail (JPEG), `Cache-Control: no-store`',
            content: { 'image/jpeg': { schema: z.string().meta({ format: 'binary' }) } },
          },
          ...errorResponses(...ADMIN_ERRORS, 'TAKEDOWN_NOT_FOUND', 'PHOTO_NOT_FOUND', 'IMAGE_UNAVAILABLE', 'BUSY'),
        },
      },
    },
    async (request, reply) => {
      const record = await takedowns.get(request.params.id);
      if (!record) throw appError('TAKEDOWN_NOT_FOUND', { details: request.params.id });
      const photo = record.decision === 'remove' ? undefined : takedowns.photoOf(record);
      if (!photo) throw appError('PHOTO_NOT_FOUND', { details: `${record.eventSlug}/${record.photoNumber}` });
      const img = await images.get('thumbnail', photo, 'jpeg');
      return reply
        .type('image/jpeg')
        .header('cache-control', 'no-store')
        .send(img.body as never);
    },
  );
};

export default takedownRoutes;
