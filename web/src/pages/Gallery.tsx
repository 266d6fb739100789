/**
 * An event's photos, a day's or a session's: breadcrumb, day/session navigation, "find photo #",
 * the grid (48 at a time, more as the visitor scrolls), and the lightbox.
 *
 * The page lives at the gallery API's own URL (`/event/<code>/<day>/<session>`): the server
 * answers a browser navigation with this app and the app's fetch with JSON. `?photo=<number>`
 * opens that photo in the viewer, in its place in the list (the pages up to it are loaded).
 *
 * A photo has a link of its own, `/event/<code>/photo/<number>`: opening a photo puts it in the
 * address bar (a history entry that remembers this list), "back" closes the viewer, and moving
 * to the next photo replaces it. Opened from a shared link, the photo shows over its event's
 * photos, and closing it leaves the event page (docs/contract.md, "Gallery").
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { FindMe } from '../components/FindMe.js';
import { SearchIcon } from '../components/icons.js';
import { Lightbox, type LightboxPhoto } from '../components/Lightbox.js';
import { OffersNotice } from '../components/Offers.js';
import { type GridPhoto, localSrcset, PhotoGrid } from '../components/PhotoGrid.js';
import { type ApiError, api, apiUrl, enc, localUrl, ok } from '../lib/api.js';
import type {
  GalleryEventPage as EventPage,
  LiveCount,
  GalleryPhoto as PhotoItem,
  PhotoLookup,
} from '../lib/api-schema.js';
import { formatDate, formatDeadline, plural } from '../lib/format.js';
import { type FolderPage, folderUrl, getFolder } from '../lib/gallery-api.js';
import { cached, closedMessage, useApi, useEventConfig, whenIdle } from '../lib/hooks.js';
import { takePageData } from '../lib/page-data.js';
import { eventPath, navigate, openedFromList, pendingScroll, photoPath, useLocation } from '../lib/router.js';

type PhotoPlace = PhotoLookup['position']['event'];

const PAGE_SIZE = 48;

/** The photo lookup, with pages of the app's own size, so its `page` is a page of the feed. */
const lookUp = (code: string, ref: string) =>
  ok(
    api.GET('/api/photos/{event}/{photo}', {
      params: { path: { event: code, photo: ref }, query: { limit: PAGE_SIZE } },
    }),
  );

/** The event's own list (its name, status and folders come with it), asked for by the URL it has in the cache. */
const eventList = (code: string, query: { featured?: '1'; limit: number }) => ({ path: { eventCode: code }, query });

type Feed = { photos: PhotoItem[]; page: number; totalPages: number; totalCount: number };

/** Page 1 of a list as the feed starts with it. */
const firstPage = (d: EventPage | FolderPage): Feed => ({
  photos: d.photos,
  page: 1,
  totalPages: d.totalPages,
  totalCount: d.totalCount,
});

/** A folder's page 1 URL, as the app asks for it (and the server's HTML may carry it). */

/** Photos loaded so far per gallery path, so "back" returns to the same place in a long list. */
const feeds = new Map<string, Feed>();

let markedInteractive = false;

type GalleryProps = {
  code: string;
  day?: string;
  session?: string;
  /** The photo of a photo link (`/event/<code>/photo/<number>`), shown over this list. */
  photo?: string | undefined;
};

/** Another search (or none) is another list: its own state, from its own first page. */
export default function Gallery(props: GalleryProps) {
  const searched = useLocation().query.get('q')?.trim() ?? '';
  return <GalleryList key={searched} {...props} />;
}

function GalleryList({ code, day, session, photo: linkedPhoto }: GalleryProps) {
  const folderPath = eventPath(code, day, session);
  const isEventPage = day === undefined;
  // `?q=`: a search of the photographer's keywords, captions and names (the server answers it).
  const searched = useLocation().query.get('q')?.trim() ?? '';
  /** The feed's key and the list's URL without paging: the folder, or a search within it. */
  const path = searched ? `${folderPath}?q=${enc(searched)}` : folderPath;
  const folder = { code, day, session };
  const pageQuery = (n: number) =>
    searched ? { q: searched, page: n, limit: PAGE_SIZE } : { page: n, limit: PAGE_SIZE };
  const getPage = (n: number, signal?: AbortSignal) => getFolder(folder, pageQuery(n), signal);
  // Event name, status and folders come with the event page; folder pages ask for them apart.
  const meta = useApi('/event/{eventCode}', eventList(code, { limit: isEventPage ? PAGE_SIZE : 1 }));
  const event = meta.data?.event;
  useTitle([session, day, event?.name ?? code].filter(Boolean).join(' · '));

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
  const [open, setOpenState] = useState<{ photos: LightboxPhoto[]; index: number } | null>(null);
  /**
   * Shows a photo in the viewer and puts its link in the address bar: a new history entry when
   * the viewer opens (so "back" closes it), the same entry when it moves to another photo.
   */
  const setOpen = (next: { photos: LightboxPhoto[]; index: number } | null) => {
    setOpenState(next);
    const shown = next?.photos[next.index];
    if (!shown) return;
    navigate(photoPath(code, shown.number), {
      replace: open !== null || linkedPhoto !== undefined,
      keepScroll: true,
      state: { list: path },
    });
  };
  /** Closes the viewer: back to the list's own entry, or (opened from a shared link) to the list. */
  const closeViewer = () => {
    setOpenState(null);
    if (openedFromList() === path && history.length > 1 && linkedPhoto !== undefined) history.back();
    else navigate(path, { replace: true, keepScroll: true });
  };
  // The latest feed and whether pages are being fetched, for code that runs between renders
  // (scrolling and "find photo #" must not append the same page twice).
  const feedRef = useRef(feed);
  feedRef.current = feed;
  const fetching = useRef(false);
  const wantedPhoto = useLocation().query.get('photo');

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

  // Prices for the lightbox, fetched when the page has settled.
  const [wantConfig, setWantConfig] = useState(false);
  useEffect(() => whenIdle(() => setWantConfig(true)), []);
  const offers = useEventConfig(wantConfig ? code : null);

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

  // Live: the event's photo count from `/event/<code>/live`; photos copied in meanwhile are
  // announced ("N new photos") and loaded when tapped, never pushed under the visitor's thumb.
  const [liveCount, setLiveCount] = useState<number | undefined>();
  const baseCount = useRef<number | undefined>(undefined);
  // The stream holds one of the browser's few connections: opened once the first photos are in.
  // The count to compare with is the one the page was built with.
  const shownCount = useRef<number | undefined>(undefined);
  shownCount.current = meta.data?.totalCount;
  useEffect(() => {
    if (!('EventSource' in window)) return;
    let source: EventSource | undefined;
    let left = false;
    whenIdle(() => {
      if (left) return;
      source = new EventSource(`${eventPath(code)}/live`);
      source.addEventListener('photos', (e) => {
        const { totalCount } = JSON.parse((e as MessageEvent<string>).data) as LiveCount;
        baseCount.current ??= shownCount.current ?? totalCount;
        setLiveCount(totalCount);
      });
    });
    return () => {
      left = true;
      source?.close();
    };
  }, [code]);
  const newPhotos = liveCount !== undefined && baseCount.current !== undefined ? liveCount - baseCount.current : 0;

  /** Loads the pages shown so far again (new photos take their place in shooting order). */
  const reload = async () => {
    const f = feedRef.current;
    baseCount.current = liveCount;
    setLiveCount(liveCount);
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

  /** "Jump to time": the page holding the first photo shot at or after HH:MM, then that photo. */
  const jumpTo = async (hhmm: string): Promise<boolean> => {
    const query = { at: hhmm, limit: PAGE_SIZE, ...(day !== undefined && session === undefined ? { day } : {}) };
    const target = await ok(api.GET('/event/{eventCode}', { params: { path: { eventCode: code }, query } }));
    const photos = isEventPage ? await loadThrough(target.currentPage) : (feedRef.current?.photos ?? []);
    const index = photos.findIndex((p) => (p.metadata.takenAt ?? '').slice(11, 16) >= hhmm);
    const tile = document.querySelectorAll('.grid .tile')[index === -1 ? photos.length - 1 : index];
    tile?.scrollIntoView({ block: 'center' });
    (tile?.querySelector('.tile-open') as HTMLElement | null)?.focus({ preventScroll: true });
    return index !== -1;
  };

  // Infinite scroll: the next page loads when the end of the grid comes near.
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
  }, [feed !== undefined]);

  const eventName = event?.name ?? code;
  const toLightbox = (p: PhotoItem): LightboxPhoto => ({
    event: code,
    eventName,
    number: p.number,
    thumbnail: p.thumbnail,
    fullSize: p.fullSize,
    label: [p.metadata.day ? `${p.metadata.day} · ${p.metadata.session}` : '', credit(p)].filter(Boolean).join(' · '),
  });

  /** Where this page's list has the photo; undefined when it is in another day or session. */
  const placeHere = (found: PhotoLookup): PhotoPlace | undefined => {
    if (isEventPage) return found.position.event;
    if (found.folder.day !== day) return undefined;
    if (session === undefined) return found.position.day;
    return found.folder.session === session ? found.position.session : undefined;
  };

  /**
   * Opens a photo the lookup found: in this page's list when it is in it (loading the pages up
   * to it first, so "next" and "previous" walk the list), else on its own. Says which it did.
   */
  const openFound = async (found: PhotoLookup): Promise<'here' | 'elsewhere'> => {
    const place = placeHere(found);
    if (place) {
      const loaded = feedRef.current?.photos ?? [];
      const photos = place.index < loaded.length ? loaded : await loadThrough(place.page);
      const i = photos.findIndex((p) => p.id === found.photo.id);
      if (i >= 0) {
        setOpen({ photos: photos.map(toLightbox), index: i });
        return 'here';
      }
    }
    setOpen({ photos: [toLightbox(found.photo)], index: 0 });
    return place ? 'here' : 'elsewhere';
  };

  // The photo link changed under the viewer: "back" (no photo any more: close it), or a link
  // to another photo (open that one, once the first page is here).
  const openNumber = open ? open.photos[open.index]?.number : undefined;
  useEffect(() => {
    if (linkedPhoto === undefined) {
      if (open) setOpenState(null);
      return;
    }
    if (!feed || linkedPhoto === openNumber || linkedPhoto.replace(/^#/, '') === openNumber) return;
    lookUp(code, linkedPhoto).then(
      (found) => openFound(found),
      () => navigate(path, { replace: true, keepScroll: true }), // gone (or never was): the list
    );
  }, [linkedPhoto, feed !== undefined]);

  // `?photo=<number>` (from "find photo #" on another page): open it once the first page is here,
  // then drop the parameter, so "back" to this page does not open it again.
  const openedFromQuery = useRef(false);
  useEffect(() => {
    if (!wantedPhoto || !feed || openedFromQuery.current) return;
    openedFromQuery.current = true;
    lookUp(code, wantedPhoto).then(
      (found) => openFound(found),
      () => undefined, // unknown by now (removed): the page shows as usual
    );
    navigate(location.pathname, { replace: true, keepScroll: true });
  }, [wantedPhoto, feed !== undefined]);

  const gridPhotos: GridPhoto[] = useMemo(
    () =>
      (feed?.photos ?? []).map((p) => ({
        event: code,
        number: p.number,
        thumbnail: p.thumbnail,
        label: isEventPage ? `${p.metadata.day}, ${p.metadata.session}` : session ? '' : p.metadata.session,
      })),
    [feed, code, isEventPage, session],
  );

  if (meta.error?.status === 404 || error?.status === 404) {
    return (
      <main class="page" id="main">
        <h1>Not found</h1>
        <ErrorBox error={(error ?? meta.error) as ApiError} />
        <p>
          <a href="/">See all events</a>
        </p>
      </main>
    );
  }

  const dayFolder = meta.data?.folders.find((f) => f.name === day);
  const title = session ?? day ?? eventName;
  const count = feed?.totalCount;

  return (
    <main class="page" id="main">
      <nav class="crumbs" aria-label="Breadcrumb">
        <ol>
          <li>
            <a href="/">Events</a>
          </li>
          {day !== undefined && (
            <li>
              <a href={eventPath(code)}>{eventName}</a>
            </li>
          )}
          {session !== undefined && (
            <li>
              <a href={eventPath(code, day)}>{day}</a>
            </li>
          )}
        </ol>
      </nav>
      <div class="gallery-head">
        <div>
          <h1>{title}</h1>
          <p class="muted">
            {[
              isEventPage && event?.date ? formatDate(event.date) : '',
              count !== undefined ? plural(count, 'photo') : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {isEventPage && (
            <p class="muted code-callout">
              <a href="/code">Get a photo code</a> to find the photos taken of you.
            </p>
          )}
        </div>
        <SearchPhotos folderPath={folderPath} searched={searched} />
        <FindPhoto
          code={code}
          photos={feed?.photos ?? []}
          onFoundInList={(i) => setOpen({ photos: (feed?.photos ?? []).map(toLightbox), index: i })}
          onLookedUp={openFound}
        />
      </div>

      {newPhotos > 0 && (
        <div class="live-banner" role="status">
          <button type="button" class="btn btn-primary" onClick={reload}>
            {plural(newPhotos, 'new photo')} · Show
          </button>
        </div>
      )}
      {isEventPage && !searched && feed && feed.photos.length > 0 && <JumpToTime onJump={jumpTo} />}
      {isEventPage && !searched && (
        <FeaturedRow code={code} onOpen={(photos, index) => setOpen({ photos: photos.map(toLightbox), index })} />
      )}
      {searched && feed && (
        <p class="search-summary" role="status">
          {plural(feed.totalCount, 'photo')} for “{searched}” · <a href={folderPath}>Clear search</a>
        </p>
      )}

      {event && !event.status.active && (
        <Notice kind="warn" role="status">
          <strong>Ordering is closed.</strong> {closedMessage(event.status)} You can still browse the photos.
        </Notice>
      )}
      {isEventPage && event?.status.active && offers.data && <OffersNotice config={offers.data} />}
      {isEventPage && offers.data?.selfieSearch && (
        <FindMe
          code={code}
          onOpen={(photos, index) => setOpen({ photos: photos.map(toLightbox), index })}
          toGrid={(p) => ({ event: code, number: p.number, thumbnail: p.thumbnail, srcset: p.srcset, label: '' })}
        />
      )}
      {event?.status.active && event.status.deadline && (
        <p class="muted small">Order prints until {formatDeadline(event.status.deadline)}.</p>
      )}

      {meta.data && meta.data.folders.length > 0 && (
        <nav class="folders" aria-label="Days and sessions">
          <ul class="chips">
            <li>
              <a class="chip" href={eventPath(code)} aria-current={isEventPage ? 'page' : undefined}>
                All photos
              </a>
            </li>
            {meta.data.folders.map((f) => (
              <li key={f.name}>
                <a
                  class="chip"
                  href={eventPath(code, f.name)}
                  aria-current={day === f.name && session === undefined ? 'page' : day === f.name ? 'true' : undefined}
                >
                  {f.name}
                </a>
              </li>
            ))}
          </ul>
          {dayFolder && dayFolder.sessions.length > 0 && (
            <ul class="chips chips-sub" aria-label={`Sessions of ${dayFolder.name}`}>
              {dayFolder.sessions.map((s) => (
                <li key={s.name}>
                  <a
                    class="chip chip-sub"
                    href={eventPath(code, dayFolder.name, s.name)}
                    aria-current={session === s.name ? 'page' : undefined}
                  >
                    {s.name} <span class="chip-count">{s.photoCount}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </nav>
      )}

      {error && !feed && <ErrorBox error={error} onRetry={() => location.reload()} />}
      {!feed && !error && <Spinner label="Loading photos…" />}
      {feed && feed.photos.length === 0 && (
        <Notice>{searched ? `No photo matches “${searched}”.` : 'No photos here yet.'}</Notice>
      )}
      {feed && feed.photos.length > 0 && (
        <PhotoGrid photos={gridPhotos} onOpen={(i) => setOpen({ photos: feed.photos.map(toLightbox), index: i })} />
      )}
      <div ref={sentinel} />
      {feed && feed.page < feed.totalPages && (
        <div class="more">
          <p class="muted small">
            Showing {feed.photos.length} of {feed.totalCount}
          </p>
          <button type="button" class="btn btn-secondary" onClick={more} disabled={loadingMore}>
            {loadingMore ? 'Loading…' : 'Show more photos'}
          </button>
        </div>
      )}
      {error && feed && <ErrorBox error={error} onRetry={more} />}

      {open && (
        <Lightbox
          photos={open.photos}
          index={open.index}
          onIndex={(index) => setOpen({ ...open, index })}
          onClose={closeViewer}
        />
      )}
    </main>
  );
}

/** The photographer's credit of a photo, when the photographer's metadata names one. */
function credit(p: PhotoItem): string {
  return p.metadata.photographer ? `Photo: ${p.metadata.photographer}` : '';
}

/**
 * Search by word: a character, a series, a caption's word, the photographer, or a number; the
 * list below becomes the matches (`?q=` in the address, so it can be shared and "back" works).
 */
function SearchPhotos({ folderPath, searched }: { folderPath: string; searched: string }) {
  const [value, setValue] = useState(searched);
  useEffect(() => setValue(searched), [searched]);
  const submit = (e: Event) => {
    e.preventDefault();
    const q = value.trim();
    navigate(q ? `${folderPath}?q=${enc(q)}` : folderPath);
  };
  return (
    <search class="find">
      <form onSubmit={submit}>
        <label for="search-photos">Search photos</label>
        <div class="find-row">
          <input
            id="search-photos"
            type="search"
            autoComplete="off"
            placeholder="Character, series, photographer…"
            value={value}
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="btn btn-secondary btn-icon-text">
            <SearchIcon size={18} /> Search
          </button>
        </div>
      </form>
    </search>
  );
}

const FEATURED = 12;

/** The photographer's picks (`?featured=1`: rated at least the event's featuredRating), in a row. */
function FeaturedRow({ code, onOpen }: { code: string; onOpen: (photos: PhotoItem[], index: number) => void }) {
  const featured = useApi('/event/{eventCode}', eventList(code, { featured: '1', limit: FEATURED }));
  const photos = featured.data?.photos ?? [];
  if (photos.length === 0) return null;
  return (
    <section class="featured" aria-labelledby="featured-title">
      <h2 id="featured-title" class="featured-title">
        Featured
      </h2>
      <ul class="featured-row">
        {photos.map((p, i) => (
          <li key={p.id}>
            <button type="button" class="featured-tile" onClick={() => onOpen(photos, i)}>
              <img
                src={localUrl(p.thumbnail)}
                srcset={localSrcset(p.srcset)}
                alt={`Featured: #${p.number}`}
                loading="lazy"
              />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * "Find photo #": the photos on screen first, then the photo lookup, which knows every number of
 * the event and where it is. A photo of this page's list opens in its place (the pages up to it
 * load first); one of another day or session opens on its own, with a link to its session.
 */
function FindPhoto({
  code,
  photos,
  onFoundInList,
  onLookedUp,
}: {
  code: string;
  photos: PhotoItem[];
  onFoundInList: (index: number) => void;
  onLookedUp: (found: PhotoLookup) => Promise<'here' | 'elsewhere'>;
}) {
  const [value, setValue] = useState('');
  const [message, setMessage] = useState('');
  const [elsewhere, setElsewhere] = useState<PhotoLookup | null>(null);
  const [busy, setBusy] = useState(false);
  const eventMeta =
    cached<EventPage>(apiUrl('/event/{eventCode}', eventList(code, { limit: 1 }))) ??
    cached<EventPage>(apiUrl('/event/{eventCode}', eventList(code, { limit: PAGE_SIZE })));

  const submit = async (e: Event) => {
    e.preventDefault();
    const wanted = value.trim().replace(/^#\s*/, '');
    setElsewhere(null);
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(wanted)) {
      setMessage('Type the number printed on the photo, e.g. 12.');
      return;
    }
    setMessage('');
    const norm = (n: string) => n.replace(/^0+(?=.)/, '').toLowerCase();
    const i = photos.findIndex((p) => norm(p.number) === norm(wanted));
    if (i >= 0) {
      onFoundInList(i);
      return;
    }
    setBusy(true);
    try {
      const found = await lookUp(code, wanted);
      if ((await onLookedUp(found)) === 'elsewhere') setElsewhere(found);
    } catch (err) {
      const e2 = err as ApiError;
      setMessage(
        e2.status === 404 ? `There is no photo #${wanted} in ${eventMeta?.event.name ?? 'this event'}.` : e2.message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <search class="find">
      <form onSubmit={submit}>
        <label for="find-number">Find photo #</label>
        <div class="find-row">
          <input
            id="find-number"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 12"
            value={value}
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
            aria-describedby={message ? 'find-message' : elsewhere ? 'find-where' : undefined}
          />
          <button type="submit" class="btn btn-primary btn-icon-text" disabled={busy}>
            <SearchIcon size={18} /> Find
          </button>
        </div>
        {message && (
          <p id="find-message" class="field-error" role="alert">
            {message}
          </p>
        )}
        {elsewhere && (
          <p id="find-where" class="small find-where" role="status">
            Photo #{elsewhere.photo.number} is in {elsewhere.folder.day} · {elsewhere.folder.session}.{' '}
            <a href={`${elsewhere.folder.path}?photo=${enc(elsewhere.photo.number)}`}>See it there</a>
          </p>
        )}
      </form>
    </search>
  );
}

/** "Jump to time": a time of day (the camera clock), answered by the event page's `?at=`. */
function JumpToTime({ onJump }: { onJump: (hhmm: string) => Promise<boolean> }) {
  const [value, setValue] = useState('');
  const [message, setMessage] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!/^\d{2}:\d{2}$/.test(value)) {
      setMessage('Pick a time, e.g. 14:30.');
      return;
    }
    setMessage('');
    try {
      if (!(await onJump(value))) setMessage(`No photo was taken at ${value} or later: here are the last ones.`);
    } catch (err) {
      setMessage((err as ApiError).message);
    }
  };
  return (
    <form class="jump-time" onSubmit={submit}>
      <label for="jump-time">Jump to time</label>
      <div class="find-row">
        <input
          id="jump-time"
          type="time"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          aria-describedby={message ? 'jump-message' : undefined}
        />
        <button type="submit" class="btn btn-secondary">
          Go
        </button>
      </div>
      {message && (
        <p id="jump-message" class="small" role="status">
          {message}
        </p>
      )}
    </form>
  );
}
