/** Decorates `fastify.takedowns` (service.ts): takedown requests and the photos they hide. */
import fp from 'fastify-plugin';
import { takedownQueueUrl } from '../../domain/takedowns.js';
import { createTakedowns, type Takedowns } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    takedowns: Takedowns;
  }
}

export default fp(
  async function takedownsPlugin(fastify) {
    const takedowns = createTakedowns({
      store: fastify.store.takedowns,
      orders: fastify.store.orders,
      photos: fastify.photos,
      images: fastify.images,
      downloads: fastify.downloads.files,
      kickMail: () => fastify.notifier.kick(),
      // Looked up when used, as the routes do.
      push: { notifyAdmins: (message) => fastify.push.notifyAdmins(message) },
      queueUrl: takedownQueueUrl(fastify.config.publicBaseUrl),
      mode: fastify.config.TAKEDOWN_MODE,
      notifyOperator: fastify.config.OPERATOR_EMAIL !== undefined,
      log: fastify.log,
    });
    fastify.decorate('takedowns', takedowns);
  },
  { name: 'takedowns', dependencies: ['config', 'store', 'photos', 'images', 'notifier', 'push', 'downloads'] },
);
