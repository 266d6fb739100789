/** Web push (docs/contract.md, "Notifications"), decorated as `fastify.push`. Delivery never blocks a request. */
import type { OrderRecord } from '../../domain/order.js';

export type OrderEvent = 'created' | 'status' | 'shipping';

export interface PushNotifier {
  readonly publicKey: string;
  /**
   * Fire and forget: `created` goes to admin subscriptions; `status` and `shipping` to admin
   * subscriptions and that order's. 404/410 answers remove the subscription.
   */
  notifyOrder(event: OrderEvent, order: OrderRecord): void;
  /** Resolves when every push started so far has finished (tests, shutdown). */
  drain(): Promise<void>;
}
