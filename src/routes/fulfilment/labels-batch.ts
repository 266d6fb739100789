/**
 * `GET /api/labels/batch` (admin): the labels of every paid order of an event that ships and
 * has not shipped yet, oldest first, as one file (docs/contract.md, "Fulfilment"): a PDF
 * with a 6 × 4 in page per label (and, on request, each order's packing slip after its
 * label), or a DOCX with a page per label. Rendering is `fastify.labels`' business;
 * thumbnails for the slips come from `fastify.images`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { printLines } from '../../domain/offers.js';
import type { OrderRecord } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import type { SlipLine } from '../../services/labels/types.js';
import { attachment, BINARY, oldestFirst } from './files.js';

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

/** Paid, shipping and not shipped yet: the orders whose parcels are still to be packed. */
function waitingToShip(order: OrderRecord): boolean {
  return (
    order.status === 'paid' &&
    order.fulfillmentType === 'ship' &&
    order.shippingStatus === 'ship' &&
    // digital files alone are downloaded, not posted (docs/contract.md, "Selling")
    printLines(order.items).length > 0
  );
}

const labelsBatchRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { store, events, labels, photos, images } = fastify;

  /** A line's thumbnail, or nothing when the photo is gone or cannot be rendered. */
  async function thumbnail(order: OrderRecord, photoNumber: string): Promise<Buffer | undefined> {
    const photo = photos.findPhoto(order.eventSlug, photoNumber);
    if (!photo) return undefined;
    try {
      return (await images.get('thumbnail', photo)).body;
    } catch (err) {
      fastify.log.warn({ err, photoNumber, orderNumber: order.orderNumber }, 'no thumbnail for a packing slip');
      return undefined;
    }
  }

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
          ...errorResponses(
            'VALIDATION_FAILED',
            'UNAUTHORIZED',
            'EVENT_NOT_FOUND',
            'NOTHING_TO_PRINT',
            'RATE_LIMITED',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => {
      const { eventSlug, format, slips } = request.query;
      const [listed, event] = await Promise.all([
        store.orders.list({ eventSlug, statuses: ['paid'] }),
        events.get(eventSlug),
      ]);
      const orders = listed.filter(waitingToShip).sort(oldestFirst);
      if (orders.length === 0) {
        if (!event && listed.length === 0) {
          throw appError('EVENT_NOT_FOUND', {
            message: `Event ${eventSlug.slice(0, 100)} not found`,
            details: { eventSlug },
          });
        }
        throw appError('NOTHING_TO_PRINT', {
          message: `No paid order of ${event?.name ?? eventSlug} is waiting to ship`,
          details: { eventSlug },
        });
      }
      const eventName = event?.name ?? eventSlug;
      // The labels alone and the labels with their packing slips are different files: different names.
      const name = `${format === 'pdf' && slips ? 'labels-and-slips' : 'labels'}-${eventSlug}.${format}`;
      reply.header('X-Label-Count', String(orders.length));
      if (format === 'docx') {
        const file = await labels.batchDocx(orders, `Shipping labels · ${eventName}`);
        return attachment(reply, TYPES.docx, name).send(file.content);
      }
      const pdf = labels.batchPdf(orders, {
        title: `Shipping labels · ${eventName}`,
        eventName: () => eventName,
        slip: slips
          ? async (order): Promise<SlipLine[]> =>
              Promise.all(
                printLines(order.items).map(async (line) => ({
                  line,
                  thumbnail: await thumbnail(order, line.photoNumber),
                })),
              )
          : undefined,
      });
      return attachment(reply, TYPES.pdf, name).send(pdf);
    },
  );
};

export default labelsBatchRoutes;
