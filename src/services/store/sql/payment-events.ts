/** Handled payment webhook events on either engine (ports/payment-events.ts): table `payment_events`. */
import { PaymentEvent, type PaymentEventsPort } from '../ports/payment-events.js';
import type { Db, Queryable } from './db.js';
import { recordTable } from './record-table.js';

export const PAYMENT_EVENTS = recordTable('payment_events', PaymentEvent);
const INSERT_SQL = PAYMENT_EVENTS.insertSql([], 'ON CONFLICT (event_id) DO NOTHING');

export class SqlPaymentEvents implements PaymentEventsPort {
  constructor(private readonly db: Db) {}

  /** Records the event in the caller's transaction; false when it is there already (a unique key decides). */
  static async insert(
    tx: Queryable,
    e: { id: string; kind: string; orderId: string | null },
    at: Date,
  ): Promise<boolean> {
    const event = { eventId: e.id, kind: e.kind, orderId: e.orderId, receivedAt: at.toISOString() };
    return (await tx.run(INSERT_SQL, PAYMENT_EVENTS.values(event))) === 1;
  }

  async seen(eventId: string): Promise<boolean> {
    const row = await this.db.get(`SELECT ${PAYMENT_EVENTS.select} FROM payment_events WHERE event_id = ?`, [eventId]);
    return row !== undefined && PAYMENT_EVENTS.toRecord(row).eventId === eventId;
  }

  record(eventId: string, kind: string, orderId: string | null): Promise<boolean> {
    const at = new Date();
    return this.db.transaction((tx) => SqlPaymentEvents.insert(tx, { id: eventId, kind, orderId }, at));
  }
}
