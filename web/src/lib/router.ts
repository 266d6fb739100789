/**
 * A router of about forty lines: the History API, same-origin link clicks intercepted, and
 * the scroll position remembered per history entry so "back" lands where the visitor was.
 */
import { useEffect, useState } from 'preact/hooks';

export type Location = { path: string; query: URLSearchParams; hash: string };

const listeners = new Set<() => void>();
const current = (): Location => ({
  path: location.pathname,
  query: new URLSearchParams(location.search),
  hash: location.hash,
});
let snapshot = current();

function changed(): void {
  snapshot = current();
  for (const fn of listeners) fn();
}

function saveScroll(): void {
  history.replaceState({ ...(history.state ?? {}), scrollY: window.scrollY }, '');
}

/** `state`: kept with the history entry (a photo link remembers the list it was opened from). */
export function navigate(
  to: string,
  opts: { replace?: boolean; keepScroll?: boolean; state?: Record<string, unknown> } = {},
): void {
  if (to === location.pathname + location.search + location.hash) return;
  saveScroll();
  if (opts.replace) history.replaceState(opts.state ?? {}, '', to);
  else history.pushState(opts.state ?? {}, '', to);
  changed();
  if (!opts.keepScroll) window.scrollTo(0, 0);
}

/** The scroll position to restore after "back", once the page has its content. */
export function pendingScroll(): number | undefined {
  const y = (history.state as { scrollY?: number } | null)?.scrollY;
  return typeof y === 'number' ? y : undefined;
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(snapshot);
  useEffect(() => {
    const fn = () => setLoc(snapshot);
    listeners.add(fn);
    return () => listeners.delete(fn);
  }, []);
  return loc;
}

export function startRouter(): void {
  history.scrollRestoration = 'manual';
  window.addEventListener('popstate', changed);
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download') || a.dataset.external !== undefined) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/docs')) return;
    // In-page anchors (the skip link) keep the browser's own behaviour.
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

/** The list a photo link was opened from (`navigate(..., { state: { list } })`), if it was opened here. */
export function openedFromList(): string | undefined {
  const list = (history.state as { list?: unknown } | null)?.list;
  return typeof list === 'string' ? list : undefined;
}

/** A photo's own link: `/event/<code>/photo/<number>` (docs/contract.md, "Gallery"). */
export const photoPath = (code: string, number: string): string =>
  `/event/${encodeURIComponent(code)}/photo/${encodeURIComponent(number)}`;

/** `/event/A%20B/Day%201` → ['event', 'A B', 'Day 1']; undefined when a segment is malformed. */
export function segments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

export const eventPath = (code: string, day?: string, session?: string): string =>
  ['/event', code, day, session]
    .filter((s): s is string => s !== undefined)
    .map((s, i) => (i === 0 ? s : encodeURIComponent(s)))
    .join('/');
