/**
 * The gallery's list as it is loaded (the "feed"): page 1 from the page's own HTML, the event's
 * answer or a fetch; more pages as the visitor scrolls; all of them again when new photos are
 * shown. A list is its folder, or a search within it; each keeps what it loaded for "back".
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../lib/api.js';
import type { GalleryEventPage as EventPage, GalleryPhoto as PhotoItem } from '../../lib/api-schema.js';
import { type Folder, type FolderPage, folderUrl, getFolder } from '../../lib/gallery-api.js';
import type { Loaded } from '../../lib/hooks.js';
import { takePageData } from '../../lib/page-data.js';
import { pendingScroll } from '../../lib/router.js';

/** The app's page size: the URLs it asks for first (src/routes/gallery/page-document.ts carries them). */
export const PAGE_SIZE = 48;

export type Feed = { photos: PhotoItem[]; page: number; totalPages: number; totalCount: number };

/** Page 1 of a list as the feed starts with it. */
const firstPage = (d: EventPage | FolderPage): Feed => ({
  photos: d.photos,
  page: 1,
  totalPages: d.totalPages,
  totalCount: d.totalCount,
});

/** Photos loaded so far per gallery path, so "back" returns to the same place in a long list. */
const feeds = new Map<string, Feed>();

let markedInteractive = false;

/**
 * The feed of `folder` (searched for `searched`, '' for none), kept under `path`; `meta` is the
 * event's own first page, which is the event page's page 1.
 */
export function useFeed(folder: Folder, searched: string, path: string, meta: Loaded<EventPage>) {
  const isEventPage = folder.day === undefined;
  const pageQuery = (n: number) =>
    searched ? { q: searched, page: n, limit: PAGE_SIZE } : { page: n, limit: PAGE_SIZE };
  const getPage = (n: number, signal?: AbortSignal) => getFolder(folder, pageQuery(n), signal);

  // Page 1 at the first render when the page's HTML carried it (no round trip, no extra frame).
  const [feed, setFeed] = useState<Feed | undefined>(() => {
    const known = feeds.get(path);
    if (known) return known;
    // A search's list is its own: never the event's unfiltered first page.
    if (isEventPage && !searched) return meta.data ? firstPage(meta.data) : undefined;
    const carried = takePageData<FolderPage>(folderUrl(folder, pageQuery(1)));
    return carried ? firstPage(carried) : undefined;
  });
  const [error, setError] = useState<ApiError | undefined>();
  const [loadingMore, setLoadingMore] = useState(false);
  // The latest feed and whether pages are being fetched, for code that runs between renders
  // (scrolling and "find photo #" must not append the same page twice).
  const feedRef = useRef(feed);
  feedRef.current = feed;
  const fetching = useRef(false);
  // Page 1: the event page has it in `meta`; folder pages fetch their own (in parallel with `meta`).
  useEffect(() => {
    if (feed || !isEventPage || searched) return;
    if (meta.data) setFeed(firstPage(meta.data));
    else if (meta.error) setError(meta.error);
  }, [isEventPage, meta.data, meta.error, feed]);
  useEffect(() => {
    if (feed || (isEventPage && !searched)) return;
    const ctl = new AbortController();
    getPage(1, ctl.signal).then(
      (d) => setFeed(firstPage(d)),
      (err: unknown) => !ctl.signal.aborted && setError(err as ApiError),
    );
    return () => ctl.abort();
  }, [path, isEventPage]);

  useEffect(() => {
    if (feed) feeds.set(path, feed);
  }, [feed, path]);

  // Interactive: the first photos are on screen and every handler is attached.
  useEffect(() => {
    if (!feed || markedInteractive) return;
    markedInteractive = true;
    performance.mark('gallery-interactive');
    document.documentElement.dataset.galleryReady = 'true';
  }, [feed]);

  // Back to where the visitor was, once the photos are there.
  useEffect(() => {
    const y = pendingScroll();
    if (feed && y !== undefined) requestAnimationFrame(() => window.scrollTo(0, y));
  }, [feed !== undefined]);

  /** Fetches the pages after the last one loaded, through `page` (in parallel), and appends them. */
  const loadThrough = async (page: number): Promise<PhotoItem[]> => {
    const start = feedRef.current;
    if (!start || start.page >= Math.min(page, start.totalPages) || fetching.current) return start?.photos ?? [];
    fetching.current = true;
    setLoadingMore(true);
    try {
      const last = Math.min(page, start.totalPages);
      const numbers = Array.from({ length: last - start.page }, (_, i) => start.page + 1 + i);
      const pages = await Promise.all(numbers.map((n) => getPage(n)));
      const end = pages[pages.length - 1] as FolderPage;
      const next: Feed = {
        photos: [...start.photos, ...pages.flatMap((d) => d.photos)],
        page: last,
        totalPages: end.totalPages,
        totalCount: end.totalCount,
      };
      feedRef.current = next;
      setFeed(next);
      return next.photos;
    } catch (err) {
      setError(err as ApiError);
      return start.photos;
    } finally {
      fetching.current = false;
      setLoadingMore(false);
    }
  };

  const more = async () => {
    const f = feedRef.current;
    if (f) await loadThrough(f.page + 1);
  };

  /** Loads the pages shown so far again (new photos take their place in shooting order). */
  const reload = async () => {
    const f = feedRef.current;
    if (!f || fetching.current) return;
    fetching.current = true;
    try {
      const numbers = Array.from({ length: Math.max(1, f.page) }, (_, i) => i + 1);
      const pages = await Promise.all(numbers.map((n) => getPage(n)));
      const end = pages[pages.length - 1] as FolderPage;
      const next: Feed = {
        photos: pages.flatMap((d) => d.photos),
        page: numbers.length,
        totalPages: end.totalPages,
        totalCount: end.totalCount,
      };
      feedRef.current = next;
      setFeed(next);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      fetching.current = false;
    }
  };

  return { feed, feedRef, error, setError, loadingMore, loadThrough, more, reload };
}

/**
 * Infinite scroll: `more` runs when the element this returns (placed after the grid) comes
 * within 600 px of the screen; observed once `ready` (the first page is there).
 */
export function useNearEnd(more: () => void, ready: boolean) {
  const sentinel = useRef<HTMLDivElement>(null);
  const moreRef = useRef(more);
  moreRef.current = more;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && moreRef.current(), {
      rootMargin: '600px 0px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ready]);
  return sentinel;
}
