/**
 * Finding one's photos by photo code (docs/contract.md, "Finding one's photos, and
 * intake"): the photos the library's code groups hold for a code, answered from memory.
 *
 * Whether a code is known: the library has seen a frame showing it, or the registry of
 * issued codes (when one is plugged in: `POST /api/finder` keeps the codes it hands out)
 * knows it. An issued code whose frame has not been shot yet is known, with no photos: the
 * attendee's page is already right, and fills in as the photographer's frames arrive.
 */
import { parsePhotoCode } from '../../domain/photo-code.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';

/** The codes handed out (POST /api/finder): kept by the order store when it keeps them. */
export interface PhotoCodeRegistry {
  isIssued(code: string): Promise<boolean>;
}

export type FinderResult =
  | { ok: true; code: string; photos: readonly Photo[] }
  | { ok: false; reason: 'malformed' | 'unknown' };

export interface Finder {
  lookup(text: string): Promise<FinderResult>;
}

const NONE: readonly Photo[] = Object.freeze([]);

export function createFinder(library: Pick<PhotoLibrary, 'photosForCode'>, registry?: PhotoCodeRegistry): Finder {
  return {
    async lookup(text) {
      const code = parsePhotoCode(text);
      if (!code) return { ok: false, reason: 'malformed' };
      const photos = library.photosForCode(code);
      if (photos) return { ok: true, code, photos };
      if (registry && (await registry.isIssued(code))) return { ok: true, code, photos: NONE };
      return { ok: false, reason: 'unknown' };
    },
  };
}
