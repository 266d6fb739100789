/**
 * Performance machinery for `npm run bench -- phone-gallery` (the first screen of tiles within
 * 2.5 s on a convention's Wi-Fi). A browser navigating to a gallery page gets the app's HTML
 * with the page's first data (the very bytes each URL answers a fetch) and preloads of a
 * phone's first screen of tiles, so the tiles start alongside the script instead of after four
 * round trips (docs/gallery-internals.md, "The first screen"). The preloads carry the grid's
 * own `srcset` and `sizes` (web/src/lib/tiles.ts), so each tile is fetched once. Anything
 * unusual (indexing, an unknown event or folder) gets the plain app.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TILE_SIZES } from '../../domain/tile-sizes.js';
import { acceptsGzip, GZIP_LEVEL } from '../../lib/content-encoding.js';
import { escapeHtml } from '../../lib/escape.js';
import type { AppDocument, NavigationAnswer } from '../../plugins/web.js';
import { TILE_WIDTHS } from '../../services/images/types.js';
import { etagMatches } from '../common/etag.js';
import { type GalleryPages, PAGE_VARY } from './pages.js';
import { galleryPath } from './photo-item.js';
import type { PhotoItemT } from './schemas.js';

/** The web app's page size (web/src/pages/gallery/feed.ts, PAGE_SIZE): the URLs it asks for first. */
const APP_PAGE_SIZE = 48;
/** The featured row's length (web/src/pages/Gallery.tsx, FEATURED). */
const APP_FEATURED = 12;
/** Tiles preloaded: a phone's first screen (web/src/lib/first-screen.ts). */
const PRELOADED_TILES = 12;
/** Of those, the first row's (three columns on a phone) come first. */
const FIRST_ROW = 3;
type Carried = { url: string; bytes: Buffer };
type Composed = { carried: readonly Buffer[]; body: Buffer; gzipped: Buffer; etag: string };

type Params = { eventCode?: string; day?: string; session?: string };
/** The page routes (index.ts); other gallery paths (the event list, the live count) carry nothing. */
const PAGE_ROUTES = new Set(['/event/:eventCode', '/event/:eventCode/:day', '/event/:eventCode/:day/:session']);

export function galleryDocument(opts: {
  pages: GalleryPages;
  /** false while the first index is being built. */
  isReady: () => boolean;
  /** Brings the event settings up to date when they need it (the page routes do the same). */
  refresh: () => Promise<void> | undefined;
}): NavigationAnswer {
  const { pages } = opts;
  // Keyed by the last page carried (the photos), checked against every page it was built from.
  const built = new WeakMap<Buffer, Composed>();

  /** What the app will ask for first on this page; undefined when any of it is not a 200. */
  function carriedFor(request: FastifyRequest): Carried[] | undefined {
    if (!PAGE_ROUTES.has(request.routeOptions.url ?? '')) return undefined;
    const { eventCode: code, day, session } = request.params as Params;
    if (code === undefined) return undefined;
    const page = { page: 1, limit: APP_PAGE_SIZE };
    const eventUrl = galleryPath(code);
    if (day === undefined) {
      const featured = pages.eventPage(code, { page: 1, limit: APP_FEATURED, featured: true });
      const bytes = pages.eventPage(code, page);
      if (!featured || !bytes) return undefined;
      // The photos' page last: the preloads are its first tiles.
      return [
        { url: `${eventUrl}?featured=1&limit=${APP_FEATURED}`, bytes: featured },
        { url: `${eventUrl}?limit=${APP_PAGE_SIZE}`, bytes },
      ];
    }
    const meta = pages.eventPage(code, { page: 1, limit: 1 });
    const folder = session === undefined ? pages.dayPage(code, day, page) : pages.sessionPage(code, day, session, page);
    if (!meta || !Buffer.isBuffer(folder)) return undefined;
    return [
      { url: `${eventUrl}?limit=1`, bytes: meta },
      { url: `${galleryPath(code, day, session)}?page=1&limit=${APP_PAGE_SIZE}`, bytes: folder },
    ];
  }

  function compose(document: AppDocument, carried: Carried[]): Composed {
    const last = (carried[carried.length - 1] as Carried).bytes;
    const known = built.get(last);
    if (known?.carried.every((b, i) => b === carried[i]?.bytes)) return known;
    const head = [...carried.map(dataTag), ...preloads(last)].join('\n    ');
    const index = document.index.toString('utf8');
    const at = index.lastIndexOf('</head>');
    const body = Buffer.from(`${index.slice(0, at)}  ${head}\n  ${index.slice(at)}`);
    const composed: Composed = {
      carried: carried.map((c) => c.bytes),
      body,
      gzipped: gzipSync(body, { level: GZIP_LEVEL }),
      etag: `"h${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
    };
    built.set(last, composed);
    return composed;
  }

  return async (request: FastifyRequest, reply: FastifyReply, document: AppDocument): Promise<boolean> => {
    if (!opts.isReady() || !document.index.includes('</head>')) return false;
    await opts.refresh();
    const carried = carriedFor(request);
    if (!carried) return false;
    const page = compose(document, carried);
    reply.headers(document.headers).header('etag', page.etag).header('vary', PAGE_VARY);
    if (etagMatches(request.headers['if-none-match'], page.etag)) {
      reply.code(304).send();
      return true;
    }
    if (acceptsGzip(request.headers['accept-encoding'])) {
      reply.header('content-encoding', 'gzip').send(page.gzipped);
    } else {
      reply.send(page.body);
    }
    return true;
  };
}

function dataTag({ url, bytes }: Carried): string {
  return `<meta name="gallery-data" data-url="${escapeHtml(url)}" content="${escapeHtml(bytes.toString('utf8'))}">`;
}

function preloads(pageBytes: Buffer): string[] {
  const { photos } = JSON.parse(pageBytes.toString('utf8')) as { photos: PhotoItemT[] };
  return photos.slice(0, PRELOADED_TILES).map((photo, i) => {
    // Same-origin, as the app makes every image URL (web/src/lib/api.ts, localUrl).
    const url = new URL(photo.thumbnail);
    const thumbnail = url.pathname + url.search;
    const srcset = TILE_WIDTHS.map((w) => `${thumbnail}&tile=${w} ${w}w`).join(', ');
    const priority = i < FIRST_ROW ? 'high' : 'low';
    return `<link rel="preload" as="image" fetchpriority="${priority}" imagesrcset="${escapeHtml(srcset)}" imagesizes="${TILE_SIZES}">`;
  });
}
