/** Web push (docs/contract.md, "Notifications"), decorated as `fastify.push`. Delivery never blocks a request. */
import type { OrderRecord } from '../../domain/order.js';

export type OrderEvent = 'created' | 'status' | 'shipping' | 'pickup';

export interface PushNotifier {
  readonly publicKey: string;
  /**
   * Why a subscription's endpoint would not be contacted (not https, an IP address or a
   * local name, unless `PUSH_ALLOW_HOSTS` names it), or undefined when it is acceptable.
   */
  endpointRefusal(endpoint: string): string | undefined;
  /**
   * Fire and forget: `created` goes to admin subscriptions; `status`, `shipping` and `pickup`
   * to admin subscriptions and that order's. 404/410 answers remove the subscription.
   */
  notifyOrder(event: OrderEvent, order: OrderRecord): void;
  /** Resolves when every push started so far has finished (tests, shutdown). */
  drain(): Promise<void>;
}
