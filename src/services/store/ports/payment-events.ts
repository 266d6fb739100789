/**
 * The payment events port (docs/contract.md, "Selling"): the provider's webhook events
 * handled, so each is acted on once. One that changes an order is recorded in that change's
 * transaction (`paymentEvent`), so a crash in between lets the provider's retry run it again.
 */
import { z } from 'zod';

/** A webhook event handled, by the provider's event id. */
export const PaymentEvent = z.object({
  eventId: z.string().min(1),
  /** The provider's event type. */
  kind: z.string(),
  /** The order it changed or was about; null for none. */
  orderId: z.string().nullable(),
  receivedAt: z.iso.datetime({ offset: true }),
});
export type PaymentEvent = z.infer<typeof PaymentEvent>;

export interface PaymentEventsPort {
  /** Whether the event was handled already. */
  seen(eventId: string): Promise<boolean>;
  /** Records an event handled without an order change; false when it was recorded already. */
  record(eventId: string, kind: string, orderId: string | null): Promise<boolean>;
}
