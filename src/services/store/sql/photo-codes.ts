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
  type SubscribeOutcome,
  PhotoCodeSubscription as SubscriptionSchema,
} from '../ports/photo-codes.js';
import type { Db, Row } from './db.js';
import { SqlMailOutbox } from './mail-outbox.js';

const SUB_COLUMNS =
  'id, code, channel, endpoint, p256dh, auth, email, notified_count, notified_at, created_at, confirmed_at';

/** Timestamps as toISOString() writes them, whichever engine read them. */
const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

const toCode = (r: Row): PhotoCodeRecord =>
  PhotoCodeRecord.parse({ code: r.code, issuedVia: r.issued_via, createdAt: r.created_at });

function toSubscription(r: Row): PhotoCodeSubscription {
  const base = {
    id: r.id,
    code: r.code,
    notifiedCount: Number(r.notified_count),
    notifiedAt: iso(r.notified_at),
    createdAt: iso(r.created_at),
    confirmed: r.confirmed_at !== null && r.confirmed_at !== undefined,
  };
  return SubscriptionSchema.parse(
    r.channel === 'push'
      ? { ...base, channel: 'push', endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth }
      : { ...base, channel: 'email', email: r.email },
  );
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
        const n = await tx.run(
          'INSERT INTO photo_codes (code, issued_via, created_at) VALUES (?, ?, ?) ON CONFLICT (code) DO NOTHING',
          [c.code, c.issuedVia, new Date(c.createdAt).toISOString()],
        );
        if (n === 1) issued.push(c.code);
      }
      return issued;
    });
  }

  async isIssued(code: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS one FROM photo_codes WHERE code = ?', [code])) !== undefined;
  }

  async get(code: string): Promise<PhotoCodeRecord | null> {
    const row = await this.db.get('SELECT code, issued_via, created_at FROM photo_codes WHERE code = ?', [code]);
    return row ? toCode(row) : null;
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
    const email = sub.channel === 'email' ? sub.email.trim() : null;
    // A push subscription comes from the device itself; an email address waits for its owner.
    const confirmedAt = push ? now : null;
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
      const inserted = await tx.run(
        `INSERT INTO photo_code_subscriptions
           (id, code, target, channel, endpoint, p256dh, auth, email, notified_count, notified_at, created_at,
            confirmed_at, confirm_token)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?) ON CONFLICT (code, target) DO NOTHING`,
        [
          newId(),
          sub.code,
          target,
          sub.channel,
          push?.endpoint ?? null,
          push?.p256dh ?? null,
          push?.auth ?? null,
          email,
          sub.notifiedCount,
          now,
          confirmedAt,
          tokenHash,
        ],
      );
      if (inserted === 0 && push) {
        // Subscribed before: the browser may have new keys for the same endpoint.
        await tx.run('UPDATE photo_code_subscriptions SET p256dh = ?, auth = ? WHERE code = ? AND target = ?', [
          push.p256dh,
          push.auth,
          sub.code,
          target,
        ]);
      }
      const row = await tx.get(`SELECT ${SUB_COLUMNS} FROM photo_code_subscriptions WHERE code = ? AND target = ?`, [
        sub.code,
        target,
      ]);
      if (!row) throw new Error(`photo code subscription ${sub.code} not found after its insert`);
      const subscription = toSubscription(row);
      const mail = inserted === 1 ? opts.mail?.(subscription) : undefined;
      if (mail) await SqlMailOutbox.insert(tx, SqlMailOutbox.build([mail], at));
      return { outcome: inserted === 1 ? ('created' as const) : ('existing' as const), subscription };
    });
  }

  async subscriptions(code: string): Promise<PhotoCodeSubscription[]> {
    const rows = await this.db.all(
      `SELECT ${SUB_COLUMNS} FROM photo_code_subscriptions WHERE code = ? ORDER BY created_at, id`,
      [code],
    );
    return rows.map(toSubscription);
  }

  async byConfirmToken(tokenHash: string): Promise<PhotoCodeSubscription | null> {
    const row = await this.db.get(`SELECT ${SUB_COLUMNS} FROM photo_code_subscriptions WHERE confirm_token = ?`, [
      tokenHash,
    ]);
    return row ? toSubscription(row) : null;
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
      const row = await tx.get(`SELECT ${SUB_COLUMNS} FROM photo_code_subscriptions WHERE confirm_token = ?`, [
        tokenHash,
      ]);
      if (!row) return null;
      return {
        outcome: moved === 1 ? ('confirmed' as const) : ('already' as const),
        subscription: toSubscription(row),
      };
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
