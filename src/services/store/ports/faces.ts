/**
 * The faces port (docs/contract.md, "Find me by face"): the face vectors of each photo of an
 * event with face search on, with the photo version and the model that made them (another
 * model's vectors don't compare). In the record, not DATA_DIR, so every server answers a
 * selfie alike and none indexes again what another did.
 */
import { z } from 'zod';

export const FaceIndexEntry = z.object({
  eventSlug: z.string().min(1),
  photoId: z.string().min(1),
  /** The photo version the vectors were made from (services/photos: size + modification time). */
  version: z.string().min(1),
  /** Which detector and embedding made them (services/faces/engine.ts). */
  model: z.string().min(1),
  /** How many faces the photo shows (0: looked at, none found). */
  faces: z.number().int().min(0),
  /** The faces' vectors, one after the other (each the model's vector size), as base64. */
  vectors: z.string(),
  indexedAt: z.iso.datetime({ offset: true }),
});
export type FaceIndexEntry = z.infer<typeof FaceIndexEntry>;

export type NewFaceIndexEntry = Omit<FaceIndexEntry, 'indexedAt'>;

/** An event's indexed photos in short: which version of each (without the vectors). */
export const IndexedVersion = FaceIndexEntry.pick({ photoId: true, version: true, model: true });
export type IndexedVersion = z.infer<typeof IndexedVersion>;

export interface FacesPort {
  /**
   * Records the faces of a photo, replacing what was recorded for it (another version, another
   * model). `indexedAt` is the time of this call. Relaxed durability: a row lost to a power cut
   * is simply made again.
   */
  put(entry: NewFaceIndexEntry): Promise<FaceIndexEntry>;
  /**
   * The event's rows, or with `since` only those recorded at or after that instant (what another
   * process indexed since the last read: callers re-read a margin before their last `indexedAt`,
   * as a row's time is taken before its commit). Ordered by `indexedAt`.
   */
  list(eventSlug: string, opts?: { since?: string }): Promise<FaceIndexEntry[]>;
  /**
   * One page of the event's rows in photo id order: those after `afterPhotoId` (from the first
   * without it), at most `limit`. The indexer reads an event this way when it first needs it, a
   * page at a time, so that 50,000 rows (about 140 MB of vectors) never hold the event loop in
   * one statement.
   */
  page(eventSlug: string, opts: { afterPhotoId?: string; limit: number }): Promise<FaceIndexEntry[]>;
  /** Which version of which photo is recorded, without the vectors (what the indexer compares with the library). */
  versions(eventSlug: string): Promise<IndexedVersion[]>;
  /** Forgets the rows of these photos (files gone from the library); resolves with how many went. */
  remove(eventSlug: string, photoIds: readonly string[]): Promise<number>;
}
