/**
 * Notices to photo code subscribers when photos join their code (arrivals.ts): push through
 * `fastify.push`, email through the notifier's outbox. Closed before the store.
 */
import fp from 'fastify-plugin';
import { createArrivalNotifier } from './arrivals.js';

export default fp(
  async function finderArrivalsPlugin(fastify) {
    const arrivals = createArrivalNotifier({
      library: fastify.photos,
      codes: fastify.store.photoCodes,
      // Looked up at each notice, like the routes do (tests swap in a notifier of their own).
      push: { notifySubscriber: (sub, message, gone) => fastify.push.notifySubscriber(sub, message, gone) },
      kickMail: () => fastify.notifier.kick(),
      publicBaseUrl: () => fastify.businessSettings.current().publicBaseUrl,
      quietMs: fastify.config.FINDER_NOTIFY_QUIET_MS,
      log: fastify.log.child({ component: 'finder-arrivals' }),
    });
    fastify.addHook('onClose', () => arrivals.close());
  },
  { name: 'finder-arrivals', dependencies: ['config', 'store', 'business-settings', 'photos', 'push', 'notifier'] },
);
