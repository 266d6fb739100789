/**
 * Shipping labels (docs/contract.md, "Labels"), admin only, never cached (they carry an
 * address). Pickup orders get one too: it marks the bag waiting at the booth.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import type { LabelFile } from '../../services/labels/types.js';
import { OrderRef } from '../common/order-ref.js';

const FORMATS = {
  png: {
    type: 'image/png',
    what: 'PNG, 1800 × 1200 px (4 × 6 in at 300 dpi, landscape)',
  },
  docx: {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    what: 'DOCX, one editable page with the same content',
  },
} as const;
type Format = keyof typeof FORMATS;

const Binary = z.string().meta({ format: 'binary' });

function responses(format: Format) {
  const f = FORMATS[format];
  return {
    200: {
      description: `The label as ${f.what}. \`Content-Disposition: attachment; filename="label-<orderNumber>.${format}"\`, \`Cache-Control: no-store\`.`,
      content: { [f.type]: { schema: Binary } },
    },
    ...errorResponses('VALIDATION_FAILED', 'UNAUTHORIZED', 'ORDER_NOT_FOUND', 'RATE_LIMITED', 'STORE_UNAVAILABLE'),
  };
}

const description = (format: Format) =>
  [
    `The shipping label as ${FORMATS[format].what}: a top line with the order number and its photos`,
    '(`Photo #<n> (<size>) x<q>`, ...), the return address (`RETURN_ADDRESS`) and a boxed recipient block',
    '(name, street, city, state, ZIP). Long names, addresses and item lists shrink or wrap to fit.',
    'The order by id or order number; unknown: 404 `ORDER_NOT_FOUND`. Admin only (401 `UNAUTHORIZED`).',
  ].join('\n');

function send(reply: FastifyReply, file: LabelFile, format: Format, orderNumber: string): FastifyReply {
  return reply
    .header('Content-Type', FORMATS[format].type)
    .header('Content-Disposition', `attachment; filename="label-${orderNumber}.${format}"`)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.content);
}

const labelRoutes: FastifyPluginAsyncZod = async (fastify) => {
  // Labels are part of a booth day's work (src/domain/roles.ts).
  const admin = { config: { access: 'staff' } } as const;
  const security = [{ adminToken: [] }];

  async function render(ref: string, format: Format, reply: FastifyReply): Promise<FastifyReply> {
    const order = await fastify.orderReads.get(ref);
    const file = format === 'png' ? await fastify.labels.png(order) : await fastify.labels.docx(order);
    return send(reply, file, format, order.orderNumber);
  }

  for (const format of ['png', 'docx'] as const) {
    fastify.get(
      `/api/orders/:id/envelope/${format}`,
      {
        ...admin,
        schema: {
          tags: ['labels'],
          summary: `Shipping label as ${format.toUpperCase()}`,
          description: description(format),
          security,
          params: z.object({ id: OrderRef }),
          response: responses(format),
        },
      },
      async (request, reply) => render(request.params.id, format, reply),
    );

    fastify.get(
      `/api/envelope/${format}/:orderId`,
      {
        ...admin,
        schema: {
          tags: ['labels'],
          summary: `Shipping label as ${format.toUpperCase()} (alternative path)`,
          description: `Same as \`GET /api/orders/{id}/envelope/${format}\`.\n${description(format)}`,
          security,
          params: z.object({ orderId: OrderRef }),
          response: responses(format),
        },
      },
      async (request, reply) => render(request.params.orderId, format, reply),
    );
  }
};

export default labelRoutes;
