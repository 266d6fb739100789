/**
 * Push subscriptions on either engine (ports/push-subscriptions.ts): table
 * `push_subscriptions`, keyed by (endpoint, order_key), order_key being the order's id or ''
 * for admin subscriptions (a primary key column can't hold NULL).
 */
import { PushSubscriptionRecord, type PushSubscriptionsPort } from '../ports/push-subscriptions.js';
import type { Db } from './db.js';
import { recordTable } from './record-table.js';

export const SUBSCRIPTIONS = recordTable('push_subscriptions', PushSubscriptionRecord);
const COLUMNS = SUBSCRIPTIONS.select;
const toRecord = SUBSCRIPTIONS.toRecord;
const INSERT_SQL = SUBSCRIPTIONS.insertSql(['order_key'], 'ON CONFLICT (endpoint, order_key) DO NOTHING');

export class SqlPushSubscriptions implements PushSubscriptionsPort {
  constructor(private readonly db: Db) {}

  save(sub: PushSubscriptionRecord, opts: { maxPerOrder?: number } = {}): Promise<{ created: boolean; full?: true }> {
    const orderKey = sub.orderId ?? '';
    const max = sub.orderId === null ? undefined : opts.maxPerOrder;
    return this.db.transaction(async (tx) => {
      if (max !== undefined) {
        await tx.lock(`push-order:${orderKey}`);
        const known = await tx.get('SELECT 1 AS one FROM push_subscriptions WHERE endpoint = ? AND order_key = ?', [
          sub.endpoint,
          orderKey,
        ]);
        if (!known) {
          const n = await tx.get<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM push_subscriptions WHERE order_id = ?',
            [orderKey],
          );
          if (Number(n?.n ?? 0) >= max) return { created: false, full: true as const };
        }
      }
      const createdAt = new Date(sub.createdAt).toISOString();
      const inserted = await tx.run(INSERT_SQL, SUBSCRIPTIONS.values({ ...sub, createdAt }, orderKey));
      if (inserted === 0) {
        // Subscribed before: the browser may have new keys for the same endpoint.
        await tx.run(
          'UPDATE push_subscriptions SET p256dh = ?, auth = ?, scope = ? WHERE endpoint = ? AND order_key = ?',
          [sub.p256dh, sub.auth, sub.scope, sub.endpoint, orderKey],
        );
      }
      return { created: inserted === 1 };
    });
  }

  async list(query: { scope: 'admin' } | { orderId: string }): Promise<PushSubscriptionRecord[]> {
    const rows =
      'scope' in query
        ? await this.db.all(`SELECT ${COLUMNS} FROM push_subscriptions WHERE scope = ? ORDER BY created_at`, [
            query.scope,
          ])
        : await this.db.all(`SELECT ${COLUMNS} FROM push_subscriptions WHERE order_id = ? ORDER BY created_at`, [
            query.orderId,
          ]);
    return rows.map(toRecord);
  }

  async delete(endpoint: string): Promise<void> {
    await this.db.transaction((tx) => tx.run('DELETE FROM push_subscriptions WHERE endpoint = ?', [endpoint]));
  }
}
