/**
 * `Accept-Encoding` for the routes that send bytes they keep ready in both forms (the admin
 * order list, the gallery pages): one reading of the header for all of them.
 */

/**
 * The gzip level for those bytes: level 1 compresses JSON about tenfold (a gallery page, an
 * order list) in a fraction of the time of the default; higher levels gain a few bytes.
 */
export const GZIP_LEVEL = 1;

/** Whether `Accept-Encoding` admits gzip (`gzip` or `*` without `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return allowed;
    if (name.trim() === '*') star = allowed;
  }
  return star;
}
