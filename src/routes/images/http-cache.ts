/**
 * The response headers of every served image, computed once per image. A URL carrying the
 * photo's current version (`?v=`) names bytes that never change: immutable; any other may
 * change when the original is replaced: five minutes, then revalidated by ETag.
 */
import { CONTENT_TYPES, type ServedImage } from '../../services/images/types.js';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'public, max-age=300';

export type ImageHeaders = Readonly<Record<string, string>>;

type HeaderSets = {
  immutable: { ok: ImageHeaders; notModified: ImageHeaders };
  revalidate: { ok: ImageHeaders; notModified: ImageHeaders };
};

const cache = new WeakMap<ServedImage, HeaderSets>();

function headerSets(img: ServedImage): HeaderSets {
  const make = (cacheControl: string) => {
    // Vary: Accept: the same URL is WebP or JPEG depending on what the client accepts.
    const notModified = Object.freeze({ etag: img.etag, 'cache-control': cacheControl, vary: 'Accept' });
    const ok = Object.freeze({
      ...notModified,
      'content-type': CONTENT_TYPES[img.format],
      'x-content-type-options': 'nosniff',
    });
    return { ok, notModified };
  };
  return { immutable: make(CACHE_IMMUTABLE), revalidate: make(CACHE_REVALIDATE) };
}

/** The headers for `img`: for a 200 or for a 304, on a versioned URL or not. */
export function imageHeaders(img: ServedImage, versioned: boolean, notModified: boolean): ImageHeaders {
  let sets = cache.get(img);
  if (!sets) {
    sets = headerSets(img);
    cache.set(img, sets);
  }
  const set = versioned ? sets.immutable : sets.revalidate;
  return notModified ? set.notModified : set.ok;
}
