/**
 * The photo catalogue port: one row per photo file the service has seen, the one place that
 * says which file a photo number means; every process's photo library loads from it, writes
 * its scans through it and follows the others' changes (`changesSince`). The rules (rows never
 * deleted; numbers given here, atomically, never reused; `seq` order is commit order; `hidden`
 * kept by the takedowns): docs/contract.md and docs/store.md, "The photo catalogue".
 */
import { z } from 'zod';

/** What a scan reads from one version (size and modification time) of a file. */
export const PhotoFacts = z.object({
  size: z.number().int().nonnegative(),
  /** Milliseconds, with the fraction the file system gives. */
  mtimeMs: z.number().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** The EXIF capture time, camera clock read as UTC (epoch ms); null when the file has none. */
  takenAtMs: z.number().int().nullable(),
});
export type PhotoFacts = z.infer<typeof PhotoFacts>;

/**
 * The photographer's metadata (docs/contract.md, "The photographer's metadata"): read from
 * the file's XMP/IPTC or its sidecar. Keys absent when unknown; other keys are kept.
 */
export const PhotoMetadata = z.looseObject({
  label: z.string().optional(),
  title: z.string().optional(),
  caption: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  photographer: z.string().optional(),
  /** The sidecar version read with it (`<name>:<size>:<mtimeMs>`), absent for none: a changed one is read again. */
  sidecar: z.string().optional(),
});
export type PhotoMetadata = z.infer<typeof PhotoMetadata>;

/** xmp:Rating: -1 rejected, 0 unrated, 1–5 stars. */
const PhotoRating = z.number().int().min(-1).max(5);

export const CatalogueRow = z.object({
  eventCode: z.string().min(1),
  /** `<day>/<session>/<file>` inside the event folder. */
  path: z.string().min(1),
  /** The photo's opaque id (derived from event and path: src/services/photos/naming.ts). */
  id: z.string().min(1),
  /** Null until the file is first listed; never for a photo-code frame. */
  number: z.number().int().positive().nullable(),
  /**
   * The version last read; null only for a file the earlier design had numbered and that was
   * gone before this one saw it (imported at the upgrade: its number stays retired).
   */
  facts: PhotoFacts.nullable(),
  /** Whether this version was inspected (docs/contract.md, "Finding one's photos, and intake"). */
  inspected: z.boolean(),
  /** The photo code the frame shows (never listed then); null for none or not inspected yet. */
  photoCode: z.string().nullable(),
  /** In the photo folder when a process last looked. */
  present: z.boolean(),
  /** Kept from the public by a takedown. */
  hidden: z.boolean(),
  rating: PhotoRating.nullable(),
  metadata: PhotoMetadata.nullable(),
  /** The write that last changed the row (the change feed's position). */
  seq: z.number().int().positive(),
});
export type CatalogueRow = z.infer<typeof CatalogueRow>;

/**
 * A row as the table holds it: the facts' columns side by side (all null for a retired
 * number). Parsing one object level instead of two halves the parse a restart does for every
 * photo (bench/gallery: restart of 50,000 photos, target ≤ 3 s).
 */
export const StoredCatalogueRow = CatalogueRow.omit({ facts: true }).extend({
  size: PhotoFacts.shape.size.nullable(),
  mtimeMs: PhotoFacts.shape.mtimeMs.nullable(),
  width: PhotoFacts.shape.width.nullable(),
  height: PhotoFacts.shape.height.nullable(),
  takenAtMs: PhotoFacts.shape.takenAtMs,
});
export type StoredCatalogueRow = z.infer<typeof StoredCatalogueRow>;

/** The row with its facts nested; facts' columns partly null are refused, as CatalogueRow would. */
export function catalogueRowOf(r: StoredCatalogueRow): CatalogueRow {
  const { size, mtimeMs, width, height, takenAtMs } = r;
  let facts: PhotoFacts | null = null;
  if (size !== null || mtimeMs !== null || width !== null || height !== null || takenAtMs !== null) {
    if (size === null || mtimeMs === null || width === null || height === null) {
      throw new Error(`photo catalogue row ${r.eventCode}/${r.path} has part of its facts`);
    }
    facts = { size, mtimeMs, width, height, takenAtMs };
  }
  return {
    eventCode: r.eventCode,
    path: r.path,
    id: r.id,
    number: r.number,
    facts,
    inspected: r.inspected,
    photoCode: r.photoCode,
    present: r.present,
    hidden: r.hidden,
    rating: r.rating,
    metadata: r.metadata,
    seq: r.seq,
  };
}

/** Rows changed after a position, and the position to ask from next time. */
export type CatalogueChanges = { rows: CatalogueRow[]; seq: number };

/** A file a scan found: new, changed (another size or modification time) or back again. */
export type FileSighting = {
  path: string;
  id: string;
  facts: PhotoFacts;
  /**
   * The rating and metadata read from this version and its sidecar (replacing the row's);
   * absent: not read, the row's stay.
   */
  read?: { rating: number | null; metadata: PhotoMetadata };
};

export type CatalogueWrite = {
  /**
   * Files found with these facts: a new row, or the row updated (present again; facts
   * replaced, which resets its inspection when the version differs). Unchanged rows stay as
   * they are (no new `seq`).
   */
  seen?: readonly FileSighting[];
  /** Files no longer in the folder. */
  gone?: readonly string[];
  /** Inspection results, each for the version it looked at (ignored when the row has another). */
  inspected?: readonly { path: string; size: number; mtimeMs: number; photoCode: string | null }[];
  /** Paths now listed, in the order new numbers are to be given (rows must exist). */
  number?: readonly string[];
};

/** An entry of the earlier design's index (DATA_DIR/photo-index/), taken in once at the upgrade. */
export type ImportedFile = {
  path: string;
  id: string;
  /** The number it had; null for none (a code frame). */
  number: number | null;
  /** Null for a retired number (the file was gone). */
  facts: PhotoFacts | null;
  /** Undefined: not inspected yet. */
  photoCode?: string | null;
};

export type ImportOutcome = {
  /** Rows added with the imported numbers. */
  imported: number;
  /** Paths the record knew already: the record's numbers stand. */
  known: number;
  /** Of those, the ones this index had numbered otherwise (another server's earlier numbering). */
  disagreed: { path: string; number: number; recorded: number | null }[];
  /**
   * Files whose number the record had given to another path meanwhile: not kept (a file still
   * there is numbered again when next listed; a retired number is dropped).
   */
  renumbered: { path: string; number: number }[];
};

export interface PhotoCataloguePort {
  /** Rows changed after `seq` (0: every row), in `seq` order. */
  changesSince(seq: number): Promise<CatalogueChanges>;
  /**
   * One event's changes in one durable transaction; resolves, as `changesSince(since)` does,
   * with every row changed after `since` (this write's and everyone else's).
   */
  write(eventCode: string, changes: CatalogueWrite, since: number): Promise<CatalogueChanges>;
  /** Sets a file's rating and metadata (§21's reader); null when the record has no such row. */
  setMetadata(
    eventCode: string,
    path: string,
    value: { rating: number | null; metadata: PhotoMetadata | null },
  ): Promise<CatalogueRow | null>;
  /**
   * The upgrade: an event's earlier index taken in. A path the record knows keeps the
   * record's row; a number another path holds already is not taken (`renumbered`).
   */
  importIndex(eventCode: string, files: readonly ImportedFile[]): Promise<ImportOutcome>;
}
