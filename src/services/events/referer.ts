/**
 * Finds the event a visitor came from in a `Referer` (docs/contract.md, "Events"): a gallery URL such as
 * `https://gallery.example/event/AX2025/Day%201/...`, or a page with `?event=` /
 * `?eventSlug=` in its query. Returns the candidate code; the caller checks it exists.
 */
export function eventCodeFromReferer(referer: string | undefined): string | undefined {
  if (!referer || referer.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return undefined;
  }
  const fromQuery = url.searchParams.get('eventSlug') ?? url.searchParams.get('event');
  if (fromQuery) return fromQuery;
  const segments = url.pathname.split('/');
  const i = segments.findIndex((s) => s.toLowerCase() === 'event' || s.toLowerCase() === 'events');
  const raw = i >= 0 ? segments[i + 1] : undefined;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
