/**
 * Online payment behind one narrow interface (docs/contract.md, "Selling"). Routes and the
 * order intake depend on this, never on the `stripe` client.
 */
/** What a checkout page is made for: one order, charged its total in one line. */
export type CheckoutRequest = {
  orderId: string;
  orderNumber: string;
  /** Shown on the payment page under the order number (e.g. the event and the items). */
  description: string;
  totalCents: number;
  customerEmail: string;
  /** Where the customer lands after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutSession = {
  sessionId: string;
  /** The hosted payment page: the order's `paymentUrl`. */
  url: string;
  /** When the page stops taking payment (ISO 8601). */
  expiresAt: string;
};

/** A webhook delivery, checked and reduced to what the order flow acts on. */
export type PaymentEvent =
  | {
      /** The customer finished checkout; `paid` is false while a delayed method (a bank debit) is still pending. */
      kind: 'checkoutCompleted';
      eventId: string;
      sessionId: string;
      orderId: string | null;
      paid: boolean;
      amountCents: number | null;
      currency: string | null;
      paymentIntentId: string | null;
    }
  | { kind: 'checkoutFailed'; eventId: string; sessionId: string; orderId: string | null }
  | {
      /** Money went back to the customer (from the dashboard, or our own refund). */
      kind: 'refunded';
      eventId: string;
      orderId: string | null;
      paymentIntentId: string | null;
      amountCents: number;
      refundedCents: number;
      /** The whole charge is refunded. */
      full: boolean;
    }
  | { kind: 'ignored'; eventId: string; type: string };

export type RefundOutcome =
  | { refunded: true; refundId: string | null; amountCents: number | null; alreadyRefunded: boolean }
  | { refunded: false; reason: 'notPaid' };

export interface PaymentProvider {
  readonly name: 'stripe';
  /** The smallest total the provider takes online (Stripe: $0.50); a smaller one is settled at the booth. */
  readonly minimumCents: number;
  /** Makes the hosted payment page for an order (the same order asked twice gets the same page). */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Checks a webhook delivery: the signature header against the raw body with the signing
   * secret, and its age. Throws 400 WEBHOOK_SIGNATURE_INVALID when it does not hold.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
  /** Refunds everything paid through that checkout session (safe to repeat). */
  refund(sessionId: string): Promise<RefundOutcome>;
}
