/** Print jobs on either engine (ports/print-jobs.ts): table `print_jobs`. */
import { randomUUID } from 'node:crypto';
import { type FinalPrintJobState, type NewPrintJob, PrintJobRecord, type PrintJobsPort } from '../ports/print-jobs.js';
import type { Db } from './db.js';
import { recordTable } from './record-table.js';
import { placeholders } from './values.js';

export const PRINT_JOBS = recordTable('print_jobs', PrintJobRecord, { columns: { by: 'requested_by' } });
const COLUMNS = PRINT_JOBS.select;
const toRecord = PRINT_JOBS.toRecord;
/**
 * With the job's place among those begun together. The partial unique index on the line's
 * in-flight job decides between two senders.
 */
const INSERT_SQL = PRINT_JOBS.insertSql(['position'], 'ON CONFLICT DO NOTHING');
const IN_FLIGHT_SQL = `state IN ('sending', 'queued')`;

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
        const inserted = await tx.run(INSERT_SQL, PRINT_JOBS.values(record, position));
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
