/** Decorates `fastify.events`: the effective event configuration (library defaults + admin overrides). */
import fp from 'fastify-plugin';
import { createEventCatalog, type EventCatalog } from './catalog.js';

declare module 'fastify' {
  interface FastifyInstance {
    events: EventCatalog;
  }
}

export default fp(
  async function eventsPlugin(fastify) {
    fastify.decorate('events', createEventCatalog(fastify.photos, fastify.store.eventSettings));
  },
  { name: 'events', dependencies: ['store', 'photos'] },
);
