/** The print queue, admin only (docs/contract.md, "Fulfilment"); printing the lines is printing.ts. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { AdminPhoto } from '../../schemas/order.js';
import { PrintJobRecord, PrintJobState } from '../../services/store/ports/print-jobs.js';
import { ADMIN_BODY_ERRORS, ADMIN_ERRORS } from '../common/errors.js';
import { attachment, BINARY } from './files.js';
import { ZIP_TYPE } from './print-files.js';

const EventSlug = z.string().trim().min(1).max(200).describe('Only lines of this event (its code)');
const Size = z.string().trim().min(1).max(32).describe('Only lines of this print size, e.g. `4x6`');

const QueueQuery = z.object({ eventSlug: EventSlug.optional(), size: Size.optional() });

/** At most this many item ids in one request (a long convention day's batch, and a URL that fits). */
const MAX_ITEMS = 1000;

const ItemIdsQuery = z
  .string()
  .max(MAX_ITEMS * 24)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1).max(MAX_ITEMS))
  .describe(`Comma-separated item ids (\`AX25-0001.2\`), at most ${MAX_ITEMS}`);

const QueueItem = z
  .object({
    itemId: z.string().describe('`<orderNumber>.<line number>`'),
    orderId: z.string(),
    orderNumber: z.string(),
    eventSlug: z.string(),
    photoNumber: z.string(),
    photo: AdminPhoto.nullable().describe('The photo; null when it is no longer in the library'),
    size: z.string(),
    quantity: z.number().int().describe('Copies to print'),
    crop: z.object({ x: z.number(), y: z.number() }).describe('Centre of the crop window, fractions of the photo'),
    fileName: z
      .string()
      .describe('The print file’s name in the ZIP: `<orderNumber>_<photoNumber>_<size>_x<quantity>.jpg`'),
    printing: PrintJobRecord.pick({ printer: true, jobId: true, state: true, printerState: true })
      .extend({ state: PrintJobState.extract(['sending', 'queued']) })
      .nullable()
      .describe('The line’s print job in flight (`POST /api/print-queue/print`, auto-print); null when none'),
  })
  .meta({ id: 'PrintQueueItem' });

const PrintQueue = z
  .object({
    items: z.array(QueueItem).describe('Oldest order first, lines in order'),
    counts: z.record(z.string(), z.number().int()).describe('Size → copies to print, over `items`'),
  })
  .meta({ id: 'PrintQueue' });

const PrintedBody = z
  .strictObject({
    itemIds: z.array(z.string().max(40)).min(1).max(MAX_ITEMS).describe('The lines printed'),
  })
  .meta({ id: 'PrintedRequest' });

const PrintedResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    marked: z.array(z.string()).describe('Item ids marked printed now'),
    alreadyPrinted: z.array(z.string()).describe('Item ids that were marked printed before (left as they were)'),
  })
  .meta({ id: 'PrintedResponse' });

/** A line's job in flight, as the queue shows it. */
function printingOf(job: PrintJobRecord | undefined) {
  if (!job || (job.state !== 'sending' && job.state !== 'queued')) return null;
  return { printer: job.printer, jobId: job.jobId, state: job.state, printerState: job.printerState };
}

const printQueueRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { printing } = fastify;
  const { photos } = fastify.orderReads;
  // Booth helpers run the printer (docs/contract.md, "Roles").
  const admin = { config: { access: 'staff' } } as const;
  const security = [{ adminToken: [] }];

  fastify.get(
    '/api/print-queue',
    {
      ...admin,
      schema: {
        tags: ['fulfilment'],
        summary: 'Lines of paid orders waiting to be printed',
        description: [
          'Every line of every `paid` order not yet marked printed (and not shipped or collected), oldest order first, with its photo, size,',
          'copies and crop centre; `counts` sums the copies per size. `eventSlug` and `size` narrow it.',
          'Held orders (waiting for the customer’s email confirmation) are not paid and never listed.',
        ].join('\n'),
        security,
        querystring: QueueQuery,
        response: { 200: PrintQueue, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => {
      const { entries, counts } = await printing.queue(request.query);
      return {
        items: entries.map((q) => ({
          itemId: q.itemId,
          orderId: q.order.id,
          orderNumber: q.order.orderNumber,
          eventSlug: q.order.eventSlug,
          photoNumber: q.line.photoNumber,
          photo: photos.find(q.order.eventSlug, q.line.photoNumber),
          size: q.line.size,
          quantity: q.line.quantity,
          crop: { x: q.line.crop?.x ?? 0.5, y: q.line.crop?.y ?? 0.5 },
          fileName: q.fileName,
          printing: printingOf(q.printing),
        })),
        counts,
      };
    },
  );

  fastify.get(
    '/api/print-files',
    {
      ...admin,
      schema: {
        tags: ['fulfilment'],
        summary: 'A batch of print files as a ZIP',
        description: [
          'The print files of the print queue’s lines (`eventSlug`, `size` narrow it), or, with `itemIds`, of',
          'exactly those lines (of paid orders, printed already or not: a batch can be downloaded again), as a',
          'ZIP streamed while it is rendered, oldest order first. Each file is named',
          '`<orderNumber>_<photoNumber>_<size>_x<quantity>.jpg`: sRGB JPEG, quality 92, 300 dpi in its metadata,',
          'never watermarked, at the print size at 300 dpi in the photo’s orientation (4x6 1800 × 1200 px, 5x7',
          '2100 × 1500, 8x10 3000 × 2400; other sizes from the event’s `printSizes`), cropped around the line’s',
          'crop centre. Lines that cannot be printed are listed in a last entry `errors.txt`.',
          'An item id that names no line of a paid order: 400 `VALIDATION_FAILED`. Nothing to print: 409',
          '`NOTHING_TO_PRINT`. `X-Print-Count` says how many files.',
        ].join('\n'),
        security,
        querystring: QueueQuery.extend({ itemIds: ItemIdsQuery.optional() }),
        response: {
          200: {
            description:
              'The ZIP. `Content-Disposition: attachment; filename="prints-<eventSlug or all>[-<size>].zip"`, `Cache-Control: no-store`.',
            content: { [ZIP_TYPE]: { schema: BINARY } },
          },
          ...errorResponses(...ADMIN_ERRORS, 'NOTHING_TO_PRINT'),
        },
      },
    },
    async (request, reply) => {
      const { eventSlug, size } = request.query;
      const { count, zip } = await printing.files(request.query);
      const name = ['prints', eventSlug ?? 'all', ...(size === undefined ? [] : [size])]
        .map((p) => p.slice(0, 40).replace(/[^\p{L}\p{N}-]+/gu, '-'))
        .join('-');
      reply.header('X-Print-Count', String(count));
      return attachment(reply, ZIP_TYPE, `${name}.zip`).send(zip);
    },
  );

  fastify.post(
    '/api/print-queue/printed',
    {
      ...admin,
      schema: {
        tags: ['fulfilment'],
        summary: 'Mark lines printed',
        description: [
          'Marks the lines named printed: they leave the print queue, and each order’s `history` records a',
          '`printed` entry per line (`field`: the item id) with who marked it. All or nothing: an unknown order',
          'is 404 `ORDER_NOT_FOUND`, a line the order does not have 400 `VALIDATION_FAILED`, an order that is',
          'not paid 409 `INVALID_TRANSITION`, and then nothing is marked. Lines marked before are left as they',
          'were (`alreadyPrinted`).',
        ].join('\n'),
        security,
        body: PrintedBody,
        response: {
          200: PrintedResponse,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'ORDER_NOT_FOUND', 'INVALID_TRANSITION'),
        },
      },
    },
    async (request) => {
      const { marked, alreadyPrinted } = await printing.markPrinted(
        request.body.itemIds,
        fastify.adminAuth.actor(request),
      );
      return {
        success: true as const,
        message: `${marked.length} line(s) marked printed${alreadyPrinted.length ? `, ${alreadyPrinted.length} already were` : ''}`,
        marked,
        alreadyPrinted,
      };
    },
  );
};

export default printQueueRoutes;
