/**
 * `GET /event/{eventCode}/live`: server-sent events of an event's photo count
 * (docs/contract.md, "Finding one's photos, and intake"); a client not asking for
 * `text/event-stream` gets the count once, as JSON. A day folder named `live` is shadowed
 * by this route (the router prefers the fixed name).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../schemas/errors.js';
import { unknownEvent } from './library-errors.js';
import { EventParams } from './schemas.js';

/** Well below the server's idle-socket timeout (twice REQUEST_TIMEOUT_MS, 60 s by default). */
const HEARTBEAT_MS = 15_000;

const LiveCount = z.object({ totalCount: z.number().int() }).meta({ id: 'LiveCount' });

const liveRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const library = fastify.photos;
  const streams = new Set<ServerResponse>();

  fastify.addHook('preClose', async () => {
    for (const res of streams) res.end();
    streams.clear();
  });

  fastify.get(
    '/event/:eventCode/live',
    {
      schema: {
        tags: ['gallery'],
        summary: 'Live photo count of an event (server-sent events)',
        description: [
          'With `Accept: text/event-stream` (an EventSource): a stream that sends `event: photos` with',
          '`data: { "totalCount": n }` at once and each time the event’s photo count changes (photos copied in,',
          `or removed), and a comment line every ${HEARTBEAT_MS / 1000} s. Otherwise the current \`{ totalCount }\``,
          'once, as JSON. Unknown event: 404 `EVENT_NOT_FOUND` (JSON).',
        ].join('\n'),
        params: EventParams,
        response: {
          200: {
            description: 'The event stream, or the current count once (JSON)',
            content: {
              'text/event-stream': { schema: z.string() },
              'application/json': { schema: LiveCount },
            },
          },
          ...errorResponses('VALIDATION_FAILED', 'EVENT_NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    (request, reply) => {
      const { eventCode } = request.params;
      if (!library.getEvent(eventCode)) throw unknownEvent(library, eventCode);
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        reply.header('cache-control', 'no-cache').send({ totalCount: library.getEvent(eventCode)?.photoCount ?? 0 });
        return;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'access-control-allow-origin': '*',
        'x-content-type-options': 'nosniff',
        // nginx and the like pass each event on at once.
        'x-accel-buffering': 'no',
      });
      let last = -1;
      const send = () => {
        const count = library.getEvent(eventCode)?.photoCount ?? 0;
        if (count === last) return;
        last = count;
        res.write(`event: photos\ndata: ${JSON.stringify({ totalCount: count })}\n\n`);
      };
      send();
      const unsubscribe = library.onChange(send);
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      streams.add(res);
      const done = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      };
      res.on('close', done);
      res.on('error', done);
    },
  );
};

export default liveRoutes;
