/** Web push (docs/contract.md, "Notifications"), decorated as `fastify.push`. Delivery never blocks a request. */
import type { OrderRecord } from '../../domain/order.js';

export type OrderEvent = 'created' | 'status' | 'shipping' | 'pickup';

/** What the service worker (web/public/sw.js) shows: a title, a line, and where a tap leads. */
export type PushMessage = { title: string; body: string; url: string; tag: string; event: string };

/**
 * Saves a browser's subscription (keys in base64url, padding dropped): for an admin every order
 * event, else the order `orderNumber` and `email` name. `created` false when it was there
 * already, `label` what it is for. Neither admin nor order: UNAUTHORIZED; only one of the two
 * fields: VALIDATION_FAILED; unknown order or another email: ORDER_NOT_FOUND; an order at its
 * cap: SUBSCRIPTION_LIMIT.
 */
export type PushSubscribe = (
  sub: { endpoint: string; keys: { p256dh: string; auth: string }; orderNumber?: string; email?: string },
  admin: boolean,
) => Promise<{ created: boolean; label: string; scope: 'admin' | 'order' }>;

export interface PushNotifier {
  readonly publicKey: string;
  /**
   * Why a subscription's endpoint would not be contacted (not https, an IP address or a
   * local name, unless `PUSH_ALLOW_HOSTS` names it), or undefined when it is acceptable.
   */
  endpointRefusal(endpoint: string): string | undefined;
  subscribe: PushSubscribe;
  /**
   * Fire and forget: `created` goes to admin subscriptions; `status`, `shipping` and `pickup`
   * to admin subscriptions and that order's. 404/410 answers remove the subscription.
   */
  notifyOrder(event: OrderEvent, order: OrderRecord): void;
  /**
   * Fire and forget: `message` to one subscription kept elsewhere (a photo code's subscriber);
   * `gone` is called when the push service answers 404/410 (the subscription should go).
   */
  notifySubscriber(
    subscription: { endpoint: string; p256dh: string; auth: string },
    message: PushMessage,
    gone: () => Promise<void>,
  ): void;
  /** Fire and forget: `message` to every admin subscription (news that is not an order's: a takedown request). */
  notifyAdmins(message: PushMessage): void;
  /** Resolves when every push started so far has finished (tests, shutdown). */
  drain(): Promise<void>;
}
