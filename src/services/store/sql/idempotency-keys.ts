/** Idempotency keys on either engine (ports/idempotency-keys.ts): table `idempotency_keys`. */
import { appError } from '../../../errors/catalogue.js';
import {
  type IdempotencyKeysPort,
  IdempotencyRecord,
  type Reservation,
  type StoredResponse,
} from '../ports/idempotency-keys.js';
import type { Db, Queryable } from './db.js';
import { recordTable } from './record-table.js';

export const IDEMPOTENCY_KEYS = recordTable('idempotency_keys', IdempotencyRecord);
const COLUMNS = IDEMPOTENCY_KEYS.select;

/** Expired keys are deleted at most this often, by the reservation that comes along. */
const PURGE_EVERY_MS = 60_000;

const toRecord = IDEMPOTENCY_KEYS.toRecord;

/** A new key, or one expired or stale (its pending reservation older than the bound given) taken over. */
const RESERVE_SQL = IDEMPOTENCY_KEYS.insertSql(
  [],
  `ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending', status_code = NULL,
     response_body = NULL, order_id = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
   WHERE idempotency_keys.expires_at <= excluded.created_at
      OR (idempotency_keys.state = 'pending' AND idempotency_keys.created_at < ?)`,
);

const COMPLETE = `UPDATE idempotency_keys SET state = 'done', status_code = ?, response_body = ?, order_id = ?
  WHERE key = ? AND created_at = ? AND state = 'pending'`;

export class SqlIdempotencyKeys implements IdempotencyKeysPort {
  private lastPurge = 0;

  constructor(private readonly db: Db) {}

  /**
   * Completes the reservation made at `reservedAt` with the order it produced, in the order's
   * transaction. The reservation must still be ours: a key taken over (as stale) meanwhile
   * belongs to the request that took it, and this create must not happen.
   */
  static async completeWithOrder(
    tx: Queryable,
    key: string,
    reservedAt: string,
    orderId: string,
    response: StoredResponse,
  ): Promise<void> {
    const changed = await tx.run(COMPLETE, [response.statusCode, response.body, orderId, key, reservedAt]);
    if (changed !== 1) {
      throw appError('IDEMPOTENCY_IN_PROGRESS', {
        details: 'Another request took this Idempotency-Key over; retry in a moment',
        headers: { 'Retry-After': '1' },
      });
    }
  }

  // Reservations are `relaxed` (sql/db.ts): what one guards is the create that follows, whose
  // durable commit takes the reservation along; lost to a power cut before any create, it only
  // frees a key under which no order exists. Completion and release are durable: a stored
  // response is what a retry is answered with.
  reserve(
    rec: Reservation,
    opts: { staleBefore?: Date } = {},
  ): Promise<{ reserved: true } | { reserved: false; existing: IdempotencyRecord }> {
    const createdAt = new Date(rec.createdAt).toISOString();
    const expiresAt = new Date(rec.expiresAt).toISOString();
    // Pending reservations older than this are abandoned (their request died): taken over.
    const staleBefore = (opts.staleBefore ?? new Date(0)).toISOString();
    return this.db.transaction(async (tx) => {
      const now = Date.now();
      if (now - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = now;
        await tx.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', [new Date(now).toISOString()]);
      }
      const pending = { ...rec, state: 'pending', statusCode: null, responseBody: null, orderId: null } as const;
      const taken = await tx.run(RESERVE_SQL, [
        ...IDEMPOTENCY_KEYS.values({ ...pending, createdAt, expiresAt }),
        staleBefore,
      ]);
      if (taken === 1) return { reserved: true as const };
      const row = await tx.get(`SELECT ${COLUMNS} FROM idempotency_keys WHERE key = ?`, [rec.key]);
      if (!row) throw new Error(`idempotency key ${rec.key} was neither reserved nor found`);
      return { reserved: false as const, existing: toRecord(row) };
    }, 'relaxed');
  }

  async complete(key: string, reservedAt: string, response: StoredResponse): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run(COMPLETE, [response.statusCode, response.body, null, key, new Date(reservedAt).toISOString()]),
    );
  }

  async release(key: string, reservedAt: string): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run(`DELETE FROM idempotency_keys WHERE key = ? AND created_at = ? AND state = 'pending'`, [
        key,
        new Date(reservedAt).toISOString(),
      ]),
    );
  }
}
