/** Takedown requests on either engine (ports/takedowns.ts): table `takedowns`. */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../../domain/order.js';
import { appError } from '../../../errors/catalogue.js';
import type { MailJobInput } from '../ports/mail-outbox.js';
import {
  type HiddenPhoto,
  type HideLimit,
  type NewTakedown,
  type TakedownDecision,
  TakedownRecord,
  type TakedownStatus,
  type TakedownsPort,
} from '../ports/takedowns.js';
import type { Db } from './db.js';
import { SqlMailOutbox } from './mail-outbox.js';
import { SqlPhotoCatalogue } from './photo-catalogue.js';
import { recordTable } from './record-table.js';
import { HIDING_TAKEDOWN } from './takedown-hiding.js';

/** `status` is no column: a request is open until it has a decision. */
export const TAKEDOWNS = recordTable('takedowns', TakedownRecord, {
  derived: { status: (o) => (o.decision === null ? 'open' : 'decided') },
});
const COLUMNS = TAKEDOWNS.select;
const toRecord = TAKEDOWNS.toRecord;
/** A request is written with the digest of its client's address (the hiding limit counts by it). */
const INSERT_SQL = TAKEDOWNS.insertSql(['client']);

export class SqlTakedowns implements TakedownsPort {
  constructor(private readonly db: Db) {}

  create(
    input: NewTakedown,
    opts: { mail?: (record: TakedownRecord) => readonly MailJobInput[]; hideLimit?: HideLimit } = {},
  ): Promise<TakedownRecord> {
    const id = randomUUID();
    const now = new Date();
    const limit = opts.hideLimit;
    return this.db.transaction(async (tx) => {
      let hides = input.hides;
      if (hides && limit) {
        await tx.lock(`takedown-client:${limit.client}`);
        const n = await tx.get<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM takedowns WHERE client = ? AND hides = TRUE AND created_at >= ?',
          [limit.client, limit.since.toISOString()],
        );
        if (Number(n?.n ?? 0) >= limit.max) hides = false;
      }
      const record = TakedownRecord.parse({
        ...input,
        hides,
        id,
        createdAt: now.toISOString(),
        status: 'open',
        decision: null,
        decidedAt: null,
        decidedBy: null,
      });
      await tx.run(INSERT_SQL, TAKEDOWNS.values(record, limit?.client ?? null));
      const mail = opts.mail?.(record) ?? [];
      if (mail.length > 0) await SqlMailOutbox.insert(tx, SqlMailOutbox.build(mail, now));
      if (hides) await SqlPhotoCatalogue.takedownChanged(tx, input.eventSlug, input.photoId);
      return record;
    });
  }

  async get(id: string): Promise<TakedownRecord | null> {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM takedowns WHERE id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  async list(query: { status?: TakedownStatus } = {}): Promise<TakedownRecord[]> {
    const where =
      query.status === 'open'
        ? 'WHERE decision IS NULL'
        : query.status === 'decided'
          ? 'WHERE decision IS NOT NULL'
          : '';
    const rows = await this.db.all(`SELECT ${COLUMNS} FROM takedowns ${where} ORDER BY created_at DESC, id`);
    return rows.map(toRecord);
  }

  decide(
    id: string,
    decision: TakedownDecision,
    opts: { by: Actor; mail: (request: TakedownRecord) => MailJobInput },
  ): Promise<{ decided: TakedownRecord[]; changed: boolean }> {
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const row = await tx.get(`SELECT ${COLUMNS} FROM takedowns WHERE id = ?${this.db.dialect.forUpdate}`, [id]);
      if (!row) throw appError('TAKEDOWN_NOT_FOUND', { details: id });
      const request = toRecord(row);
      if (request.decision !== null) {
        if (request.decision === decision) return { decided: [request], changed: false };
        throw appError('TAKEDOWN_DECIDED', { details: `${id} was decided: ${request.decision}` });
      }
      // Every open request for the photo is decided with it (one photo, one answer).
      await tx.lock(`takedowns:${request.eventSlug}:${request.photoId}`);
      const open = (
        await tx.all(
          `SELECT ${COLUMNS} FROM takedowns WHERE event_slug = ? AND photo_id = ? AND decision IS NULL${this.db.dialect.forUpdate}`,
          [request.eventSlug, request.photoId],
        )
      ).map(toRecord);
      await tx.run(
        `UPDATE takedowns SET decision = ?, decided_at = ?, decided_by = ?
         WHERE event_slug = ? AND photo_id = ? AND decision IS NULL`,
        [decision, now.toISOString(), opts.by, request.eventSlug, request.photoId],
      );
      const decided = open.map((r) =>
        TakedownRecord.parse({ ...r, status: 'decided', decision, decidedAt: now.toISOString(), decidedBy: opts.by }),
      );
      await SqlMailOutbox.insert(tx, SqlMailOutbox.build(decided.map(opts.mail), now));
      await SqlPhotoCatalogue.takedownChanged(tx, request.eventSlug, request.photoId);
      return { decided, changed: true };
    });
  }

  async isRemoved(eventSlug: string, photoId: string): Promise<boolean> {
    const row = await this.db.get(
      "SELECT 1 AS one FROM takedowns WHERE event_slug = ? AND photo_id = ? AND decision = 'remove'",
      [eventSlug, photoId],
    );
    return row !== undefined;
  }

  async hiddenPhotos(): Promise<HiddenPhoto[]> {
    const rows = await this.db.all<{ event_slug: string; photo_id: string }>(
      `SELECT DISTINCT event_slug, photo_id FROM takedowns WHERE ${HIDING_TAKEDOWN}`,
    );
    return rows.map((r) => ({ eventSlug: r.event_slug, photoId: r.photo_id }));
  }
}
