/** Event configuration and discovery on the ordering host (docs/contract.md, "Events"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appError } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { eventCodeFromReferer } from '../../services/events/referer.js';
import { ADMIN_BODY_ERRORS } from '../common/errors.js';
import { createActiveEventList } from './active-list.js';
import {
  ActiveEventList,
  EventConfig,
  EventConfigQuery,
  EventConfigUpdate,
  EventPrefix,
  RefererHeaders,
  settingsProblems,
  toEventConfig,
  toSettingsPatch,
} from './schemas.js';

const JSON_TYPE = 'application/json; charset=utf-8';

const moneyNote =
  'Prices and `shippingFee` are numbers of dollars (as in event.json and the sales summary); ' +
  'Order objects show money as text such as `"$12.50"`.';

const eventRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { events } = fastify;
  const activeList = createActiveEventList({ events, photos: fastify.photos });

  const notFound = (eventSlug: string) =>
    appError('EVENT_NOT_FOUND', { message: `Event ${eventSlug.slice(0, 100)} not found`, details: { eventSlug } });

  fastify.get(
    '/api/event-config',
    {
      schema: {
        tags: ['events'],
        summary: 'The effective configuration of one event',
        description: [
          "The event's event.json defaults with the admin's overrides on top.",
          '`active` is true when the event is open for orders now (not archived, ordering enabled, and the',
          '`deadline`, if any, still ahead); `closedReason` says why not.',
          moneyNote,
          'Missing `eventSlug`: 400 `VALIDATION_FAILED`; unknown: 404 `EVENT_NOT_FOUND`.',
        ].join('\n'),
        querystring: EventConfigQuery,
        response: { 200: EventConfig, ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'STORE_UNAVAILABLE') },
      },
    },
    async (request) => {
      const ev = await events.get(request.query.eventSlug);
      if (!ev) throw notFound(request.query.eventSlug);
      return toEventConfig(ev, fastify.faces.state === 'on');
    },
  );

  fastify.put(
    '/api/event-config',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['events'],
        summary: "Change an event's flags, deadline, prices, shipping fee, packages or early bird (admin)",
        description: [
          'Body: `eventSlug` and at least one of `isArchived`, `orderingEnabled`, `deadline` (ISO 8601 with an',
          'offset, stored in UTC; `null` removes the deadline), `prices` (size → dollars, at most 2 decimals;',
          'replaces the whole list; 1-20 sizes, each 1-32 letters, digits, spaces or `× . / " \' -`) and',
          '`shippingFee` (dollars), `packages` (`[{ size, count, price }]`: per size, every full `count` copies cost',
          '`price` dollars; one per size, on the price list, cheaper than its copies; replaces the list, `[]` removes',
          'all) and `earlyBird` (`{ percent, until }`: whole percent off orders placed before `until`; `null` removes',
          'it), `autoPrint` (`pickup`: pickup orders’ prints go to the booth’s printer when marked paid; `off`),',
          '`faceSearch` (Find me by face for this event; works with FACE_SEARCH=on),',
          "`showRejected`, `minRating` (0–5) and `featuredRating` (1–5): which of the photographer's ratings",
          'are listed and featured. Amounts 0 to 100000. Any other field, or packages that do not fit the price list in effect after',
          'the change: 400 `VALIDATION_FAILED`.',
          'Fields left out keep their current value. The change is stored in the order store, applies at once',
          '(gallery status, `/api/proxy-events`, order submission) and survives restarts.',
          'Returns the new effective configuration, as `GET /api/event-config` does.',
        ].join('\n'),
        security: [{ adminToken: [] }],
        body: EventConfigUpdate,
        response: {
          200: EventConfig,
          ...errorResponses(...ADMIN_BODY_ERRORS, 'EVENT_NOT_FOUND'),
        },
      },
    },
    async (request) => {
      const { eventSlug } = request.body;
      const current = await events.get(eventSlug);
      if (!current) throw notFound(eventSlug);
      const patch = toSettingsPatch(request.body, current);
      const problems = settingsProblems(patch, current);
      if (problems.length > 0) {
        throw appError('VALIDATION_FAILED', { message: 'The packages do not fit the price list', details: problems });
      }
      const updated = await events.update(eventSlug, patch);
      request.log.info({ eventSlug, change: request.body }, 'event configuration changed');
      return toEventConfig(updated, fastify.faces.state === 'on');
    },
  );

  fastify.get(
    '/api/proxy-events',
    {
      schema: {
        tags: ['events'],
        summary: 'Every event, with whether it is open for orders',
        description: [
          'All events of the photo library in gallery order (newest first), archived ones included;',
          '`active` is true when the event is open for orders now. A cached list: it is rebuilt when the',
          'library or an event setting changes, and when an open event reaches its deadline.',
        ].join('\n'),
        response: { 200: ActiveEventList, ...errorResponses('STORE_UNAVAILABLE') },
      },
    },
    async (_request, reply) => reply.type(JSON_TYPE).send((await activeList.bytes()) as never),
  );

  fastify.get(
    '/api/event-prefix',
    {
      schema: {
        tags: ['events'],
        summary: 'The event (and its order-number prefix) of the gallery page the visitor came from',
        description: [
          'Reads the `Referer`: a gallery URL such as `https://gallery.example/event/AX2025/Day%201/...`',
          '(the segment after `/event/`), or a page with `?eventSlug=` or `?event=`. No `Referer`, nothing',
          'recognisable in it, or an unknown event: 404 `EVENT_NOT_FOUND`.',
        ].join('\n'),
        headers: RefererHeaders,
        response: { 200: EventPrefix, ...errorResponses('EVENT_NOT_FOUND', 'STORE_UNAVAILABLE') },
      },
    },
    async (request) => {
      const code = eventCodeFromReferer(request.headers.referer);
      if (code === undefined) {
        throw appError('EVENT_NOT_FOUND', {
          message: 'No event found in the Referer',
          details: request.headers.referer ? 'The Referer names no gallery event' : 'No Referer header',
        });
      }
      const ev = await events.get(code);
      if (!ev) throw notFound(code);
      return { eventSlug: ev.code, eventPrefix: ev.prefix, eventName: ev.name };
    },
  );
};

export default eventRoutes;
