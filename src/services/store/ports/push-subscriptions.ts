/** The push subscriptions port (docs/contract.md, "Notifications"). */
import { z } from 'zod';

/** admin: every order event; order: that order's status and shipping changes. */
export const PushSubscriptionRecord = z.object({
  endpoint: z.url(),
  p256dh: z.string().min(1),
  auth: z.string().min(1),
  scope: z.enum(['admin', 'order']),
  /** The order's id for scope `order`; null for `admin`. */
  orderId: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PushSubscriptionRecord = z.infer<typeof PushSubscriptionRecord>;

export interface PushSubscriptionsPort {
  /** Upsert by (endpoint, orderId); `created` false when it was there already (its keys are updated). */
  save(sub: PushSubscriptionRecord): Promise<{ created: boolean }>;
  list(query: { scope: 'admin' } | { orderId: string }): Promise<PushSubscriptionRecord[]>;
  /** Every subscription of that endpoint (the push service said it is gone). */
  delete(endpoint: string): Promise<void>;
}
