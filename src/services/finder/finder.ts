/**
 * Finding one's photos by photo code (docs/contract.md, "Finding one's photos, and
 * intake"): the photos the library's code groups hold for a code, answered from memory.
 *
 * Which codes are known: with a registry of issued codes (the app always has one: the
 * store's, plugged in by codes-plugin.ts), the codes it issued, and only those; an issued
 * code whose frame has not been shot yet is known, with no photos, so the attendee's page is
 * right at once and fills in as the photographer's frames arrive. A QR of a code never
 * issued (made elsewhere, or guessed) finds nothing. Without a registry (benches, tools),
 * any code the library has seen in a frame.
 */
import { parsePhotoCode } from '../../domain/photo-code.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';

/** The codes handed out (POST /api/finder, card sheets), kept in the store. */
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
      if (registry) {
        if (!(await registry.isIssued(code))) return { ok: false, reason: 'unknown' };
        return { ok: true, code, photos: photos ?? NONE };
      }
      return photos ? { ok: true, code, photos } : { ok: false, reason: 'unknown' };
    },
  };
}
