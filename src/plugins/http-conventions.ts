/**
 * The cross-cutting HTTP rules (docs/contract.md, "Hosts and formats" and "Hardening"): CORS,
 * `Cache-Control`, the request id, JSON-only bodies, the security headers.
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

    // One log line per request: reads at debug, changes at info; the error handler logs
    // failures. Attached per route only where it can write something, so at info the
    // gallery's pages don't pay for a hook.
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
