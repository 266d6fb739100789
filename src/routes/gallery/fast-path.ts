/**
 * Performance machinery for `npm run bench -- gallery` (cached gallery pages ≥ 0.7× a bare
 * server sending the same bytes).
 *
 * A plain page request answered from the page cache before Fastify routes it (lib/front-door.ts),
 * with the route's status, headers and bytes. Only what the route would answer 200 without
 * thought; everything else (errors, navigations, odd queries) is declined and goes through
 * Fastify, so edge cases have one source. test/routes/gallery/fast-path.test.ts compares both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath } from '../../lib/front-door.js';
import { corsOptions } from '../../plugins/http-conventions.js';
import { prefersHtml } from '../../plugins/web.js';
import { type GalleryPages, PAGE_VARY, type PageRequest } from './pages.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './schemas.js';

const PREFIX = '/event/';
/**
 * Nothing, or `page` and/or `limit` once each, as plain positive integers (1 to 15 digits, no
 * leading zero), in either order: one regular expression, no splitting (the hot path).
 */
const PLAIN_QUERY = /^(?:(page|limit)=([1-9][0-9]{0,14})(?:&(page|limit)=([1-9][0-9]{0,14}))?)?$/;
/** Fastify's maxParamLength (app.ts): longer segments are the router's business. */
const MAX_SEGMENT = 500;

/** `{ page, limit }` for `page=3&limit=50` and the like; undefined for anything less plain. */
export function plainQuery(query: string): PageRequest | undefined {
  const m = PLAIN_QUERY.exec(query);
  if (!m) return undefined;
  const [, key1, value1, key2, value2] = m;
  if (key2 !== undefined && key2 === key1) return undefined; // one key given twice
  let page = 1;
  let limit = DEFAULT_LIMIT;
  if (key1 === 'page') page = Number(value1);
  else if (key1 === 'limit') limit = Math.min(Number(value1), MAX_LIMIT);
  if (key2 === 'page') page = Number(value2);
  else if (key2 === 'limit') limit = Math.min(Number(value2), MAX_LIMIT);
  return { page, limit };
}

function decodeSegment(raw: string): string | undefined {
  if (raw === '' || raw.length > MAX_SEGMENT) return undefined;
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function galleryFastPath(opts: {
  pages: GalleryPages;
  /** false while the first index is being built (the route answers 503 then). */
  isReady: () => boolean;
  /** false when the event settings snapshot must be refreshed first (the route does that). */
  isFresh: () => boolean;
  /** What every response carries (lib/security-headers.ts). */
  securityHeaders: readonly [string, string][];
}): FastPath {
  const { pages } = opts;
  // Raw header pairs: writeHead takes them without walking an object's keys.
  const constantHeaders = [
    ...opts.securityHeaders.flat(),
    'content-type',
    'application/json; charset=utf-8',
    'cache-control',
    'no-cache',
    'access-control-allow-origin',
    '*',
    'access-control-expose-headers',
    corsOptions.exposedHeaders,
    'vary',
    PAGE_VARY,
  ];

  function page(url: string): Buffer | undefined {
    const q = url.indexOf('?');
    const path = q === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q);
    const req = plainQuery(q === -1 ? '' : url.slice(q + 1));
    if (!req) return undefined;
    const s1 = path.indexOf('/');
    const s2 = s1 === -1 ? -1 : path.indexOf('/', s1 + 1);
    if (s2 !== -1 && path.indexOf('/', s2 + 1) !== -1) return undefined;
    const event = decodeSegment(s1 === -1 ? path : path.slice(0, s1));
    if (event === undefined) return undefined;
    let bytes: Buffer | string | undefined;
    if (s1 === -1) {
      bytes = pages.eventPage(event, req);
    } else {
      const day = decodeSegment(s2 === -1 ? path.slice(s1 + 1) : path.slice(s1 + 1, s2));
      if (day === undefined) return undefined;
      if (s2 === -1) {
        bytes = pages.dayPage(event, day, req);
      } else {
        const session = decodeSegment(path.slice(s2 + 1));
        if (session === undefined) return undefined;
        bytes = pages.sessionPage(event, day, session, req);
      }
    }
    return Buffer.isBuffer(bytes) ? bytes : undefined;
  }

  return (req: IncomingMessage, res: ServerResponse, requestId: (req: IncomingMessage) => string): boolean => {
    const url = req.url;
    if (url === undefined || !url.startsWith(PREFIX)) return false;
    const accept = req.headers.accept;
    // An EventSource asks for the live stream (live.ts), never a page.
    if (accept === 'text/event-stream' || prefersHtml(accept) || !opts.isReady() || !opts.isFresh()) return false;
    const bytes = page(url);
    if (!bytes) return false;
    const { body, gzip } = pages.encoded(bytes, req.headers['accept-encoding']);
    const headers = constantHeaders.slice();
    if (gzip) headers.push('content-encoding', 'gzip');
    headers.push('content-length', String(body.length), 'x-request-id', requestId(req));
    res.writeHead(200, headers);
    res.end(body);
    return true;
  };
}
