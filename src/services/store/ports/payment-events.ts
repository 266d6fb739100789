/**
 * The payment events port (docs/contract.md, "Selling"): the ids of the payment provider's
 * webhook events that were handled, so each is acted on once, across restarts and processes.
 *
 * An event that changes an order is recorded in that change's transaction (the orders port's
 * `paymentEvent` option): the change and the record of it are committed together or not at
 * all, so a crash in between lets the provider's retry run it again. An event that changes
 * nothing is recorded with `record`.
 */

export interface PaymentEventsPort {
  /** Whether the event was handled already. */
  seen(eventId: string): Promise<boolean>;
  /** Records an event handled without an order change; false when it was recorded already. */
  record(eventId: string, kind: string, orderId: string | null): Promise<boolean>;
}
