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
import { EVENT_SETTINGS } from '../../sql/event-settings.js';
import { IDEMPOTENCY_KEYS } from '../../sql/idempotency-keys.js';
import { MAIL_JOBS } from '../../sql/mail-outbox.js';
import { SUBSCRIPTIONS } from '../../sql/push-subscriptions.js';
import type { RecordTable } from '../../sql/record-table.js';

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
    // Into the record's tables as they are declared (sql/record-table.ts); a row there already is kept.
    const keep = <T>(table: RecordTable<T>, conflict: string, extra: string[] = []) =>
      table.insertSql(extra, `ON CONFLICT (${conflict}) DO NOTHING`);
    await db.transaction(async (tx) => {
      for (const s of settings) {
        const row = { eventSlug: s.eventSlug, settings: s, updatedAt: s.updatedAt };
        await tx.run(keep(EVENT_SETTINGS, 'event_slug'), EVENT_SETTINGS.values(row));
      }
      for (const p of pushes) {
        await tx.run(
          keep(SUBSCRIPTIONS, 'endpoint, order_key', ['order_key']),
          SUBSCRIPTIONS.values(p, p.orderId ?? ''),
        );
      }
      for (const k of keys)
        await tx.run(keep(IDEMPOTENCY_KEYS, 'key'), IDEMPOTENCY_KEYS.values({ ...k, orderId: null }));
      for (const j of jobs) {
        await tx.run(keep(MAIL_JOBS, 'id'), MAIL_JOBS.values({ ...j, sentAt: null, sentVia: null }));
      }
    });
  } finally {
    old.close();
  }
  renameSync(file, `${file}.imported`);
  log.info({ file, ...counts }, 'order store: imported the Google Sheets store’s local data into the record');
}
