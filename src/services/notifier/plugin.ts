/**
 * Mail (docs/contract.md, "Notifications"), as `fastify.notifier`. Routes enqueue mail jobs
 * in the store change that causes them, then `kick()`: sending happens in the outbox worker,
 * never in the request. Labels are rendered and messages encoded in a worker thread
 * (mail-thread.ts): on the main thread a receipt would hold the event loop for 100 ms or more.
 *
 * On close the worker flushes what is due for at most half of SHUTDOWN_GRACE_MS, then cuts
 * off deliveries under way, so nothing writes to DATA_DIR or the store after close resolves.
 * What was cut off stays in the outbox, due at the next start (it may go out twice; none is lost).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OrderRecord } from '../../domain/order.js';
import { jobsForNewOrder } from './jobs.js';
import { CANCEL_GRACE_MS, threadedDelivery } from './mail-thread-client.js';
import { createRenderer } from './render.js';
import { transportNames, transportSpecs } from './transports/specs.js';
import type { Notifier } from './types.js';
import { OutboxWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    notifier: Notifier;
  }
}

async function notifierPlugin(fastify: FastifyInstance) {
  const { config } = fastify;
  const { outbox, orders } = fastify.store;
  const log = fastify.log.child({ component: 'notifier' });
  const transports = transportSpecs(config);
  const names = transportNames(transports);
  const worker = new OutboxWorker({
    store: outbox,
    render: createRenderer({
      getOrder: (ref) => orders.get(ref),
      // Read for each message: a save in the dashboard applies to the next mail (docs/contract.md, "Business settings").
      business: () => fastify.businessSettings.get(),
      operatorEmail: config.OPERATOR_EMAIL,
      downloadLinks: (order: OrderRecord) => fastify.downloads.linksOf(order),
    }),
    deliver: threadedDelivery({ returnAddress: config.RETURN_ADDRESS, transports }),
    log,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    retryMaxMs: config.MAIL_RETRY_MAX_MS,
  });

  fastify.decorate('notifier', {
    jobsForNewOrder,
    kick: () => worker.kick(),
    flush: () => worker.flush(),
  } satisfies Notifier);

  fastify.readiness.add('mail', async () => {
    // Informational: mail waiting is not a reason to take the instance out of service.
    const details: Record<string, unknown> = { transports: names };
    try {
      details.pending = await outbox.pendingCount();
    } catch (err) {
      details.pending = null;
      details.error = (err as Error).message;
    }
    return { ok: true, details };
  });

  fastify.addHook('onReady', async () => {
    log.info({ transports: names }, 'mail outbox worker started');
    worker.start();
  });

  fastify.addHook('onClose', async () => {
    worker.stop();
    const budgetMs = Math.floor(config.SHUTDOWN_GRACE_MS / 2);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), budgetMs);
    });
    try {
      const result = await Promise.race([worker.flush().then(() => 'done' as const), timedOut]);
      if (result === 'timeout') {
        log.warn({ budgetMs }, 'mail flush did not finish before shutdown; cutting off, the rest stays queued');
      }
    } catch (err) {
      log.error({ err }, 'mail flush on shutdown failed; the mail stays queued');
    } finally {
      clearTimeout(timer);
      // Whatever still runs is cut off, and waited for: nothing of it may outlive the app.
      await worker.abort(CANCEL_GRACE_MS + 500);
    }
  });
}

export default fp(notifierPlugin, {
  name: 'notifier',
  dependencies: ['config', 'readiness', 'store', 'business-settings', 'downloads'],
});
