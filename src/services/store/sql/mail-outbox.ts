/** The mail outbox on either engine (ports/mail-outbox.ts): table `mail_jobs`. */
import { newId } from '../../../lib/ids.js';
import { MailJob, type MailJobInput, type MailOutboxPort } from '../ports/mail-outbox.js';
import type { Db, Tx } from './db.js';
import { recordTable } from './record-table.js';
import { placeholders } from './values.js';

export const MAIL_JOBS = recordTable('mail_jobs', MailJob);
const COLUMNS = MAIL_JOBS.select;
const toJob = MAIL_JOBS.toRecord;

export class SqlMailOutbox implements MailOutboxPort {
  constructor(private readonly db: Db) {}

  /**
   * Jobs as stored. Jobs given with an order change are about that order: one without an
   * `orderId` gets `orderId` (a caller can't know a new order's id). Parsed, so a bad job
   * fails before anything is written.
   */
  static build(inputs: readonly MailJobInput[], now: Date, orderId: string | null = null): MailJob[] {
    if (inputs.length === 0) return [];
    const at = now.toISOString();
    return inputs.map((input) =>
      MailJob.parse({
        id: newId(),
        kind: input.kind,
        orderId: input.orderId || orderId,
        payload: input.payload,
        attempts: 0,
        nextAttemptAt: at,
        lastError: null,
        createdAt: at,
        sentAt: null,
        sentVia: null,
      }),
    );
  }

  /** Writes `jobs` in the caller's transaction (an order change and its mail are one commit). */
  static async insert(tx: Tx, jobs: readonly MailJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await tx.insert(
      'mail_jobs',
      MAIL_JOBS.names,
      jobs.map((j) => MAIL_JOBS.values(j)),
    );
  }

  async enqueue(inputs: readonly MailJobInput[]): Promise<MailJob[]> {
    const jobs = SqlMailOutbox.build(inputs, new Date());
    if (jobs.length > 0) await this.db.transaction((tx) => SqlMailOutbox.insert(tx, jobs));
    return jobs;
  }

  // The outbox's bookkeeping is `relaxed`: losing the last lease, "sent" or "failed" to a power
  // cut only sends a mail again, which a delivery cut off by a crash may do anyway.

  claimDue(now: Date, limit: number, leaseMs: number): Promise<MailJob[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs).toISOString();
    return this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT ${COLUMNS} FROM mail_jobs WHERE sent_at IS NULL AND next_attempt_at <= ?
         ORDER BY next_attempt_at, created_at LIMIT ?${this.db.dialect.forUpdateSkipLocked}`,
        [now.toISOString(), limit],
      );
      if (rows.length === 0) return [];
      await tx.run(`UPDATE mail_jobs SET next_attempt_at = ? WHERE id IN (${placeholders(rows.length)})`, [
        leaseEnd,
        ...rows.map((r) => r.id as string),
      ]);
      return rows.map((r) => toJob({ ...r, next_attempt_at: leaseEnd }));
    }, 'relaxed');
  }

  async markSent(id: string, via: string, at: Date): Promise<void> {
    await this.db.transaction(
      (tx) =>
        tx.run('UPDATE mail_jobs SET sent_at = ?, sent_via = ? WHERE id = ? AND sent_at IS NULL', [
          at.toISOString(),
          via,
          id,
        ]),
      'relaxed',
    );
  }

  async markFailed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db.transaction(
      (tx) =>
        tx.run(
          `UPDATE mail_jobs SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
           WHERE id = ? AND sent_at IS NULL`,
          [error, nextAttemptAt.toISOString(), id],
        ),
      'relaxed',
    );
  }

  async pendingCount(): Promise<number> {
    const row = await this.db.get<{ n: number }>(
      'SELECT CAST(count(*) AS INTEGER) AS n FROM mail_jobs WHERE sent_at IS NULL',
    );
    return Number(row?.n ?? 0);
  }
}
