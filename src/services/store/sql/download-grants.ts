/**
 * Download counts on either engine (ports/download-grants.ts): table `download_grants`, one
 * row per digital order line once it was first downloaded. A download is one conditional
 * upsert whose changed-row count says whether it was allowed: atomic in both engines.
 */
import { DownloadGrant, type DownloadGrantsPort, type TakeResult } from '../ports/download-grants.js';
import type { Db, Queryable } from './db.js';
import { recordTable } from './record-table.js';

export const DOWNLOAD_GRANTS = recordTable('download_grants', DownloadGrant);
/** A first download inserts the line's row; a later one counts, if one is left and it has not expired. */
const TAKE_SQL = DOWNLOAD_GRANTS.insertSql(
  [],
  `ON CONFLICT (order_id, line) DO UPDATE SET used = download_grants.used + 1, last_at = excluded.last_at
   WHERE download_grants.used < ? AND download_grants.expires_at > ?`,
);

async function grantOf(q: Queryable, orderId: string, line: number): Promise<DownloadGrant | null> {
  const row = await q.get(`SELECT ${DOWNLOAD_GRANTS.select} FROM download_grants WHERE order_id = ? AND line = ?`, [
    orderId,
    line,
  ]);
  return row ? DOWNLOAD_GRANTS.toRecord(row) : null;
}

export class SqlDownloadGrants implements DownloadGrantsPort {
  constructor(private readonly db: Db) {}

  take(orderId: string, line: number, opts: { max: number; expiresAt: Date; now: Date }): Promise<TakeResult> {
    const now = opts.now.toISOString();
    const first = { orderId, line, used: 1, expiresAt: opts.expiresAt.toISOString(), lastAt: now };
    return this.db.transaction(async (tx) => {
      if (opts.max < 1 || opts.expiresAt <= opts.now) {
        return { ok: false, reason: opts.max < 1 ? 'usedUp' : 'expired', used: 0 } as const;
      }
      const taken = await tx.run(TAKE_SQL, [...DOWNLOAD_GRANTS.values(first), opts.max, now]);
      const used = (await grantOf(tx, orderId, line))?.used ?? 0;
      if (taken === 1) return { ok: true, used } as const;
      return { ok: false, reason: used >= opts.max ? 'usedUp' : 'expired', used } as const;
    });
  }

  async used(orderId: string, line: number): Promise<number> {
    return (await grantOf(this.db, orderId, line))?.used ?? 0;
  }
}
