/** Handled payment webhook events on either engine (ports/payment-events.ts): table `payment_events`. */
import type { PaymentEventsPort } from '../ports/payment-events.js';
import type { Db, Queryable } from './db.js';

export type PaymentEventRecord = { id: string; kind: string; orderId: string | null };

export class SqlPaymentEvents implements PaymentEventsPort {
  constructor(private readonly db: Db) {}

  /** Records the event in the caller's transaction; false when it is there already (a unique key decides). */
  static async insert(tx: Queryable, event: PaymentEventRecord, at: Date): Promise<boolean> {
    const n = await tx.run(
      `INSERT INTO payment_events (event_id, kind, order_id, received_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
      [event.id, event.kind, event.orderId, at.toISOString()],
    );
    return n === 1;
  }

  async seen(eventId: string): Promise<boolean> {
    return (await this.db.get('SELECT event_id FROM payment_events WHERE event_id = ?', [eventId])) !== undefined;
  }

  record(eventId: string, kind: string, orderId: string | null): Promise<boolean> {
    const at = new Date();
    return this.db.transaction((tx) => SqlPaymentEvents.insert(tx, { id: eventId, kind, orderId }, at));
  }
}
