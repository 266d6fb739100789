/**
 * The photo catalogue on either engine (ports/photo-catalogue.ts): table `photo_catalogue`.
 * Why one lock and `seq`: docs/store.md, "The photo catalogue". Its parts:
 * photo-catalogue-rows.ts reads, photo-catalogue-write.ts writes, photo-catalogue-import.ts
 * imports the earlier design's index.
 */
import type {
  CatalogueChanges,
  CatalogueRow,
  CatalogueWrite,
  ImportedFile,
  ImportOutcome,
  PhotoCataloguePort,
  PhotoMetadata,
} from '../ports/photo-catalogue.js';
import type { Db, Tx } from './db.js';
import { importFiles } from './photo-catalogue-import.js';
import { changesSince, rowsOf, SELECT } from './photo-catalogue-rows.js';
import { writeCatalogue } from './photo-catalogue-write.js';
import { HIDING_TAKEDOWN } from './takedown-hiding.js';

const LOCK = 'photo-catalogue';

/** Whether a takedown keeps the row's photo from the public (sql/takedowns.ts says which do). */
const HIDDEN_BY_TAKEDOWN = `EXISTS (SELECT 1 FROM takedowns
  WHERE event_slug = photo_catalogue.event_code AND photo_id = photo_catalogue.id AND (${HIDING_TAKEDOWN}))`;

export class SqlPhotoCatalogue implements PhotoCataloguePort {
  constructor(private readonly db: Db) {}

  /** Takes the catalogue's lock; returns the `seq` this transaction stamps its changes with. */
  private static async begin(tx: Tx): Promise<number> {
    await tx.lock(LOCK);
    const top = await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM photo_catalogue');
    return (top?.seq ?? 0) + 1;
  }

  /**
   * Sets `hidden` of the photo's row from its takedown requests, in the caller's transaction
   * (sql/takedowns.ts, after a request or a decision): what every process's library then
   * reads from the change feed.
   */
  static async takedownChanged(tx: Tx, eventCode: string, photoId: string): Promise<void> {
    const seq = await SqlPhotoCatalogue.begin(tx);
    await tx.run(
      `UPDATE photo_catalogue SET hidden = ${HIDDEN_BY_TAKEDOWN}, seq = ?
       WHERE event_code = ? AND id = ? AND hidden IS DISTINCT FROM ${HIDDEN_BY_TAKEDOWN}`,
      [seq, eventCode, photoId],
    );
  }

  /** New rows stamped `seq` whose photo a takedown hides already (taken before the row existed); how many. */
  private static hideTakenDown(tx: Tx, seq: number): Promise<number> {
    return tx.run(
      `UPDATE photo_catalogue SET hidden = TRUE WHERE seq = ? AND hidden = FALSE AND ${HIDDEN_BY_TAKEDOWN}`,
      [seq],
    );
  }

  changesSince(seq: number): Promise<CatalogueChanges> {
    return changesSince(this.db, seq);
  }
  write(eventCode: string, changes: CatalogueWrite, since: number): Promise<CatalogueChanges> {
    return this.db.transaction(async (tx) =>
      writeCatalogue(tx, await SqlPhotoCatalogue.begin(tx), eventCode, changes, since, SqlPhotoCatalogue.hideTakenDown),
    );
  }

  async setMetadata(
    eventCode: string,
    path: string,
    value: { rating: number | null; metadata: PhotoMetadata | null },
  ): Promise<CatalogueRow | null> {
    const metadata = value.metadata === null ? null : JSON.stringify(value.metadata);
    return this.db.transaction(async (tx) => {
      const seq = await SqlPhotoCatalogue.begin(tx);
      await tx.run(
        `UPDATE photo_catalogue SET rating = ?, metadata = ?, seq = ?
         WHERE event_code = ? AND path = ? AND (rating IS DISTINCT FROM ? OR metadata IS DISTINCT FROM ?)`,
        [value.rating, metadata, seq, eventCode, path, value.rating, metadata],
      );
      const [row] = await rowsOf(tx, `${SELECT} WHERE event_code = ? AND path = ?`, [eventCode, path]);
      return row ?? null;
    });
  }
  importIndex(eventCode: string, files: readonly ImportedFile[]): Promise<ImportOutcome> {
    return this.db.transaction(async (tx) => {
      const seq = await SqlPhotoCatalogue.begin(tx);
      const outcome = await importFiles(tx, seq, eventCode, files);
      await SqlPhotoCatalogue.hideTakenDown(tx, seq);
      return outcome;
    });
  }
}
