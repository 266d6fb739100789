/** The push subscriptions port (docs/contract.md, "Notifications"). */
import { z } from 'zod';

export const PushSubscriptionRecord = z.object({
  endpoint: z.url(),
  p256dh: z.string().min(1),
  auth: z.string().min(1),
  scope: z.enum(['admin', 'order']).describe('admin: every order event; order: that order’s status and shipping'),
  /** The order's id for scope `order`; null for `admin`. */
  orderId: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PushSubscriptionRecord = z.infer<typeof PushSubscriptionRecord>;

export interface PushSubscriptionsPort {
  /**
   * Upsert by (endpoint, orderId); `created` false when it was there already (its keys are
   * updated). With `maxPerOrder`, a new subscription of an order that has that many already is
   * not written: `{ created: false, full: true }` (decided under the order's lock, so concurrent
   * subscribes never pass the cap, in any number of processes).
   */
  save(sub: PushSubscriptionRecord, opts?: { maxPerOrder?: number }): Promise<{ created: boolean; full?: true }>;
  list(query: { scope: 'admin' } | { orderId: string }): Promise<PushSubscriptionRecord[]>;
  /** Every subscription of that endpoint (the push service said it is gone). */
  delete(endpoint: string): Promise<void>;
}
