/**
 * Decorates `fastify.finder` (finder.ts). The registry of issued codes is used when
 * codes-plugin.ts has decorated `photoCodeRegistry` before this one (the app registers it
 * right after the store); without it, a code is known once the library has seen a frame
 * showing it.
 */
import fp from 'fastify-plugin';
import { createFinder, type Finder, type PhotoCodeRegistry } from './finder.js';

declare module 'fastify' {
  interface FastifyInstance {
    finder: Finder;
  }
}

export default fp(
  async function finderPlugin(fastify) {
    const registry = fastify.hasDecorator('photoCodeRegistry')
      ? (fastify as unknown as { photoCodeRegistry: PhotoCodeRegistry }).photoCodeRegistry
      : undefined;
    fastify.decorate('finder', createFinder(fastify.photos, registry));
  },
  { name: 'finder', dependencies: ['photos', 'photo-codes'] },
);
