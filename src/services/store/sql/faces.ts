/** Face vectors on either engine (ports/faces.ts): table `face_index`, one row per photo. */
import { FaceIndexEntry, type FacesPort, IndexedVersion, type NewFaceIndexEntry } from '../ports/faces.js';
import type { Db } from './db.js';
import { recordTable } from './record-table.js';
import { placeholders } from './values.js';

export const FACES = recordTable('face_index', FaceIndexEntry);
const COLUMNS = FACES.select;
const toEntry = FACES.toRecord;
/** A photo indexed again (another version, another model) replaces its row. */
const PUT_SQL = FACES.insertSql(
  [],
  `ON CONFLICT (event_slug, photo_id) DO UPDATE SET version = excluded.version, model = excluded.model,
     faces = excluded.faces, vectors = excluded.vectors, indexed_at = excluded.indexed_at`,
);

/** Rows removed per statement (both engines take this many parameters easily). */
const REMOVE_BATCH = 500;

export class SqlFaces implements FacesPort {
  constructor(private readonly db: Db) {}

  async put(entry: NewFaceIndexEntry): Promise<FaceIndexEntry> {
    const row = FaceIndexEntry.parse({ ...entry, indexedAt: new Date().toISOString() });
    await this.db.transaction((tx) => tx.run(PUT_SQL, FACES.values(row)), 'relaxed');
    return row;
  }

  async list(eventSlug: string, opts: { since?: string } = {}): Promise<FaceIndexEntry[]> {
    const rows =
      opts.since === undefined
        ? await this.db.all(`SELECT ${COLUMNS} FROM face_index WHERE event_slug = ? ORDER BY indexed_at`, [eventSlug])
        : await this.db.all(
            `SELECT ${COLUMNS} FROM face_index WHERE event_slug = ? AND indexed_at >= ? ORDER BY indexed_at`,
            [eventSlug, new Date(opts.since).toISOString()],
          );
    return rows.map(toEntry);
  }

  async page(eventSlug: string, opts: { afterPhotoId?: string; limit: number }): Promise<FaceIndexEntry[]> {
    const limit = Math.max(1, Math.floor(opts.limit));
    const rows =
      opts.afterPhotoId === undefined
        ? await this.db.all(`SELECT ${COLUMNS} FROM face_index WHERE event_slug = ? ORDER BY photo_id LIMIT ?`, [
            eventSlug,
            limit,
          ])
        : await this.db.all(
            `SELECT ${COLUMNS} FROM face_index WHERE event_slug = ? AND photo_id > ? ORDER BY photo_id LIMIT ?`,
            [eventSlug, opts.afterPhotoId, limit],
          );
    return rows.map(toEntry);
  }

  async versions(eventSlug: string): Promise<IndexedVersion[]> {
    const rows = await this.db.all('SELECT photo_id, version, model FROM face_index WHERE event_slug = ?', [eventSlug]);
    return rows.map((r) => IndexedVersion.parse({ photoId: r.photo_id, version: r.version, model: r.model }));
  }

  async remove(eventSlug: string, photoIds: readonly string[]): Promise<number> {
    if (photoIds.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      let removed = 0;
      for (let i = 0; i < photoIds.length; i += REMOVE_BATCH) {
        const batch = photoIds.slice(i, i + REMOVE_BATCH);
        removed += await tx.run(
          `DELETE FROM face_index WHERE event_slug = ? AND photo_id IN (${placeholders(batch.length)})`,
          [eventSlug, ...batch],
        );
      }
      return removed;
    }, 'relaxed');
  }
}
