/**
 * What the Sheets adapter keeps beside the spreadsheet, in a small SQLite file
 * (`DATA_DIR/sheets-local.db`, WAL + synchronous=FULL): event settings, push subscriptions,
 * idempotency records and the mail outbox. These change often (every mail claim is a
 * write) and are not the operators' business; in the sheet they would spend the write
 * quota (300/min) and be exposed to hand edits. Orders alone live in the spreadsheet.
 *
 * Mail given with an order write must not be sent unless that write landed, and must not
 * be lost if it did. So jobs are stored first as *awaiting* their order (not claimable),
 * then released once the sheet confirms the write. A crash or an uncertain failure in
 * between leaves them awaiting; `awaiting()` lists them so the adapter can check the sheet
 * (the order is there with at least the expected `updatedAt`: release; else drop).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../../config/env.js';
import { appError } from '../../../errors/catalogue.js';
import { EventSettings, type EventSettingsPatch, IdempotencyRecord, MailJob, PushSubscriptionRecord } from '../port.js';
import { isoTime } from '../rules.js';

export const SIDE_STORE_FILE = 'sheets-local.db';

const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE event_settings (event_slug TEXT PRIMARY KEY, settings TEXT NOT NULL);
      CREATE TABLE push_subscriptions (
        endpoint TEXT NOT NULL, order_key TEXT NOT NULL, record TEXT NOT NULL, scope TEXT NOT NULL,
        order_id TEXT, created_at TEXT NOT NULL, PRIMARY KEY (endpoint, order_key)
      );
      CREATE INDEX push_by_order ON push_subscriptions (order_id);
      CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at TEXT NOT NULL);
      CREATE TABLE mail_jobs (
        id TEXT PRIMARY KEY, job TEXT NOT NULL, next_attempt_at TEXT NOT NULL, created_at TEXT NOT NULL,
        sent_at TEXT, awaiting_order_id TEXT, awaiting_updated_at TEXT
      );
      CREATE INDEX mail_due ON mail_jobs (next_attempt_at, created_at) WHERE sent_at IS NULL AND awaiting_updated_at IS NULL;
      CREATE INDEX mail_awaiting ON mail_jobs (awaiting_order_id) WHERE awaiting_updated_at IS NOT NULL;
    `,
  },
];

export type AwaitingJobs = { orderId: string; updatedAt: string; jobIds: string[]; createdAt: string };

export class SideStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private lastPurge = 0;

  private constructor(db: Database.Database) {
    this.db = db;
  }

  static open(dataDir: string): SideStore {
    const file = path.join(dataDir, SIDE_STORE_FILE);
    let db: Database.Database | undefined;
    try {
      mkdirSync(dataDir, { recursive: true });
      db = new Database(file, { timeout: 5000 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      const opened = db;
      opened
        .transaction(() => {
          const current = opened.pragma('user_version', { simple: true }) as number;
          for (const m of MIGRATIONS.filter((x) => x.version > current)) {
            opened.exec(m.sql);
            opened.pragma(`user_version = ${m.version}`);
          }
        })
        .immediate();
      return new SideStore(opened);
    } catch (err) {
      db?.close();
      throw new ConfigError(
        `DATA_DIR: cannot open ${file} (the Sheets store's local data): ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }

  /** Prepared once, reused. */
  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st as unknown as Database.Statement<P, R>;
  }

  private tx<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (err) {
      if ((err as { name?: string }).name === 'AppError' || (err as { name?: string }).name === 'ZodError') throw err;
      throw appError('STORE_UNAVAILABLE', { message: 'The local store of the Sheets adapter failed', cause: err });
    }
  }

  // ------------------------------------------------------------ event settings

  getEventSettings(eventSlug: string): EventSettings | null {
    const row = this.stmt<[string], { settings: string }>(
      'SELECT settings FROM event_settings WHERE event_slug = ?',
    ).get(eventSlug);
    return row ? EventSettings.parse(JSON.parse(row.settings)) : null;
  }

  listEventSettings(): EventSettings[] {
    return this.db
      .prepare<[], { settings: string }>('SELECT settings FROM event_settings ORDER BY event_slug')
      .all()
      .map((r) => EventSettings.parse(JSON.parse(r.settings)));
  }

  putEventSettings(eventSlug: string, patch: EventSettingsPatch, now: Date): EventSettings {
    return this.tx(() => {
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const next = EventSettings.parse({
        ...(this.getEventSettings(eventSlug) ?? {}),
        ...defined,
        eventSlug,
        updatedAt: now.toISOString(),
      });
      this.stmt('INSERT OR REPLACE INTO event_settings (event_slug, settings) VALUES (?, ?)').run(
        eventSlug,
        JSON.stringify(next),
      );
      return next;
    });
  }

  // ------------------------------------------------------------ push subscriptions

  savePushSubscription(sub: PushSubscriptionRecord): { created: boolean } {
    const orderKey = sub.orderId ?? '';
    return this.tx(() => {
      const existing = this.stmt<[string, string], { record: string }>(
        'SELECT record FROM push_subscriptions WHERE endpoint = ? AND order_key = ?',
      ).get(sub.endpoint, orderKey);
      const kept = existing ? PushSubscriptionRecord.parse(JSON.parse(existing.record)) : undefined;
      const record = PushSubscriptionRecord.parse({
        ...sub,
        createdAt: kept?.createdAt ?? isoTime(sub.createdAt),
      });
      this.stmt(
        `INSERT OR REPLACE INTO push_subscriptions (endpoint, order_key, record, scope, order_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(sub.endpoint, orderKey, JSON.stringify(record), record.scope, record.orderId, record.createdAt);
      return { created: !existing };
    });
  }

  listPushSubscriptions(query: { scope: 'admin' } | { orderId: string }): PushSubscriptionRecord[] {
    const rows =
      'scope' in query
        ? this.stmt<[string], { record: string }>(
            'SELECT record FROM push_subscriptions WHERE scope = ? ORDER BY created_at',
          ).all(query.scope)
        : this.stmt<[string], { record: string }>(
            'SELECT record FROM push_subscriptions WHERE order_id = ? ORDER BY created_at',
          ).all(query.orderId);
    return rows.map((r) => PushSubscriptionRecord.parse(JSON.parse(r.record)));
  }

  deletePushSubscription(endpoint: string): void {
    this.tx(() => this.stmt('DELETE FROM push_subscriptions WHERE endpoint = ?').run(endpoint));
  }

  // ------------------------------------------------------------ idempotency

  reserveIdempotencyKey(
    rec: Pick<IdempotencyRecord, 'key' | 'fingerprint' | 'createdAt' | 'expiresAt'>,
  ): { reserved: true } | { reserved: false; existing: IdempotencyRecord } {
    const createdAt = isoTime(rec.createdAt);
    const expiresAt = isoTime(rec.expiresAt);
    return this.tx(() => {
      if (Date.now() - this.lastPurge > 60_000) {
        this.lastPurge = Date.now();
        this.stmt('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(new Date().toISOString());
      }
      const row = this.stmt<[string], { record: string; expires_at: string }>(
        'SELECT record, expires_at FROM idempotency_keys WHERE key = ?',
      ).get(rec.key);
      if (row && row.expires_at > createdAt) {
        return { reserved: false as const, existing: IdempotencyRecord.parse(JSON.parse(row.record)) };
      }
      const record = IdempotencyRecord.parse({
        key: rec.key,
        fingerprint: rec.fingerprint,
        state: 'pending',
        statusCode: null,
        responseBody: null,
        createdAt,
        expiresAt,
      });
      this.stmt('INSERT OR REPLACE INTO idempotency_keys (key, record, expires_at) VALUES (?, ?, ?)').run(
        rec.key,
        JSON.stringify(record),
        expiresAt,
      );
      return { reserved: true as const };
    });
  }

  completeIdempotencyKey(key: string, statusCode: number, responseBody: string): void {
    this.tx(() => {
      const row = this.stmt<[string], { record: string }>('SELECT record FROM idempotency_keys WHERE key = ?').get(key);
      if (!row) return;
      const record = IdempotencyRecord.parse({ ...JSON.parse(row.record), state: 'done', statusCode, responseBody });
      this.stmt('UPDATE idempotency_keys SET record = ? WHERE key = ?').run(JSON.stringify(record), key);
    });
  }

  releaseIdempotencyKey(key: string): void {
    this.tx(() => {
      const row = this.stmt<[string], { record: string }>('SELECT record FROM idempotency_keys WHERE key = ?').get(key);
      if (row && IdempotencyRecord.parse(JSON.parse(row.record)).state === 'pending') {
        this.stmt('DELETE FROM idempotency_keys WHERE key = ?').run(key);
      }
    });
  }

  // ------------------------------------------------------------ mail outbox

  /**
   * Stores jobs in one transaction. Jobs with `awaiting` are not claimable until
   * `confirmMail`: they wait for that order's write (its row with at least that updatedAt).
   */
  insertMail(groups: readonly { jobs: readonly MailJob[]; awaiting?: { orderId: string; updatedAt: string } }[]): void {
    if (groups.every((g) => g.jobs.length === 0)) return;
    this.tx(() => {
      const insert = this.stmt(
        `INSERT INTO mail_jobs (id, job, next_attempt_at, created_at, sent_at, awaiting_order_id, awaiting_updated_at)
         VALUES (?, ?, ?, ?, NULL, ?, ?)`,
      );
      for (const g of groups) {
        for (const job of g.jobs) {
          insert.run(
            job.id,
            JSON.stringify(job),
            job.nextAttemptAt,
            job.createdAt,
            g.awaiting?.orderId ?? null,
            g.awaiting?.updatedAt ?? null,
          );
        }
      }
    });
  }

  /** The order write landed: the jobs become claimable. */
  confirmMail(jobIds: readonly string[]): void {
    if (jobIds.length === 0) return;
    this.tx(() => {
      const stmt = this.stmt('UPDATE mail_jobs SET awaiting_updated_at = NULL WHERE id = ?');
      for (const id of jobIds) stmt.run(id);
    });
  }

  /** The order write did not land: its jobs go. */
  dropMail(jobIds: readonly string[]): void {
    if (jobIds.length === 0) return;
    this.tx(() => {
      const stmt = this.stmt('DELETE FROM mail_jobs WHERE id = ? AND awaiting_updated_at IS NOT NULL');
      for (const id of jobIds) stmt.run(id);
    });
  }

  /** Jobs still waiting for their order write, grouped by order and expected updatedAt. */
  awaiting(): AwaitingJobs[] {
    const rows = this.stmt(
      `SELECT id, awaiting_order_id, awaiting_updated_at, created_at FROM mail_jobs
       WHERE awaiting_updated_at IS NOT NULL ORDER BY created_at`,
    ).all() as { id: string; awaiting_order_id: string; awaiting_updated_at: string; created_at: string }[];
    const groups = new Map<string, AwaitingJobs>();
    for (const r of rows) {
      const key = `${r.awaiting_order_id}\u0000${r.awaiting_updated_at}`;
      const g = groups.get(key) ?? {
        orderId: r.awaiting_order_id,
        updatedAt: r.awaiting_updated_at,
        jobIds: [],
        createdAt: r.created_at,
      };
      g.jobIds.push(r.id);
      groups.set(key, g);
    }
    return [...groups.values()];
  }

  claimDueMail(now: Date, limit: number, leaseMs: number): MailJob[] {
    const leaseEnd = new Date(now.getTime() + leaseMs).toISOString();
    return this.tx(() => {
      const rows = this.stmt<[string, number], { id: string; job: string }>(
        `SELECT id, job FROM mail_jobs WHERE sent_at IS NULL AND awaiting_updated_at IS NULL AND next_attempt_at <= ?
           ORDER BY next_attempt_at, created_at LIMIT ?`,
      ).all(now.toISOString(), limit);
      const update = this.stmt('UPDATE mail_jobs SET job = ?, next_attempt_at = ? WHERE id = ?');
      return rows.map((r) => {
        const job = MailJob.parse({ ...JSON.parse(r.job), nextAttemptAt: leaseEnd });
        update.run(JSON.stringify(job), leaseEnd, r.id);
        return job;
      });
    });
  }

  private updateJob(id: string, change: (job: MailJob) => MailJob): void {
    this.tx(() => {
      const row = this.stmt<[string], { job: string }>(
        'SELECT job FROM mail_jobs WHERE id = ? AND sent_at IS NULL',
      ).get(id);
      if (!row) return;
      const job = MailJob.parse(change(MailJob.parse(JSON.parse(row.job))));
      this.stmt('UPDATE mail_jobs SET job = ?, next_attempt_at = ?, sent_at = ? WHERE id = ?').run(
        JSON.stringify(job),
        job.nextAttemptAt,
        job.sentAt,
        id,
      );
    });
  }

  markMailSent(id: string, via: string, at: Date): void {
    this.updateJob(id, (job) => ({ ...job, sentAt: at.toISOString(), sentVia: via }));
  }

  markMailFailed(id: string, error: string, nextAttemptAt: Date): void {
    this.updateJob(id, (job) => ({
      ...job,
      attempts: job.attempts + 1,
      lastError: error,
      nextAttemptAt: nextAttemptAt.toISOString(),
    }));
  }

  pendingMailCount(): number {
    return (
      this.stmt<[], { n: number }>(
        'SELECT count(*) AS n FROM mail_jobs WHERE sent_at IS NULL AND awaiting_updated_at IS NULL',
      ).get()?.n ?? 0
    );
  }
}
