/** Conditional GETs: shared by the image routes and the admin order lists. */

/**
 * Whether `If-None-Match` names `etag`: a list of (possibly weak) tags, or `*`.
 * Weak comparison, as RFC 9110 prescribes for If-None-Match.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
