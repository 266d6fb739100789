/**
 * Mail (docs/contract.md, "Notifications"), decorated as `fastify.notifier`.
 *
 * Routes enqueue mail jobs with the store change that causes them
 * (`store.orders.create(input, { mail: fastify.notifier.jobsForNewOrder(order, verifyUrl) })`,
 * `store.orders.setShipping(ref, patch, { by, mail: [shippedJob(order.id)] })`, ...) and then call
 * `fastify.notifier.kick()`. Sending happens in the outbox worker, never in the request.
 *
 * Transports, in order: SendGrid (`SENDGRID_API_KEY`, `SENDGRID_BASE_URL`), SMTP (`SMTP_URL`);
 * with neither, `.eml` files in `DATA_DIR/outbox`. Mail every transport refuses is retried
 * after `MAIL_RETRY_BASE_MS`, doubling up to `MAIL_RETRY_MAX_MS`, with jitter.
 *
 * Labels for receipts are rendered, and every message encoded and sent, in a worker thread
 * (mail-thread.ts), with the same label renderer as `fastify.labels`: on the main thread a
 * receipt would hold the event loop for 100 ms or more. The main thread only reads the
 * order, fills in the words (templates/) and keeps the outbox.
 *
 * On close (SIGTERM) the worker stops polling and flushes what is due, for at most half of
 * `SHUTDOWN_GRACE_MS`. Past that it stops claiming and cuts off the deliveries under way
 * (about a second more at most, see mail-thread-client.ts): when close resolves, no delivery
 * of this app runs any more, so nothing writes to DATA_DIR or the store after it. What was
 * cut off or never claimed stays in the outbox, due at once at the next start (a message cut
 * off just as its transport took it may go out twice; none is lost).
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
