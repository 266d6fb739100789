/**
 * Performance machinery for `npm run bench -- gallery` (cached gallery pages ≥ 0.7× a bare
 * server sending the same bytes).
 *
 * The front door: the HTTP server's request listener, which lets fast paths answer a request
 * before Fastify routes it (its router, objects and hooks are over a third of a cached page's
 * cost). A fast path answers only the common request with the route's status, headers and
 * bytes, and declines everything else; test/routes/gallery/fast-path.test.ts holds both to the
 * same answers. It runs no Fastify hooks: an onRequest hook gallery pages need must decline here.
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
