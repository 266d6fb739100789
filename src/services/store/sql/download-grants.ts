/**
 * Download counts on either engine (ports/download-grants.ts): table `download_grants`, one
 * row per digital order line once it was first downloaded. A download is one conditional
 * upsert whose changed-row count says whether it was allowed: atomic in both engines.
 */
import type { DownloadGrantsPort, TakeResult } from '../ports/download-grants.js';
import type { Db } from './db.js';

export class SqlDownloadGrants implements DownloadGrantsPort {
  constructor(private readonly db: Db) {}

  take(orderId: string, line: number, opts: { max: number; expiresAt: Date; now: Date }): Promise<TakeResult> {
    const now = opts.now.toISOString();
    return this.db.transaction(async (tx) => {
      if (opts.max < 1 || opts.expiresAt <= opts.now) {
        return { ok: false, reason: opts.max < 1 ? 'usedUp' : 'expired', used: 0 } as const;
      }
      const taken = await tx.run(
        `INSERT INTO download_grants (order_id, line, used, expires_at, last_at) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (order_id, line) DO UPDATE SET used = download_grants.used + 1, last_at = excluded.last_at
         WHERE download_grants.used < ? AND download_grants.expires_at > ?`,
        [orderId, line, opts.expiresAt.toISOString(), now, opts.max, now],
      );
      const row = await tx.get<{ used: number; expires_at: string }>(
        'SELECT used, expires_at FROM download_grants WHERE order_id = ? AND line = ?',
        [orderId, line],
      );
      const used = Number(row?.used ?? 0);
      if (taken === 1) return { ok: true, used } as const;
      return { ok: false, reason: used >= opts.max ? 'usedUp' : 'expired', used } as const;
    });
  }

  async used(orderId: string, line: number): Promise<number> {
    const row = await this.db.get<{ used: number }>(
      'SELECT used FROM download_grants WHERE order_id = ? AND line = ?',
      [orderId, line],
    );
    return Number(row?.used ?? 0);
  }
}
