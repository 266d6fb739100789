/** `GET /api/orders/{id}/print-files` (admin): one order's print files as a ZIP (docs/contract.md, "Fulfilment"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { ADMIN_ERRORS } from '../common/errors.js';
import { OrderRef } from '../common/order-ref.js';
import { attachment, BINARY } from './files.js';

export const ZIP_TYPE = 'application/zip';

const printFilesRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/api/orders/:id/print-files',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['fulfilment'],
        summary: "One order's print files as a ZIP",
        description: [
          "A ZIP (entries stored, not compressed) of the order's print files, one per line, in the order's",
          'order, named `<orderNumber>_<photoNumber>_<size>_x<quantity>.jpg`: the photo at the print size at',
          '300 dpi in its own orientation (4x6 1800 × 1200 px, 5x7 2100 × 1500, 8x10 3000 × 2400; other',
          "sizes from the event's `printSizes` setting in inches, or from a name such as `11x14`), cropped to",
          "the print's aspect around the line's crop centre, sRGB, JPEG quality 92, 300 dpi in its metadata,",
          'never watermarked. Print the file once per copy (`x<quantity>`).',
          '',
          'The ZIP is streamed while it is rendered (no `Content-Length`), a few files ahead of what the client',
          'has read. Lines that cannot be printed (the photo left the library, a size without known',
          'dimensions, an unreadable original) are listed in a last entry `errors.txt`.',
          '`size` keeps the lines of one size; none left: 409 `NOTHING_TO_PRINT`.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        params: z.object({ id: OrderRef }),
        querystring: z.object({
          size: z.string().trim().min(1).max(32).optional().describe('Only the lines of this print size, e.g. `4x6`'),
        }),
        response: {
          200: {
            description:
              'The ZIP. `Content-Disposition: attachment; filename="prints-<orderNumber>[-<size>].zip"`, `Cache-Control: no-store`.',
            content: { [ZIP_TYPE]: { schema: BINARY } },
          },
          ...errorResponses(...ADMIN_ERRORS, 'ORDER_NOT_FOUND', 'NOTHING_TO_PRINT'),
        },
      },
    },
    async (request, reply) => {
      const { size } = request.query;
      const { orderNumber, zip } = await fastify.printing.orderFiles(request.params.id, size);
      const name = `prints-${orderNumber}${size === undefined ? '' : `-${size}`}.zip`;
      return attachment(reply, ZIP_TYPE, name).send(zip);
    },
  );
};

export default printFilesRoutes;
