/**
 * Order intake (docs/contract.md, "Orders" and "Notifications"), decorated as
 * `fastify.orderIntake`: the submission pipeline both submission routes call (intake.ts), the
 * confirmation of held high-value orders (confirm.ts, behind `/api/orders/verify`), the
 * hold-expiry job (hold-expiry.ts) and a customer's lookup of their own order (lookup.ts).
 * The confirmation links are signed with VERIFY_LINK_SECRET or a secret generated into
 * DATA_DIR/verify-link-secret; several instances must share one.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OrderRecord } from '../../domain/order.js';
import { configuredOrStoredKey } from '../../lib/secret-file.js';
import { type ConfirmOutcome, createConfirmer } from './confirm.js';
import { HoldExpiryJob } from './hold-expiry.js';
import { createOrderIntake, type Submission, type SubmissionResult } from './intake.js';
import { createOrderLookup, type LookedUpOrder } from './lookup.js';
import { createLinkSigner, type LinkSigner } from './verify-link.js';

interface OrderIntakeService {
  submit(submission: Submission): Promise<SubmissionResult>;
  /** What a confirmation link (the token of `?token=`) would do, without doing it. */
  inspectLink(token: string | undefined): Promise<ConfirmOutcome>;
  /** Confirms the held order a confirmation link names (the page's button). */
  confirm(token: string | undefined): Promise<ConfirmOutcome>;
  /** One run of the hold-expiry job: cancels lapsed holds, returns them. */
  expireHolds(): Promise<OrderRecord[]>;
  /** A customer's own order, by its number and email address (lookup.ts); 404 ORDER_NOT_FOUND else. */
  lookup(orderNumber: string, email: string): Promise<LookedUpOrder>;
  /** Signs and checks confirmation links. */
  readonly links: LinkSigner;
}

declare module 'fastify' {
  interface FastifyInstance {
    orderIntake: OrderIntakeService;
  }
}

export const VERIFY_SECRET_FILE = 'verify-link-secret';

async function orderIntakePlugin(fastify: FastifyInstance) {
  const { config } = fastify;
  const { orders, idempotencyKeys } = fastify.store;
  const log = fastify.log.child({ component: 'orders' });
  const links = createLinkSigner(
    await configuredOrStoredKey(fastify, {
      configured: config.VERIFY_LINK_SECRET,
      fileName: VERIFY_SECRET_FILE,
      what: 'confirmation-link secret',
      encoding: 'base64url',
    }),
    () => fastify.businessSettings.current().publicBaseUrl,
  );
  const intake = createOrderIntake({
    orders,
    idempotencyKeys,
    events: fastify.events,
    photos: fastify.photos,
    coupons: fastify.store.coupons,
    checkout: (order) => fastify.payments.openCheckout(order),
    captcha: fastify.captcha,
    addressVerifier: fastify.addressVerifier,
    notifier: fastify.notifier,
    push: fastify.push,
    links,
    settings: {
      highValueThresholdCents: config.HIGH_VALUE_THRESHOLD,
      holdTtlMs: config.VERIFY_LINK_TTL_HOURS * 3_600_000,
      // Longer than any request may run (REQUEST_TIMEOUT_MS), with room to spare.
      staleReservationMs: config.IDEMPOTENCY_STALE_MS ?? config.REQUEST_TIMEOUT_MS + 60_000,
    },
    log,
  });
  const confirmer = createConfirmer({ orders, notifier: fastify.notifier, push: fastify.push, links, log });
  const job = new HoldExpiryJob({ orders, log });

  fastify.decorate('orderIntake', {
    submit: intake.submit,
    inspectLink: confirmer.inspect,
    confirm: confirmer.confirm,
    expireHolds: () => job.runOnce(),
    lookup: createOrderLookup({
      orders,
      openCheckout: (order) => fastify.payments.openCheckout(order),
      paymentInstructions: async () => (await fastify.businessSettings.get()).paymentInstructions,
      eventName: (eventSlug) => fastify.photos.getEvent(eventSlug)?.name,
      downloadLinks: (order) => fastify.downloads.linksOf(order),
      log,
    }),
    links,
  } satisfies OrderIntakeService);

  fastify.addHook('onReady', async () => job.start());
  fastify.addHook('onClose', async () => {
    job.stop();
    await job.idle();
  });
}

export default fp(orderIntakePlugin, {
  name: 'order-intake',
  dependencies: [
    'config',
    'store',
    'business-settings',
    'events',
    'photos',
    'captcha',
    'address',
    'notifier',
    'push',
    'payments',
    'downloads',
  ],
});
