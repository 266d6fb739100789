/** `GET /api/labels/batch` (admin): the labels of every order waiting to ship (docs/contract.md, "Fulfilment"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { ADMIN_ERRORS } from '../common/errors.js';
import { attachment, BINARY } from './files.js';

const TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

const LabelsBatchQuery = z.object({
  eventSlug: z.string().min(1).max(200).describe('The event (its code)'),
  format: z.enum(['pdf', 'docx']).default('pdf').describe('`pdf` (default) or `docx`'),
  slips: z
    .stringbool()
    .default(false)
    .describe("PDF only: each order's packing slip (photo thumbnails, sizes, quantities) after its label"),
});

const labelsBatchRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/labels/batch',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['labels', 'fulfilment'],
        summary: 'Labels of every paid order waiting to ship, as one PDF or DOCX',
        description: [
          'Every order of the event that is `paid`, ships (`fulfillmentType: ship`) and is not shipped yet',
          '(`shippingStatus: ship`), oldest first. `pdf`: one 6 × 4 in landscape page per label, with the',
          'content of the single labels (order number and photos, return address, boxed recipient); with',
          "`slips=true`, each label is followed by the order's packing slip, a 4 × 6 in portrait page (more",
          'when the order is long) with a thumbnail, the size, the quantity and the print file name of every',
          'line. The PDF is streamed while it is laid out. `docx`: one editable page per label.',
          'Unknown event with no orders: 404 `EVENT_NOT_FOUND`; no order waiting: 409 `NOTHING_TO_PRINT`.',
          'The number of labels is in `X-Label-Count`.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        querystring: LabelsBatchQuery,
        response: {
          200: {
            description:
              'The labels. `Content-Disposition: attachment; filename="labels-<eventSlug>.<pdf|docx>"` (with `slips=true`: `labels-and-slips-<eventSlug>.pdf`), `Cache-Control: no-store`.',
            content: { [TYPES.pdf]: { schema: BINARY }, [TYPES.docx]: { schema: BINARY } },
          },
          ...errorResponses(...ADMIN_ERRORS, 'EVENT_NOT_FOUND', 'NOTHING_TO_PRINT'),
        },
      },
    },
    async (request, reply) => {
      const batch = await fastify.labels.eventBatch(request.query);
      reply.header('X-Label-Count', String(batch.count));
      return attachment(reply, TYPES[batch.format], batch.fileName).send(batch.body);
    },
  );
};

export default labelsBatchRoutes;
