/**
 * The gallery pages' fast path (lib/front-door.ts): a plain page request, answered from the
 * page cache before Fastify routes it, with the route's status, headers and bytes.
 *
 * It answers only what the route would answer 200 without any thought: GET, no body, a
 * fetch rather than a browser navigation, a path of one to three plain names, a query of
 * nothing but `page` and `limit` as plain positive integers (the forms validation.ts lets
 * past zod), the library indexed and the event settings fresh, and a page that exists.
 * Everything else (every error, HTML navigations, odd encodings, repeated keys, a trailing
 * slash) is declined and goes through Fastify, so errors and edge cases have one source.
 * test/routes/gallery/fast-path.test.ts compares both paths on the same requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath } from '../../lib/front-door.js';
import { corsOptions } from '../../plugins/http-conventions.js';
import { prefersHtml } from '../../plugins/web.js';
import type { GalleryPages, PageRequest } from './pages.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './schemas.js';

const PREFIX = '/event/';
const PLAIN_POSITIVE = /^[1-9][0-9]{0,14}$/;
/** Fastify's maxParamLength (app.ts): longer segments are the router's business. */
const MAX_SEGMENT = 500;

/** `{ page, limit }` for `page=3&limit=50` and the like; undefined for anything less plain. */
export function plainQuery(query: string): PageRequest | undefined {
  let page: number | undefined;
  let limit: number | undefined;
  if (query === '') return { page: 1, limit: DEFAULT_LIMIT };
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1) return undefined;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!PLAIN_POSITIVE.test(value)) return undefined;
    if (key === 'page' && page === undefined) page = Number(value);
    else if (key === 'limit' && limit === undefined) limit = Math.min(Number(value), MAX_LIMIT);
    else return undefined; // another key, or one given twice
  }
  return { page: page ?? 1, limit: limit ?? DEFAULT_LIMIT };
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
}): FastPath {
  const { pages } = opts;
  // Raw header pairs (name, value, ...): writeHead takes them as they are, without walking
  // an object's keys. The same headers the route sends (CORS, Cache-Control, Vary: Accept).
  const constantHeaders = [
    'content-type',
    'application/json; charset=utf-8',
    'cache-control',
    'no-cache',
    'access-control-allow-origin',
    '*',
    'access-control-expose-headers',
    corsOptions.exposedHeaders,
    'vary',
    'Accept',
  ];

  function page(url: string): Buffer | undefined {
    const q = url.indexOf('?');
    const path = q === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q);
    const req = plainQuery(q === -1 ? '' : url.slice(q + 1));
    if (!req) return undefined;
    const parts = path.split('/');
    if (parts.length > 3) return undefined;
    const names: string[] = [];
    for (const raw of parts) {
      const name = decodeSegment(raw);
      if (name === undefined) return undefined;
      names.push(name);
    }
    const [event = '', day = '', session = ''] = names;
    const bytes =
      names.length === 1
        ? pages.eventPage(event, req)
        : names.length === 2
          ? pages.dayPage(event, day, req)
          : pages.sessionPage(event, day, session, req);
    return Buffer.isBuffer(bytes) ? bytes : undefined;
  }

  return (req: IncomingMessage, res: ServerResponse, requestId: () => string): boolean => {
    const url = req.url;
    if (url === undefined || !url.startsWith(PREFIX)) return false;
    if (prefersHtml(req.headers.accept) || !opts.isReady() || !opts.isFresh()) return false;
    const bytes = page(url);
    if (!bytes) return false;
    const headers = constantHeaders.slice();
    headers.push('content-length', String(bytes.length), 'x-request-id', requestId());
    res.writeHead(200, headers);
    res.end(bytes);
    return true;
  };
}
