/**
 * Coupons on either engine (ports/coupons.ts): table `coupons`.
 *
 * A use is taken and given back by the order's own transaction (sql/orders.ts calls the
 * static `claim` and `giveBack` with its `tx`): one conditional UPDATE whose changed-row
 * count says whether a use was left, so `maxUses` holds under any concurrency, in any number
 * of processes (PostgreSQL re-checks the condition on the row it waited for).
 */
import { type CouponRecord, CouponRecord as CouponSchema, normalizeCouponCode } from '../../../domain/coupons.js';
import { appError } from '../../../errors/catalogue.js';
import type { CouponsPort } from '../ports/coupons.js';
import type { Db, Queryable, Tx } from './db.js';
import { recordTable } from './record-table.js';

export const COUPONS = recordTable('coupons', CouponSchema);
const COLUMNS = COUPONS.select;
const toCoupon = COUPONS.toRecord;
const INSERT_SQL = COUPONS.insertSql([], 'ON CONFLICT (code) DO NOTHING');

export type ClaimOutcome = { ok: true } | { ok: false; reason: 'unknown' | 'exhausted' };

export class SqlCoupons implements CouponsPort {
  constructor(private readonly db: Db) {}

  /** Takes one use of `code` in the caller's transaction, if one is left. */
  static async claim(tx: Tx, code: string): Promise<ClaimOutcome> {
    const taken = await tx.run(
      'UPDATE coupons SET uses = uses + 1 WHERE code = ? AND (max_uses IS NULL OR uses < max_uses)',
      [code],
    );
    if (taken === 1) return { ok: true };
    const exists = await tx.get('SELECT code FROM coupons WHERE code = ?', [code]);
    return { ok: false, reason: exists ? 'exhausted' : 'unknown' };
  }

  /** Gives one use of `code` back in the caller's transaction (a coupon deleted meanwhile: nothing to do). */
  static async giveBack(tx: Queryable, code: string): Promise<void> {
    await tx.run('UPDATE coupons SET uses = uses - 1 WHERE code = ? AND uses > 0', [code]);
  }

  async create(input: Omit<CouponRecord, 'uses'>): Promise<CouponRecord> {
    // Timestamps as toISOString() writes them, so both engines give back the same text.
    const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
    const coupon = CouponSchema.parse({
      ...input,
      expiresAt: iso(input.expiresAt),
      createdAt: iso(input.createdAt),
      uses: 0,
    });
    const inserted = await this.db.transaction((tx) => tx.run(INSERT_SQL, COUPONS.values(coupon)));
    if (inserted !== 1) {
      throw appError('COUPON_EXISTS', {
        message: `A coupon ${coupon.code} exists already`,
        details: { code: coupon.code },
      });
    }
    return coupon;
  }

  async get(code: string): Promise<CouponRecord | null> {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM coupons WHERE code = ?`, [normalizeCouponCode(code)]);
    return row ? toCoupon(row) : null;
  }

  async list(): Promise<CouponRecord[]> {
    const rows = await this.db.all(`SELECT ${COLUMNS} FROM coupons ORDER BY created_at DESC, code`);
    return rows.map(toCoupon);
  }

  async delete(code: string): Promise<boolean> {
    const n = await this.db.transaction((tx) =>
      tx.run('DELETE FROM coupons WHERE code = ?', [normalizeCouponCode(code)]),
    );
    return n === 1;
  }
}
