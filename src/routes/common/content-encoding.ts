/**
 * `Accept-Encoding` for the routes that send bytes they keep ready in both forms (the admin
 * order list, the gallery pages): one reading of the header for all of them.
 */

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
