/**
 * Takes a Google Sheets deployment's `DATA_DIR/sheets-local.db` into the record once, then
 * renames it `sheets-local.db.imported` (docs/store.md, "Upgrading"). Rows already in the
 * record are kept, so an import cut short by a crash is simply done again. Pending
 * idempotency keys are dropped: their request died with an outcome the old store never knew.
 */
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import { ConfigError } from '../../../../config/env.js';
import type { Logger } from '../../../../lib/logger.js';
import { EventSettings } from '../../ports/event-settings.js';
import { IdempotencyRecord } from '../../ports/idempotency-keys.js';
import { MailJob } from '../../ports/mail-outbox.js';
import { PushSubscriptionRecord } from '../../ports/push-subscriptions.js';
import type { Db } from '../../sql/db.js';

export async function importSheetsSideStore(db: Db, file: string, log: Logger): Promise<void> {
  if (!existsSync(file)) return;
  let old: Database.Database;
  try {
    old = new Database(file, { fileMustExist: true });
  } catch (err) {
    throw new ConfigError(`DATA_DIR: cannot read ${file} to import it: ${(err as Error).message}`, { cause: err });
  }
  const now = new Date().toISOString();
  let counts: Record<string, number>;
  try {
    /** The JSON documents of one column. */
    const docs = (sql: string) => (old.prepare(sql).pluck().all() as string[]).map((text) => JSON.parse(text));
    const settings = docs('SELECT settings FROM event_settings').map((d) => EventSettings.parse(d));
    const pushes = docs('SELECT record FROM push_subscriptions').map((d) => PushSubscriptionRecord.parse(d));
    const keys = docs('SELECT record FROM idempotency_keys')
      .map((d) => IdempotencyRecord.parse({ orderId: null, ...d }))
      .filter((k) => k.state === 'done' && k.expiresAt > now);
    const jobs = docs('SELECT job FROM mail_jobs WHERE sent_at IS NULL').map((d) => MailJob.parse(d));
    counts = {
      settings: settings.length,
      pushSubscriptions: pushes.length,
      idempotencyKeys: keys.length,
      mail: jobs.length,
    };
    await db.transaction(async (tx) => {
      for (const s of settings) {
        await tx.run(
          'INSERT INTO event_settings (event_slug, settings, updated_at) VALUES (?, ?, ?) ON CONFLICT (event_slug) DO NOTHING',
          [s.eventSlug, JSON.stringify(s), s.updatedAt],
        );
      }
      for (const p of pushes) {
        await tx.run(
          `INSERT INTO push_subscriptions (endpoint, order_key, p256dh, auth, scope, order_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (endpoint, order_key) DO NOTHING`,
          [p.endpoint, p.orderId ?? '', p.p256dh, p.auth, p.scope, p.orderId, p.createdAt],
        );
      }
      for (const k of keys) {
        await tx.run(
          `INSERT INTO idempotency_keys (key, fingerprint, state, status_code, response_body, order_id, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT (key) DO NOTHING`,
          [k.key, k.fingerprint, k.state, k.statusCode, k.responseBody, k.createdAt, k.expiresAt],
        );
      }
      for (const j of jobs) {
        await tx.run(
          `INSERT INTO mail_jobs (id, kind, order_id, payload, attempts, next_attempt_at, last_error, created_at, sent_at, sent_via)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT (id) DO NOTHING`,
          [j.id, j.kind, j.orderId, JSON.stringify(j.payload), j.attempts, j.nextAttemptAt, j.lastError, j.createdAt],
        );
      }
    });
  } finally {
    old.close();
  }
  renameSync(file, `${file}.imported`);
  log.info({ file, ...counts }, 'order store: imported the Google Sheets store’s local data into the record');
}
