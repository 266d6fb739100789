import type { EarlyBird, Package } from '../../domain/offers.js';
import type { PhotoMetadata } from '../store/ports/photo-catalogue.js';

/**
 * The photo library's narrow interface (`fastify.photos`): the gallery routes and the image
 * service depend on this, never on the file system (docs/contract.md, "Gallery").
 */

export type Photo = {
  /** Opaque, stable across restarts (derived from the path inside the event). */
  id: string;
  /** What a customer types to order: unique within the event, stable, never reused. */
  number: string;
  eventCode: string;
  day: string;
  session: string;
  fileName: string;
  width: number;
  height: number;
  /** EXIF capture time (ISO 8601) when present. */
  takenAt: string | null;
  /** Changes whenever the file is replaced (size + mtime): caches key on it. */
  version: string;
  /** The photographer's rating (-1 rejected, 0–5) and metadata from the catalogue; null when unknown. */
  rating: number | null;
  metadata: PhotoMetadata | null;
};

export type SessionFolder = { name: string; photoCount: number };
export type DayFolder = { name: string; photoCount: number; sessions: SessionFolder[] };

import type { PrintSizes } from '../../domain/prints.js';

/** event.json merged with derived defaults; money in cents. */
export type EventDefaults = {
  code: string;
  name: string;
  /** YYYY-MM-DD, or null when neither event.json nor the photos tell. */
  date: string | null;
  prefix: string;
  /** size → cents, in the order event.json lists them. */
  prices: Record<string, number>;
  defaultSize: string;
  shippingFeeCents: number;
  /** Package prices, one per size (docs/contract.md, "Selling"). */
  packages: Package[];
  earlyBird: EarlyBird | null;
  isArchived: boolean;
  orderingEnabled: boolean;
  deadline: string | null;
  /** event.json `printSizes`: inches of sizes other than 4x6, 5x7 and 8x10 (empty when none). */
  printSizes: PrintSizes;
} & ListingRules & {
    /** `?featured=1` lists photos rated at least this (docs/contract.md, "The photographer's metadata"). */
    featuredRating: number;
  };

/** Which photos of an event are public, by the photographer's rating (docs/contract.md, "The photographer's metadata"). */
export type ListingRules = {
  /** Rejected photos (rating −1) are listed too. */
  showRejected: boolean;
  /** Only photos rated at least this are listed (0: all; unrated counts as 0). */
  minRating: number;
};

export type LibraryEvent = EventDefaults & {
  photoCount: number;
  days: DayFolder[];
  /** Whether the event folder has an event.json (`invalid`: one that does not validate). */
  eventJson: 'absent' | 'valid' | 'invalid';
};

/** A settled file that cannot be read (docs/contract.md, "Finding one's photos, and intake"). */
export type BrokenFile = {
  event: string;
  /** Inside the event folder: `<day>/<session>/<file>`. */
  path: string;
  reason: string;
  size: number;
  mtimeMs: number;
  /** ISO time when it was first reported. */
  since: string;
};

export type IntakeStatus = {
  /** Files seen but not settled yet (still being copied, or just written). */
  pending: number;
  /** Settled files waiting for their inspection (photo code, thumbnails): not listed yet. */
  inspecting: number;
  broken: BrokenFile[];
};

export interface PhotoLibrary {
  /** All events, sorted by date (newest first) then code. */
  listEvents(): readonly LibraryEvent[];
  getEvent(code: string): LibraryEvent | undefined;
  /** The event's photos ordered by day, session, capture time, then number. */
  photosOf(code: string): readonly Photo[] | undefined;
  /** One session's photos in the same order; undefined for an unknown folder. */
  sessionPhotos(code: string, day: string, session: string): readonly Photo[] | undefined;
  /** One day folder's photos (all its sessions) in the same order; undefined for an unknown folder. */
  dayPhotos(code: string, day: string): readonly Photo[] | undefined;
  /** By id or by number. */
  findPhoto(code: string, idOrNumber: string): Photo | undefined;
  /**
   * The photos that frames showing `code` introduced, across events, in gallery order;
   * undefined when no frame of the library shows it (docs/contract.md, "Finding one's
   * photos, and intake").
   */
  photosForCode(code: string): readonly Photo[] | undefined;
  /**
   * A photo taken down (docs/contract.md, "Takedown requests"), by id or number: what
   * `findPhoto` no longer finds. For the admin's takedown queue only; never serve it publicly.
   */
  findHiddenPhoto(code: string, idOrNumber: string): Photo | undefined;
  /**
   * Reads what changed in the photo catalogue (the system of record) now, as the library does
   * every LIBRARY_SYNC_INTERVAL_MS: numbers, takedowns, inspections and metadata written by
   * any process. Resolves once the views showing them are published (a takedown filed through
   * this process leaves its pages before the request is answered).
   */
  refresh(): Promise<void>;
  /** Files pending, being inspected, or broken. */
  intake(): IntakeStatus;
  /** Absolute path of the original, for the image service only (never served). */
  originalPath(photo: Photo): string;
  /** Increments on every change of the index: page caches key on it. */
  readonly generation: number;
  /** Called after every index change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Rescans now (also what the file watcher triggers); resolves when the index is current. */
  rescan(): Promise<void>;
  /**
   * False until the first full scan has completed (start-up does not wait for it beyond a
   * few seconds, so a large library on a slow disk cannot stall it); the index is empty
   * until then.
   */
  readonly isReady: boolean;
  /** Resolves once the first full scan has completed. */
  ready(): Promise<void>;
  /**
   * The admins' overrides of the listing rules (event settings, services/events), by event
   * code; event.json's values or the defaults apply where absent. Resolves once the views
   * follow them.
   */
  setListingOverrides(overrides: ReadonlyMap<string, Partial<ListingRules>>): Promise<void>;
}
