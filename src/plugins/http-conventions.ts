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
  exposedHeaders: ['ETag', 'Retry-After', 'Content-Disposition', 'X-Request-Id', 'Idempotent-Replayed'],
  maxAge: 600,
  strictPreflight: false,
};

export default fp(
  async function httpConventions(fastify) {
    await fastify.register(cors, corsOptions);

    // Bodies are JSON only; text/plain would otherwise reach the validators as a string.
    fastify.removeContentTypeParser('text/plain');

    // One synchronous hook (no promise per request: this runs on the gallery's hot path).
    fastify.addHook('onSend', (request, reply, payload, done) => {
      reply.header('X-Request-Id', request.id);
      if (!reply.hasHeader('cache-control')) {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('Cache-Control', 'no-cache');
        }
      }
      done(null, payload);
    });

    // One log line per request instead of Fastify's two (disableRequestLogging in app.ts):
    // reads at debug, changes and failures at info. 5xx are logged by the error handler.
    const readsLogged = fastify.log.level === 'debug' || fastify.log.level === 'trace';
    fastify.addHook('onResponse', (request, reply, done) => {
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (!read || readsLogged || reply.statusCode >= 400) {
        const line = {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        };
        if (read && reply.statusCode < 400) request.log.debug(line, 'request completed');
        else request.log.info(line, 'request completed');
      }
      done();
    });
  },
  { name: 'http-conventions' },
);
