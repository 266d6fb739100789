/**
 * Photo codes and their subscriptions on either engine (ports/photo-codes.ts): tables
 * `photo_codes` and `photo_code_subscriptions`, the latter keyed by (code, target), target
 * being the push endpoint or the lower-cased email address.
 */
import { newId } from '../../../lib/ids.js';
import type { MailJobInput } from '../ports/mail-outbox.js';
import {
  type NewPhotoCodeSubscription,
  PhotoCodeRecord,
  type PhotoCodeSubscription,
  type PhotoCodesPort,
  StoredSubscription,
  type SubscribeOutcome,
  PhotoCodeSubscription as SubscriptionSchema,
} from '../ports/photo-codes.js';
import type { Db, Queryable } from './db.js';
import { SqlMailOutbox } from './mail-outbox.js';
import { recordTable } from './record-table.js';

export const PHOTO_CODES = recordTable('photo_codes', PhotoCodeRecord);
const ISSUE_SQL = PHOTO_CODES.insertSql([], 'ON CONFLICT (code) DO NOTHING');

/** `confirmed` is no column: a subscription is confirmed once it has a `confirmed_at`. */
export const SUBSCRIPTIONS = recordTable('photo_code_subscriptions', StoredSubscription, {
  derived: { confirmed: (o) => o.confirmedAt !== null },
});
/** Written with its target (what makes it one per code) and its confirmation token's hash. */
const SUBSCRIBE_SQL = SUBSCRIPTIONS.insertSql(['target', 'confirm_token'], 'ON CONFLICT (code, target) DO NOTHING');

async function subscriptionsWhere(q: Queryable, where: string, params: string[]): Promise<PhotoCodeSubscription[]> {
  const rows = await q.all(`SELECT ${SUBSCRIPTIONS.select} FROM photo_code_subscriptions WHERE ${where}`, params);
  return rows.map((r) => SubscriptionSchema.parse(SUBSCRIPTIONS.toRecord(r)));
}

const targetOf = (sub: NewPhotoCodeSubscription): string =>
  sub.channel === 'push' ? sub.endpoint : sub.email.trim().toLowerCase();

export class SqlPhotoCodes implements PhotoCodesPort {
  constructor(private readonly db: Db) {}

  async issue(codes: readonly PhotoCodeRecord[]): Promise<string[]> {
    const records = codes.map((c) => PhotoCodeRecord.parse(c));
    return this.db.transaction(async (tx) => {
      const issued: string[] = [];
      for (const c of records) {
        const n = await tx.run(ISSUE_SQL, PHOTO_CODES.values({ ...c, createdAt: new Date(c.createdAt).toISOString() }));
        if (n === 1) issued.push(c.code);
      }
      return issued;
    });
  }

  async isIssued(code: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS one FROM photo_codes WHERE code = ?', [code])) !== undefined;
  }

  async get(code: string): Promise<PhotoCodeRecord | null> {
    const row = await this.db.get(`SELECT ${PHOTO_CODES.select} FROM photo_codes WHERE code = ?`, [code]);
    return row ? PHOTO_CODES.toRecord(row) : null;
  }

  subscribe(
    sub: NewPhotoCodeSubscription,
    maxPerCode: number,
    opts: { mail?: (sub: PhotoCodeSubscription) => MailJobInput | undefined } = {},
  ): Promise<SubscribeOutcome> {
    const target = targetOf(sub);
    const at = new Date();
    const now = at.toISOString();
    const push = sub.channel === 'push' ? sub : undefined;
    const stored: StoredSubscription = {
      id: newId(),
      code: sub.code,
      channel: sub.channel,
      endpoint: push?.endpoint ?? null,
      p256dh: push?.p256dh ?? null,
      auth: push?.auth ?? null,
      email: sub.channel === 'email' ? sub.email.trim() : null,
      notifiedCount: sub.notifiedCount,
      notifiedAt: null,
      createdAt: now,
      // A push subscription comes from the device itself; an email address waits for its owner.
      confirmedAt: push ? now : null,
      confirmed: push !== undefined,
    };
    const tokenHash = sub.channel === 'email' ? sub.confirmTokenHash : null;
    return this.db.transaction(async (tx) => {
      await tx.lock(`photo-code:${sub.code}`);
      const before = await tx.get(`SELECT id FROM photo_code_subscriptions WHERE code = ? AND target = ?`, [
        sub.code,
        target,
      ]);
      if (!before) {
        const n = await tx.get<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM photo_code_subscriptions WHERE code = ?',
          [sub.code],
        );
        if (Number(n?.n ?? 0) >= maxPerCode) return { outcome: 'full' as const };
      }
      const inserted = await tx.run(SUBSCRIBE_SQL, SUBSCRIPTIONS.values(stored, target, tokenHash));
      if (inserted === 0 && push) {
        // Subscribed before: the browser may have new keys for the same endpoint.
        await tx.run('UPDATE photo_code_subscriptions SET p256dh = ?, auth = ? WHERE code = ? AND target = ?', [
          push.p256dh,
          push.auth,
          sub.code,
          target,
        ]);
      }
      const [subscription] = await subscriptionsWhere(tx, 'code = ? AND target = ?', [sub.code, target]);
      if (!subscription) throw new Error(`photo code subscription ${sub.code} not found after its insert`);
      const mail = inserted === 1 ? opts.mail?.(subscription) : undefined;
      if (mail) await SqlMailOutbox.insert(tx, SqlMailOutbox.build([mail], at));
      return { outcome: inserted === 1 ? ('created' as const) : ('existing' as const), subscription };
    });
  }

  async subscriptions(code: string): Promise<PhotoCodeSubscription[]> {
    return subscriptionsWhere(this.db, 'code = ? ORDER BY created_at, id', [code]);
  }

  async byConfirmToken(tokenHash: string): Promise<PhotoCodeSubscription | null> {
    return (await subscriptionsWhere(this.db, 'confirm_token = ?', [tokenHash]))[0] ?? null;
  }

  confirm(
    tokenHash: string,
    at: Date,
  ): Promise<{ outcome: 'confirmed' | 'already'; subscription: PhotoCodeSubscription } | null> {
    return this.db.transaction(async (tx) => {
      // One conditional statement decides who confirmed it (docs/store.md, "Adding a record").
      const moved = await tx.run(
        'UPDATE photo_code_subscriptions SET confirmed_at = ? WHERE confirm_token = ? AND confirmed_at IS NULL',
        [at.toISOString(), tokenHash],
      );
      const [subscription] = await subscriptionsWhere(tx, 'confirm_token = ?', [tokenHash]);
      return subscription
        ? { outcome: moved === 1 ? ('confirmed' as const) : ('already' as const), subscription }
        : null;
    });
  }

  async watchedCodes(): Promise<{ code: string; leastNotified: number }[]> {
    const rows = await this.db.all<{ code: string; least: number | string }>(
      `SELECT code, MIN(notified_count) AS least FROM photo_code_subscriptions
       WHERE confirmed_at IS NOT NULL GROUP BY code ORDER BY code`,
    );
    return rows.map((r) => ({ code: r.code, leastNotified: Number(r.least) }));
  }

  markNotified(id: string, count: number, at: Date, mail?: MailJobInput): Promise<boolean> {
    // One conditional statement decides who tells the subscriber (docs/store.md, "Adding a record").
    return this.db.transaction(async (tx) => {
      const moved = await tx.run(
        'UPDATE photo_code_subscriptions SET notified_count = ?, notified_at = ? WHERE id = ? AND notified_count < ?',
        [count, at.toISOString(), id, count],
      );
      if (moved === 1 && mail) await SqlMailOutbox.insert(tx, SqlMailOutbox.build([mail], at));
      return moved === 1;
    });
  }

  async removeEndpoint(endpoint: string): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run("DELETE FROM photo_code_subscriptions WHERE channel = 'push' AND target = ?", [endpoint]),
    );
  }
}
