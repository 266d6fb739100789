/**
 * The cross-cutting HTTP rules (docs/contract.md, "Hosts and formats"): CORS on every response (errors and 404s
 * included), `Cache-Control: no-cache` on JSON data unless a route chose otherwise,
 * the request id echoed back, and JSON as the only accepted request body type. Every
 * response also carries the security headers (docs/contract.md, "Hardening").
 */
import cors from '@fastify/cors';
import type { onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { codesRedacted } from '../lib/photo-code-log.js';
import { securityHeaders } from '../lib/security-headers.js';

export const corsOptions = {
  origin: '*',
  // Strings, not arrays: @fastify/cors joins an array again on every response.
  methods: 'GET, POST, PUT, OPTIONS',
  allowedHeaders: 'Content-Type, Authorization, Idempotency-Key, X-Captcha-Token',
  exposedHeaders: 'ETag, Retry-After, Content-Disposition, X-Request-Id, Idempotent-Replayed',
  maxAge: 600,
  strictPreflight: false,
};

/** Successful reads get a log line only at debug and trace (a fast path that can't log steps aside then). */
export function readsAreLogged(level: string): boolean {
  return level === 'debug' || level === 'trace';
}

export default fp(
  async function httpConventions(fastify) {
    await fastify.register(cors, corsOptions);

    // Bodies are JSON only; text/plain would otherwise reach the validators as a string.
    fastify.removeContentTypeParser('text/plain');

    const security = securityHeaders(fastify.config);

    // One synchronous hook (no promise per request: this runs on the gallery's hot path).
    fastify.addHook('onSend', (request, reply, payload, done) => {
      reply.header('X-Request-Id', request.id);
      for (const [name, value] of security) reply.header(name, value);
      if (!reply.hasHeader('cache-control')) {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('Cache-Control', 'no-cache');
        }
      }
      done(null, payload);
    });

    // One log line per request instead of Fastify's two (disableRequestLogging in app.ts):
    // reads at debug, changes at info. Failures are logged by the error handler (4xx at info,
    // 5xx at error), so at info a read route has nothing to add and gets no hook: the gallery's
    // pages don't pay for one. The hook is attached per route, where it can write something.
    const level = fastify.log.level;
    const readsLogged = readsAreLogged(level);
    const changesLogged = readsLogged || level === 'info';
    const logCompleted: onResponseHookHandler = (request, reply, done) => {
      const line = {
        method: request.method,
        // Photo codes in a path (`/me/<code>`) never reach the log (src/lib/photo-code-log.ts).
        url: codesRedacted(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      };
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (read && reply.statusCode < 400) request.log.debug(line, 'request completed');
      else request.log.info(line, 'request completed');
      done();
    };
    fastify.addHook('onRoute', (route) => {
      const methods = ([] as string[]).concat(route.method);
      const read = methods.every((m) => m === 'GET' || m === 'HEAD');
      if (!(read ? readsLogged : changesLogged)) return;
      const existing = route.onResponse ? ([] as onResponseHookHandler[]).concat(route.onResponse as never) : [];
      route.onResponse = [...existing, logCompleted];
    });
  },
  { name: 'http-conventions', dependencies: ['config'] },
);
