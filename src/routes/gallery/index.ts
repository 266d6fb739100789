/**
 * The gallery host (docs/contract.md, "Gallery").
 *
 * Path parameters are only ever looked up in the in-memory index, never joined into a file
 * path, so no `..`, `%2f` or NUL can reach the file system. Page bodies are cached bytes
 * built from the same zod schemas (pages.ts), sent as Buffers past Fastify's serialiser
 * (`npm run bench -- gallery`); the schemas stay declared for tests and OpenAPI.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appError } from '../../errors/catalogue.js';
import { named } from '../../lib/plugin-name.js';
import { securityHeaders } from '../../lib/security-headers.js';
import { readsAreLogged } from '../../plugins/http-conventions.js';
import { errorResponses } from '../../schemas/errors.js';
import { type CatalogSettings, catalogSettings } from './event-settings.js';
import { galleryFastPath } from './fast-path.js';
import { notIndexedYet, unknownEvent } from './library-errors.js';
import liveRoutes from './live.js';
import { galleryDocument } from './page-document.js';
import { createGalleryPages, PAGE_GZIP_MIN_BYTES, PAGE_VARY } from './pages.js';
import {
  DayPage,
  DayParams,
  EventList,
  EventPage,
  EventPageQuery,
  EventParams,
  PageQuery,
  SessionPage,
  SessionParams,
} from './schemas.js';
import { galleryValidatorCompiler } from './validation.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Said by each page route (pages.ts, `encoded`). */
const COMPRESSION = `Gzipped (\`Content-Encoding: gzip\`) for a client whose \`Accept-Encoding\` allows it, from ${PAGE_GZIP_MIN_BYTES / 1024} KiB; \`Vary: ${PAGE_VARY}\`.`;

const galleryRoutes: FastifyPluginAsyncZod = async (fastify) => {
  fastify.setValidatorCompiler(galleryValidatorCompiler);
  // Event status (archived, ordering enabled, deadline) with the admin's overrides applied;
  // event.json alone where no event catalog is registered (the gallery on its own).
  let settings: CatalogSettings | undefined;
  if (fastify.hasDecorator('events')) {
    settings = catalogSettings(fastify.events, fastify.photos, {
      onError: (err) => fastify.log.warn({ err }, 'gallery: event settings unavailable; using the last known'),
    });
  }
  // Checked in the handler, not in a hook: a hook costs more than the check on the hot path.
  const snapshot = settings;
  const fresh = <T>(answer: () => T): T | Promise<T> =>
    snapshot?.needsRefresh() ? snapshot.refresh().then(answer) : answer();
  const pages = createGalleryPages({
    library: fastify.photos,
    publicBaseUrl: fastify.config.publicBaseUrl,
    ...(settings ? { settings } : {}),
  });

  const library = fastify.photos;
  await fastify.register(named(liveRoutes));

  // Plain page requests are answered before the router (fast-path.ts), except at debug, where
  // every read is logged and only the route does that.
  if (fastify.hasDecorator('frontDoor') && !readsAreLogged(fastify.log.level)) {
    fastify.frontDoor.add(
      galleryFastPath({
        pages,
        isReady: () => library.isReady,
        isFresh: () => !snapshot?.needsRefresh(),
        securityHeaders: securityHeaders(fastify.config),
      }),
    );
  }
  if (fastify.hasDecorator('appPages')) {
    fastify.appPages.add({
      requests: 'navigations',
      answer: galleryDocument({
        pages,
        isReady: () => library.isReady,
        refresh: () => (snapshot?.needsRefresh() ? snapshot.refresh() : undefined),
      }),
    });
  }
  /** A page's bytes as the fast path sends them: gzipped for a client that accepts it (pages.ts). */
  const sendPage = (request: FastifyRequest, reply: FastifyReply, bytes: Buffer) => {
    const { body, gzip } = pages.encoded(bytes, request.headers['accept-encoding']);
    reply.type(JSON_TYPE).header('vary', PAGE_VARY);
    if (gzip) reply.header('content-encoding', 'gzip');
    reply.send(body as never);
  };

  fastify.get(
    '/event',
    {
      schema: {
        tags: ['gallery'],
        summary: 'List the events',
        description:
          'Every event folder of the photo library, newest first. `status.active` tells whether the event is ' +
          'open for orders right now.',
        response: { 200: EventList, ...errorResponses('SERVICE_UNAVAILABLE') },
      },
    },
    () =>
      fresh(() => {
        if (!library.isReady) throw notIndexedYet();
        return pages.eventList();
      }),
  );

  fastify.get(
    '/event/:eventCode',
    {
      schema: {
        tags: ['gallery'],
        summary: 'One page of an event’s photos, with its folders',
        description: [
          'Photos of the whole event, ordered by day folder, session folder, capture time, then number.',
          'Also returns the effective `limit`, the `event` with its ordering status, and `folders`',
          '(day folders with their session folders and counts, each with its gallery `path`).',
          '',
          'Pagination: `page` ≥ 1 (default 1), `limit` ≥ 1 (default 50, values above 100 clamped to 100);',
          'a non-integer or smaller value is 400 `VALIDATION_FAILED`; a page past the end is 200 with',
          '`photos: []` and the true totals; `totalPages = ceil(totalCount / limit)`.',
          '',
          '`?at=HH:MM` (optionally with `day=<day folder>`) jumps to the page holding the first photo shot at or',
          'after that camera clock time; `currentPage` tells which page that is.',
          COMPRESSION,
        ].join('\n'),
        params: EventParams,
        querystring: EventPageQuery,
        response: { 200: EventPage, ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'SERVICE_UNAVAILABLE') },
      },
    },
    // Not async: the hot path; a sync handler saves a promise per request.
    (request, reply) =>
      fresh(() => {
        const { eventCode } = request.params;
        const bytes = pages.eventPage(eventCode, request.query);
        if (!bytes) throw unknownEvent(library, eventCode);
        sendPage(request, reply, bytes);
      }),
  );

  fastify.get(
    '/event/:eventCode/:day',
    {
      schema: {
        tags: ['gallery'],
        summary: 'One page of a day folder’s photos',
        description: [
          'Photos of every session of one day folder, in gallery order, with the day’s session folders.',
          'The breadcrumb (`parents`) of a session page links here. Same pagination rules as the event page.',
          'Unknown event: 404 `EVENT_NOT_FOUND`; unknown day: 404 `FOLDER_NOT_FOUND`.',
          COMPRESSION,
        ].join('\n'),
        params: DayParams,
        querystring: PageQuery,
        response: {
          200: DayPage,
          ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'FOLDER_NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    (request, reply) =>
      fresh(() => {
        const { eventCode, day } = request.params;
        const result = pages.dayPage(eventCode, day, request.query);
        if (result === 'event') throw unknownEvent(library, eventCode);
        if (result === 'folder') throw appError('FOLDER_NOT_FOUND', { details: { eventCode, day } });
        sendPage(request, reply, result);
      }),
  );

  fastify.get(
    '/event/:eventCode/:day/:session',
    {
      schema: {
        tags: ['gallery'],
        summary: 'One page of a session folder’s photos',
        description: [
          'Photos of one session folder, ordered by capture time, then number. Returns `folder`',
          '`{ event, day, session, photoCount }`, `pagination` `{ page, limit, totalCount, totalPages }`,',
          '`parents` (the event, then the day, each with its gallery `path`), and the same',
          '`totalCount`, `currentPage`, `totalPages` and `limit` at the top level.',
          'Same pagination rules as the event page.',
          'Unknown event: 404 `EVENT_NOT_FOUND`; unknown day or session: 404 `FOLDER_NOT_FOUND`.',
          COMPRESSION,
        ].join('\n'),
        params: SessionParams,
        querystring: PageQuery,
        response: {
          200: SessionPage,
          ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'FOLDER_NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    (request, reply) =>
      fresh(() => {
        const { eventCode, day, session } = request.params;
        const result = pages.sessionPage(eventCode, day, session, request.query);
        if (result === 'event') throw unknownEvent(library, eventCode);
        if (result === 'folder') throw appError('FOLDER_NOT_FOUND', { details: { eventCode, day, session } });
        sendPage(request, reply, result);
      }),
  );
};

export default galleryRoutes;
