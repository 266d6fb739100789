/**
 * `POST /api/orders/{orderNumber}/feedback` (docs/contract.md, "Status and shipping"): a
 * customer's comment on an order, appended with a timestamp; earlier feedback is kept.
 *
 * It is public (the receipt links to it), so anyone who guesses an order number can post.
 * What keeps that harmless: the route only ever appends (nothing is shown back, nothing
 * earlier is replaced), it is rate limited per client address, an order takes at most
 * MAX_FEEDBACK_ENTRIES entries (checked in the append's transaction: 409 FEEDBACK_LIMIT) and
 * MAX_FEEDBACK_CHARS of feedback in all (a spreadsheet cell holds 50,000), and the text is
 * plain: trimmed, line breaks normalised to `\n`, no control characters but tab and newline,
 * no lone surrogates. Mail and the admin UI escape it like any customer text.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_FEEDBACK_ENTRIES } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { isWellFormed } from '../../services/orders/text.js';
import { loadOrder, OrderNumberParams } from '../common/order-ref.js';

const MAX_FEEDBACK_LENGTH = 2000;
/** All feedback of one order together, so a guessed order number cannot grow a row forever. */
export const MAX_FEEDBACK_CHARS = 20_000;

/** C0 controls but tab and newline, DEL, C1 controls. */
const FORBIDDEN = /(?![\t\n])\p{Cc}/u;

const codePoints = (s: string) => [...s].length;

const FeedbackBody = z
  .strictObject({
    feedback: z
      .string()
      .transform((s) => s.replace(/\r\n?/g, '\n').trim())
      .refine((s) => codePoints(s) >= 1, 'must not be empty')
      .refine((s) => codePoints(s) <= MAX_FEEDBACK_LENGTH, `at most ${MAX_FEEDBACK_LENGTH} characters`)
      .refine((s) => !FORBIDDEN.test(s), 'must not contain control characters (tabs and line breaks are fine)')
      .refine(isWellFormed, 'must be well-formed Unicode')
      .describe(`1–${MAX_FEEDBACK_LENGTH} characters after trimming; line breaks and tabs allowed`),
  })
  .meta({ id: 'FeedbackRequest' });

const FeedbackResponse = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'FeedbackResponse' });

const feedbackRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { orders } = fastify.store;

  fastify.post(
    '/api/orders/:orderNumber/feedback',
    {
      config: { rateLimit: fastify.rateLimits.feedback },
      schema: {
        tags: ['orders'],
        summary: 'Leave feedback on an order',
        description: [
          `Body \`{ feedback }\`: 1–${MAX_FEEDBACK_LENGTH} characters after trimming (line breaks and tabs`,
          'allowed, other control characters refused). It is appended to the order with the time it',
          `arrived; earlier feedback is kept. An order takes at most ${MAX_FEEDBACK_ENTRIES} entries (409`,
          `\`FEEDBACK_LIMIT\` beyond) and ${MAX_FEEDBACK_CHARS} characters of feedback in all (400`,
          '`VALIDATION_FAILED` beyond). Public: the order number (or id) is the only',
          'key. Rate limited per client address (`RATE_LIMIT_FEEDBACK_PER_MIN`, default 10 a minute; 429',
          'with `Retry-After`). Unknown order: 404 `ORDER_NOT_FOUND`.',
        ].join('\n'),
        params: OrderNumberParams,
        body: FeedbackBody,
        response: {
          200: FeedbackResponse,
          ...errorResponses(
            'VALIDATION_FAILED',
            'ORDER_NOT_FOUND',
            'FEEDBACK_LIMIT',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'RATE_LIMITED',
            'STORE_UNAVAILABLE',
          ),
        },
      },
    },
    async (request) => {
      const text = request.body.feedback;
      const order = await loadOrder(orders, request.params.orderNumber);
      // `[<ISO time>] ` and the blank line between entries count too.
      if (order.feedback.length + text.length + 30 > MAX_FEEDBACK_CHARS) {
        throw appError('VALIDATION_FAILED', {
          message: `Order ${order.orderNumber} has no room for more feedback`,
          details: { limit: MAX_FEEDBACK_CHARS, used: order.feedback.length },
        });
      }
      const updated = await orders.appendFeedback(order.id, text, new Date(), { by: 'customer' });
      request.log.info({ orderNumber: updated.orderNumber, chars: text.length }, 'feedback received');
      return {
        success: true as const,
        message: `Thank you! Your feedback on order ${updated.orderNumber} was received.`,
      };
    },
  );
};

export default feedbackRoutes;
