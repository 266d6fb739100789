/**
 * `POST /api/orders/{orderNumber}/feedback` (docs/contract.md, "Orders", and "Hardening,
 * round 2" for the proof of the order it needs). Public, as the receipt links to it, so an
 * unknown order, a wrong email and a missing one are the same 404, byte for byte, and the
 * route only ever appends: nothing is shown back or replaced. The cell it grows is capped
 * (a spreadsheet cell holds 50,000 characters) and the text is plain.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_FEEDBACK_ENTRIES } from '../../domain/order.js';
import { errorResponses } from '../../schemas/errors.js';
import { MAX_FEEDBACK_CHARS } from '../../services/orders/feedback.js';
import { isWellFormed } from '../../services/orders/text.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { OrderNumberParams } from '../common/order-ref.js';

const MAX_FEEDBACK_LENGTH = 2000;

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
    email: z
      .string()
      .max(254)
      .optional()
      .describe(
        'The email address the order was placed with, compared case-insensitively: the proof that the order is the sender’s. Required without admin credentials',
      ),
  })
  .meta({ id: 'FeedbackRequest' });

const FeedbackResponse = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'FeedbackResponse' });

const feedbackRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.post(
    '/api/orders/:orderNumber/feedback',
    {
      config: {
        rateLimit: fastify.rateLimits.feedback,
        access: { role: 'staff', public: "with the order's email" },
      },
      schema: {
        tags: ['orders'],
        summary: 'Leave feedback on an order',
        description: [
          `Body \`{ feedback, email }\`: \`feedback\` 1–${MAX_FEEDBACK_LENGTH} characters after trimming (line breaks`,
          'and tabs allowed, other control characters refused); `email` the address the order was placed with',
          '(any case), the proof that the order is the sender’s; with admin credentials (staff or owner) it may be',
          'left out. Unknown order, wrong email and missing email are the same 404 `ORDER_NOT_FOUND`. The entry',
          'is appended to the order with the time it arrived; earlier feedback is kept. An order takes at most',
          `${MAX_FEEDBACK_ENTRIES} entries (409 \`FEEDBACK_LIMIT\` beyond) and ${MAX_FEEDBACK_CHARS} characters of feedback in all`,
          '(400 `VALIDATION_FAILED` beyond). Rate limited per client address (`RATE_LIMIT_FEEDBACK_PER_MIN`,',
          'default 10 a minute; 429 with `Retry-After`).',
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        params: OrderNumberParams,
        body: FeedbackBody,
        response: {
          200: FeedbackResponse,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'ORDER_NOT_FOUND', 'FEEDBACK_LIMIT'),
        },
      },
    },
    async (request) => {
      const { feedback: text, email } = request.body;
      // The role was checked in onRequest (a viewer's token is 403); wrong credentials are 401.
      const admin = fastify.adminAuth.isAdmin(request);
      const by = fastify.adminAuth.actor(request);
      const updated = await fastify.orderChanges.feedback(request.params.orderNumber, text, { admin, email, by });
      request.log.info({ orderNumber: updated.orderNumber, chars: text.length }, 'feedback received');
      return {
        success: true as const,
        message: `Thank you! Your feedback on order ${updated.orderNumber} was received.`,
      };
    },
  );
};

export default feedbackRoutes;
