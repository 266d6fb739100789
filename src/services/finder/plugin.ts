/**
 * Decorates `fastify.finder` (finder.ts): the codes issued come from codes-plugin.ts' registry,
 * the photos from the library, and a push endpoint is checked as `fastify.push` checks every one.
 */
import fp from 'fastify-plugin';
import { createFinder, type Finder } from './finder.js';

declare module 'fastify' {
  interface FastifyInstance {
    finder: Finder;
  }
}

export default fp(
  async function finderPlugin(fastify) {
    fastify.decorate(
      'finder',
      createFinder({
        library: fastify.photos,
        registry: fastify.photoCodeRegistry,
        subscriptions: fastify.photoCodes.subscriptions,
        // Looked up at each subscription, like the arrivals' notices (tests swap in a push service of their own).
        endpointRefusal: (endpoint) => fastify.push.endpointRefusal(endpoint),
      }),
    );
  },
  { name: 'finder', dependencies: ['photos', 'photo-codes', 'push'] },
);
