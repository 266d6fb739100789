/** Print jobs on either engine (ports/print-jobs.ts): table `print_jobs`. */
import { randomUUID } from 'node:crypto';
import { type FinalPrintJobState, type NewPrintJob, PrintJobRecord, type PrintJobsPort } from '../ports/print-jobs.js';
import type { Db, Row } from './db.js';
import { bool, camelRow, placeholders } from './values.js';

const COLUMNS = `id, item_id, order_id, line, order_number, event_slug, printer, size, copies, job_name, job_id,
  state, printer_state, reason, auto, requested_by, run_id, created_at, updated_at, finished_at`;
const IN_FLIGHT_SQL = `state IN ('sending', 'queued')`;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

const toRecord = (r: Row): PrintJobRecord =>
  PrintJobRecord.parse({
    ...camelRow(r),
    line: Number(r.line),
    copies: Number(r.copies),
    jobId: r.job_id === null || r.job_id === undefined ? null : Number(r.job_id),
    auto: bool(r.auto),
    by: r.requested_by,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    finishedAt: iso(r.finished_at),
  });

/** `AX26-0012.2#1a2b3c4d`: the line, and enough of the attempt's id to tell attempts apart. */
const jobNameOf = (itemId: string, id: string) => `${itemId}#${id.slice(0, 8)}`;

export class SqlPrintJobs implements PrintJobsPort {
  constructor(private readonly db: Db) {}

  async begin(jobs: readonly NewPrintJob[]) {
    const now = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      const begun: PrintJobRecord[] = [];
      const busy: string[] = [];
      for (const [position, job] of jobs.entries()) {
        const id = randomUUID();
        const record = PrintJobRecord.parse({
          ...job,
          id,
          jobName: jobNameOf(job.itemId, id),
          jobId: null,
          state: 'sending',
          printerState: null,
          reason: null,
          createdAt: now,
          updatedAt: now,
          finishedAt: null,
        });
        // The partial unique index on the line's in-flight job decides between two senders.
        const inserted = await tx.run(
          `INSERT INTO print_jobs (id, item_id, order_id, line, order_number, event_slug, printer, size, copies,
             job_name, state, auto, requested_by, run_id, position, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [
            id,
            record.itemId,
            record.orderId,
            record.line,
            record.orderNumber,
            record.eventSlug,
            record.printer,
            record.size,
            record.copies,
            record.jobName,
            record.auto,
            record.by,
            record.runId,
            position,
            now,
            now,
          ],
        );
        if (inserted === 1) begun.push(record);
        else busy.push(job.itemId);
      }
      return { begun, busy };
    });
  }

  async accepted(id: string, jobId: number, printerState: string) {
    const now = new Date().toISOString();
    const changed = await this.db.transaction((tx) =>
      tx.run(
        `UPDATE print_jobs SET state = 'queued', job_id = ?, printer_state = ?, updated_at = ?
         WHERE id = ? AND state = 'sending'`,
        [jobId, printerState, now, id],
      ),
    );
    return changed === 1 ? this.get(id) : null;
  }

  async observe(id: string, printerState: string, reason: string | null) {
    const now = new Date().toISOString();
    // Bookkeeping a restart asks the printer for again: no fsync of its own.
    await this.db.transaction(
      (tx) =>
        tx.run(
          `UPDATE print_jobs SET printer_state = ?, reason = ?, updated_at = ?
           WHERE id = ? AND state = 'queued'
             AND (printer_state IS NULL OR printer_state <> ? OR COALESCE(reason, '') <> ?)`,
          [printerState, reason, now, id, printerState, reason ?? ''],
        ),
      'relaxed',
    );
  }

  async finish(id: string, state: FinalPrintJobState, reason: string | null) {
    const now = new Date().toISOString();
    const changed = await this.db.transaction((tx) =>
      tx.run(
        `UPDATE print_jobs SET state = ?, reason = ?, updated_at = ?, finished_at = ? WHERE id = ? AND ${IN_FLIGHT_SQL}`,
        [state, reason, now, now, id],
      ),
    );
    return changed === 1 ? this.get(id) : null;
  }

  async claim(id: string, fromRunId: string, toRunId: string) {
    const now = new Date().toISOString();
    const changed = await this.db.transaction((tx) =>
      tx.run(`UPDATE print_jobs SET run_id = ?, updated_at = ? WHERE id = ? AND state = 'sending' AND run_id = ?`, [
        toRunId,
        now,
        id,
        fromRunId,
      ]),
    );
    return changed === 1;
  }

  async get(id: string) {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM print_jobs WHERE id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  async inFlight() {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM print_jobs WHERE ${IN_FLIGHT_SQL} ORDER BY created_at, position, id`,
    );
    return rows.map(toRecord);
  }

  async recent(limit: number) {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM print_jobs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id LIMIT ?`,
      [limit],
    );
    return rows.map(toRecord);
  }

  async forItems(itemIds: readonly string[]) {
    if (itemIds.length === 0) return [];
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM print_jobs WHERE item_id IN (${placeholders(itemIds.length)}) ORDER BY created_at, position, id`,
      itemIds,
    );
    return rows.map(toRecord);
  }
}
