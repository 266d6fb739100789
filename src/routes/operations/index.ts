/** `/healthz`, `/readyz` and `/openapi.json` (docs/contract.md, "Operations"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';

const Health = z.object({ status: z.literal('ok') });
const Ready = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), details: z.record(z.string(), z.unknown()).optional() })),
  mirror: z
    .object({
      pending: z.number().int().describe('Orders not yet in the spreadsheet'),
      lastSyncAt: z.string().nullable().describe('When the mirror last read or wrote the sheet'),
      lastError: z.string().nullable().describe('The last failure in words; null once the sheet answers'),
    })
    .optional()
    .describe('With the spreadsheet mirror on. The sheet being unreachable never makes the server unready.'),
});

const operationsRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        response: { 200: Health, ...errorResponses() },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  fastify.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the order store and other dependencies are reachable',
        description: '200 when every check passes, else 503 with the same body.',
        response: { 200: Ready, 503: Ready, ...errorResponses() },
      },
    },
    async (_request, reply) => {
      const result = await fastify.readiness.run();
      const mirror = result.checks.mirror?.details as z.infer<typeof Ready>['mirror'];
      return reply
        .code(result.ok ? 200 : 503)
        .send({ status: result.ok ? 'ready' : 'unavailable', checks: result.checks, ...(mirror ? { mirror } : {}) });
    },
  );

  fastify.get(
    '/openapi.json',
    {
      schema: {
        tags: ['operations'],
        summary: 'This OpenAPI 3.1.0 document',
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses() },
      },
    },
    async () => fastify.swagger() as unknown as Record<string, unknown>,
  );
};

export default operationsRoutes;
