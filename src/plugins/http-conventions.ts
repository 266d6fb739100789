/**
 * The cross-cutting HTTP rules of SPEC §1: CORS on every response (errors and 404s
 * included), `Cache-Control: no-cache` on JSON data unless a route chose otherwise,
 * the request id echoed back, and JSON as the only accepted request body type.
 */
import cors from '@fastify/cors';
import fp from 'fastify-plugin';

export const corsOptions = {
  origin: '*',
  methods: ['GET', 'POST', 'PUT', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key', 'X-Captcha-Token'],
  exposedHeaders: ['ETag', 'Retry-After', 'Content-Disposition', 'X-Request-Id'],
  maxAge: 600,
  strictPreflight: false,
};

export default fp(
  async function httpConventions(fastify) {
    await fastify.register(cors, corsOptions);

    // Bodies are JSON only; text/plain would otherwise reach the validators as a string.
    fastify.removeContentTypeParser('text/plain');

    fastify.addHook('onRequest', async (request, reply) => {
      reply.header('X-Request-Id', request.id);
    });

    fastify.addHook('onSend', async (_request, reply, payload) => {
      if (!reply.hasHeader('cache-control')) {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('Cache-Control', 'no-cache');
        }
      }
      return payload;
    });
  },
  { name: 'http-conventions' },
);
