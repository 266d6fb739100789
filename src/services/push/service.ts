/**
 * Web push delivery (docs/contract.md, "Notifications"), without Fastify: the plugin decorates
 * it as `fastify.push`; tests and benches drive it directly. `notifyOrder` returns at once and
 * sends in the background. 404/410 deletes the subscription; 429, 5xx and network errors are
 * retried with backoff; anything else, or a non-public endpoint (egress.ts), is given up and
 * logged. Nothing here ever throws into a request; `drain()` waits for all of it.
 */
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { OrderRecord } from '../../domain/order.js';
import type { Logger } from '../../lib/logger.js';
import type { PushSubscriptionRecord, PushSubscriptionsPort } from '../store/ports/push-subscriptions.js';
import { createPushAgent, ENDPOINT_NOT_PUBLIC, endpointRefusal, type PushAgentOptions } from './egress.js';
import { type PushAudience, pushPayload } from './payload.js';
import type { OrderEvent, PushMessage, PushNotifier } from './types.js';
import { sendWebPush, type VapidKeys } from './web-push.js';

type PushStore = Pick<PushSubscriptionsPort, 'list' | 'delete'>;

export type PushNotifierOptions = {
  store: PushStore;
  vapid: VapidKeys;
  /** VAPID_SUBJECT: mailto: or https: contact for the push services. */
  subject: string;
  publicBaseUrl: string;
  log: Logger;
  /**
   * Where pushes may connect (egress.ts): hosts exempt from the public-address check
   * (`PUSH_ALLOW_HOSTS`), and for tests a CA to trust and a resolver.
   */
  egress?: PushAgentOptions;
  concurrency?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  /** Longest wait honoured from a Retry-After header. */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  /** How long the push service keeps a message for an offline browser, in seconds. */
  ttlSeconds?: number;
  /** Pushes waiting beyond this many are dropped (logged): delivery is best effort. */
  maxQueued?: number;
};

export type PushOutcome = {
  endpoint: string;
  result: 'delivered' | 'removed' | 'gave-up' | 'dropped' | 'refused';
  attempts: number;
  statusCode?: number;
};

export type PushNotifierHandle = Omit<PushNotifier, 'subscribe'> & {
  /** Stops accepting notifications and cuts retry waits short; `drain()` still resolves. */
  close(): void;
  /** Observers of each push's final outcome (tests, logs). */
  onOutcome(listener: (o: PushOutcome) => void): () => void;
};

type Target = { sub: PushSubscriptionRecord; audience: PushAudience };
type PushKeysOf = Pick<PushSubscriptionRecord, 'endpoint' | 'p256dh' | 'auth'>;

/** The status of a failed send, when the push service answered. */
function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown })?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Endpoints are capability URLs: logs get the push service's origin and a short tail only. */
function endpointForLog(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    return `${u.origin}/…${endpoint.slice(-6)}`;
  } catch {
    return '(invalid endpoint)';
  }
}

function retryAfterMs(err: unknown): number | undefined {
  const headers = (err as { headers?: Record<string, string | string[] | undefined> })?.headers;
  const raw = headers?.['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function createPushNotifier(opts: PushNotifierOptions): PushNotifierHandle {
  const concurrency = opts.concurrency ?? 4;
  const maxAttempts = opts.maxAttempts ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 1_000;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 30_000;
  const maxQueued = opts.maxQueued ?? 1_000;
  const log = opts.log;
  const vapid = { subject: opts.subject, publicKey: opts.vapid.publicKey, privateKey: opts.vapid.privateKey };
  // Every push goes through this agent: it connects only to public addresses.
  const agent = createPushAgent(opts.egress);
  const allow = opts.egress?.allow ?? new Set<string>();

  const inFlight = new Set<Promise<void>>();
  const listeners = new Set<(o: PushOutcome) => void>();
  const closing = new AbortController();
  // Every push waiting to retry listens for the close: up to maxQueued of them, not a leak
  // (each listener goes when its wait ends), so no MaxListenersExceededWarning for them.
  setMaxListeners(maxQueued + concurrency, closing.signal);
  let queued = 0;
  const slot = pLimit(concurrency);

  const report = (o: PushOutcome) => {
    for (const l of listeners) l(o);
  };

  function sleep(ms: number): Promise<void> {
    if (closing.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        closing.signal.removeEventListener('abort', done);
        resolve();
      }
      closing.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Sends `body` to `sub`; `gone` removes the subscription when the push service says it is no more. */
  async function deliver(sub: PushKeysOf, body: string, gone: () => Promise<void>): Promise<void> {
    const subscription = { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } };
    for (let attempt = 1; ; attempt++) {
      try {
        await slot(() =>
          sendWebPush(subscription, body, {
            vapid,
            ttlSeconds: opts.ttlSeconds ?? 24 * 3600,
            timeoutMs: opts.timeoutMs ?? 10_000,
            agent,
          }),
        );
        report({ endpoint: sub.endpoint, result: 'delivered', attempts: attempt });
        return;
      } catch (err) {
        const status = statusOf(err);
        if (status === 404 || status === 410) {
          try {
            await gone();
            log.info({ endpoint: endpointForLog(sub.endpoint), status }, 'push subscription expired; removed');
          } catch (delErr) {
            log.warn(
              { endpoint: endpointForLog(sub.endpoint), err: (delErr as Error).message },
              'could not remove push subscription',
            );
          }
          report({ endpoint: sub.endpoint, result: 'removed', attempts: attempt, statusCode: status });
          return;
        }
        if ((err as { code?: unknown }).code === ENDPOINT_NOT_PUBLIC) {
          log.warn(
            { endpoint: endpointForLog(sub.endpoint), err: (err as Error).message },
            'push not sent: the endpoint is not at a public address (PUSH_ALLOW_HOSTS can exempt a host)',
          );
          report({ endpoint: sub.endpoint, result: 'refused', attempts: attempt });
          return;
        }
        const retryable = status === undefined || status === 429 || status >= 500;
        if (!retryable || attempt >= maxAttempts || closing.signal.aborted) {
          log.warn(
            { endpoint: endpointForLog(sub.endpoint), status, attempts: attempt, err: (err as Error).message },
            'push not delivered; given up',
          );
          report({ endpoint: sub.endpoint, result: 'gave-up', attempts: attempt, statusCode: status });
          return;
        }
        const backoff = retryBaseMs * 2 ** (attempt - 1);
        const wait = Math.min(
          maxRetryAfterMs,
          retryAfterMs(err) ?? Math.round(backoff / 2 + (Math.random() * backoff) / 2),
        );
        log.debug({ endpoint: endpointForLog(sub.endpoint), status, attempt, wait }, 'push failed; retrying');
        await sleep(wait);
        if (closing.signal.aborted) {
          log.warn(
            { endpoint: endpointForLog(sub.endpoint), status, attempts: attempt },
            'push not delivered; shutting down',
          );
          report({ endpoint: sub.endpoint, result: 'gave-up', attempts: attempt, statusCode: status });
          return;
        }
      }
    }
  }

  /**
   * Each subscription its body, within the queue's bound. One whose endpoint is gone (404/410)
   * is deleted from the record, unless the send says what to do instead.
   */
  async function sendAll(
    sends: { sub: PushKeysOf; body: string; gone?: () => Promise<void> }[],
    about: object = {},
  ): Promise<void> {
    await Promise.all(
      sends.map(async ({ sub, body, gone }) => {
        if (queued >= maxQueued) {
          log.warn({ endpoint: endpointForLog(sub.endpoint), ...about }, 'push queue full; push dropped');
          report({ endpoint: sub.endpoint, result: 'dropped', attempts: 0 });
          return;
        }
        queued++;
        try {
          await deliver(sub, body, gone ?? (() => opts.store.delete(sub.endpoint)));
        } finally {
          queued--;
        }
      }),
    );
  }

  async function notify(event: OrderEvent, order: OrderRecord): Promise<void> {
    const admin = await opts.store.list({ scope: 'admin' });
    const forOrder = event === 'created' ? [] : await opts.store.list({ orderId: order.id });
    // One push per endpoint: a browser subscribed as admin and for the order gets the admin one.
    const targets = new Map<string, Target>();
    for (const sub of admin) targets.set(sub.endpoint, { sub, audience: 'admin' });
    for (const sub of forOrder) if (!targets.has(sub.endpoint)) targets.set(sub.endpoint, { sub, audience: 'order' });
    if (targets.size === 0) return; // the usual case for a new order: nobody to tell

    const bodies: Record<PushAudience, string> = {
      admin: JSON.stringify(pushPayload(event, order, 'admin', opts.publicBaseUrl)),
      order: JSON.stringify(pushPayload(event, order, 'order', opts.publicBaseUrl)),
    };
    await sendAll(
      [...targets.values()].map((t) => ({ sub: t.sub, body: bodies[t.audience] })),
      { orderNumber: order.orderNumber },
    );
  }

  async function notifyAdmins(message: PushMessage): Promise<void> {
    const admin = await opts.store.list({ scope: 'admin' });
    const body = JSON.stringify(message);
    await sendAll(
      admin.map((sub) => ({ sub, body })),
      { event: message.event },
    );
  }

  /** Runs `job` in the background, tracked by drain(), unless the notifier is closing; a failure is logged. */
  function start(about: object, job: () => Promise<void>): void {
    if (closing.signal.aborted) {
      log.warn(about, 'push notifier closed; notification not sent');
      return;
    }
    const run = job().catch((err) => {
      log.warn({ ...about, err: (err as Error).message }, 'push notification failed');
    });
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  }

  return {
    publicKey: opts.vapid.publicKey,
    endpointRefusal: (endpoint) => endpointRefusal(endpoint, allow),
    notifyOrder(event, order) {
      start({ event, orderNumber: order.orderNumber }, () => notify(event, order));
    },
    notifySubscriber(sub, message, gone) {
      start({ endpoint: endpointForLog(sub.endpoint) }, () => sendAll([{ sub, body: JSON.stringify(message), gone }]));
    },
    notifyAdmins(message) {
      start({ event: message.event }, () => notifyAdmins(message));
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close() {
      closing.abort();
      agent.destroy();
    },
    onOutcome(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
