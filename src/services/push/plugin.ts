/**
 * Web push (docs/contract.md, "Notifications"), decorated as `fastify.push`. Routes call
 * `fastify.push.notifyOrder('created' | 'status' | 'shipping', order)` after the change is
 * stored; delivery happens in the background and never affects the request.
 * On close, pushes under way get half of `SHUTDOWN_GRACE_MS` to finish.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { allowedHosts } from './egress.js';
import { resolveVapidKeys } from './keys.js';
import { createPushNotifier } from './service.js';
import { createPushSubscribe } from './subscribe.js';
import type { PushNotifier } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    push: PushNotifier;
  }
}

async function pushPlugin(fastify: FastifyInstance) {
  const { config } = fastify;
  const log = fastify.log.child({ component: 'push' });
  const keys = await resolveVapidKeys(config);
  if (keys.created) log.info({ file: keys.file }, 'generated a VAPID key pair for web push');

  const notifier = createPushNotifier({
    store: fastify.store.pushSubscriptions,
    vapid: keys,
    subject: config.VAPID_SUBJECT,
    publicBaseUrl: config.publicBaseUrl,
    log,
    egress: { allow: allowedHosts(config.PUSH_ALLOW_HOSTS) },
  });
  fastify.decorate('push', {
    publicKey: notifier.publicKey,
    endpointRefusal: notifier.endpointRefusal,
    subscribe: createPushSubscribe({ orders: fastify.store.orders, subscriptions: fastify.store.pushSubscriptions }),
    notifyOrder: notifier.notifyOrder,
    notifySubscriber: notifier.notifySubscriber,
    notifyAdmins: notifier.notifyAdmins,
    drain: notifier.drain,
  } satisfies PushNotifier);

  fastify.addHook('onClose', async () => {
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.floor(config.SHUTDOWN_GRACE_MS / 2));
    });
    // Retry waits end at once; pushes already on the wire may finish.
    notifier.close();
    await Promise.race([notifier.drain(), budget]);
    clearTimeout(timer);
  });
}

export default fp(pushPlugin, { name: 'push', dependencies: ['config', 'store'] });
