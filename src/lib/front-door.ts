/**
 * Performance machinery for `npm run bench -- gallery` (cached gallery pages ≥ 0.7× a bare
 * server sending the same bytes).
 *
 * The front door: the HTTP server's request listener, which lets registered fast paths answer
 * a request before Fastify routes it (Fastify's `serverFactory`).
 *
 * Why: a cached gallery page is bytes built once (routes/gallery/pages.ts). Through Fastify,
 * answering it costs about 55 µs of CPU; the router, request and reply objects, the hook
 * runners and the per-request listeners are over a third of that, for a response that never
 * changes between index updates. A fast path answers the common request (a plain page
 * query from a fetch, not a browser navigation) with the same status, headers and bytes as
 * the route, and declines everything else (any error, any unusual URL or header), which
 * Fastify then handles as before. test/routes/gallery/fast-path.test.ts holds the two paths
 * to the same answers.
 *
 * A fast path runs no Fastify hooks. Whoever adds an onRequest hook that gallery pages must
 * pass through has to decline in the fast path too (or drop it); the parity test catches a
 * header the hook would add.
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * Answers the request and returns true, or returns false without touching `res`.
 * `requestId(req)` gives the id Fastify would have given it (call it only when answering).
 */
export type FastPath = (
  req: IncomingMessage,
  res: ServerResponse,
  requestId: (req: IncomingMessage) => string,
) => boolean;

/** The Fastify options that shape its own http.Server. */
type ServerSettings = {
  http?: http.ServerOptions | null;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

export type FrontDoor = {
  /** Adds a fast path; tried in order, before Fastify. */
  add(path: FastPath): void;
  /** From `close()` on: every request goes to Fastify (which answers 503 while closing). */
  shut(): void;
  /** Fastify's `serverFactory`: an http.Server configured as Fastify would configure its own. */
  serverFactory(handler: (req: IncomingMessage, res: ServerResponse) => void, opts: ServerSettings): Server;
};

export function createFrontDoor(opts: { requestIdHeader: string; genReqId: () => string }): FrontDoor {
  const paths: FastPath[] = [];
  let open = true;
  const idHeader = opts.requestIdHeader;

  // As Fastify: the request's own id when it brings one, else a new one.
  const requestId = (req: IncomingMessage) => {
    const incoming = req.headers[idHeader];
    return typeof incoming === 'string' && incoming !== '' ? incoming : opts.genReqId();
  };

  function tryFastPaths(req: IncomingMessage, res: ServerResponse): boolean {
    if (!open || paths.length === 0 || req.method !== 'GET') return false;
    // A GET with a body is unusual enough to leave to Fastify.
    const headers = req.headers;
    if (headers['transfer-encoding'] !== undefined) return false;
    if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return false;
    for (const path of paths) {
      if (path(req, res, requestId)) return true;
    }
    return false;
  }

  return {
    add(path) {
      paths.push(path);
    },
    shut() {
      open = false;
    },
    serverFactory(handler, fastifyOpts) {
      const server = http.createServer(fastifyOpts.http ?? {}, (req, res) => {
        if (!tryFastPaths(req, res)) handler(req, res);
      });
      // What Fastify sets on the server it makes itself (fastify/lib/server.js).
      if (fastifyOpts.keepAliveTimeout !== undefined) server.keepAliveTimeout = fastifyOpts.keepAliveTimeout;
      if (fastifyOpts.requestTimeout !== undefined) server.requestTimeout = fastifyOpts.requestTimeout;
      if (fastifyOpts.connectionTimeout !== undefined) server.setTimeout(fastifyOpts.connectionTimeout);
      if (fastifyOpts.maxRequestsPerSocket) server.maxRequestsPerSocket = fastifyOpts.maxRequestsPerSocket;
      return server;
    },
  };
}
