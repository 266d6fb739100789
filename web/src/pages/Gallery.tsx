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
import type { ComponentProps } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { FindMe } from '../components/FindMe.js';
import { SearchIcon } from '../components/icons.js';
import { Lightbox } from '../components/Lightbox.js';
import { OffersNotice } from '../components/Offers.js';
import { type GridPhoto, PhotoGrid } from '../components/PhotoGrid.js';
import { type ApiError, api, apiUrl, enc, localUrl, ok } from '../lib/api.js';
import type {
  EventConfig,
  GalleryEventPage as EventPage,
  GalleryPhoto as PhotoItem,
  PhotoLookup,
} from '../lib/api-schema.js';
import { formatDate, formatDeadline, plural } from '../lib/format.js';
import { cached, closedMessage, useApi, useEventConfig, whenIdle } from '../lib/hooks.js';
import { carriesPageData } from '../lib/page-data.js';
import { eventPath, navigate, useLocation } from '../lib/router.js';
import { TILE_SIZES, tileSrc, tileSrcset } from '../lib/tiles.js';
import { type Feed, PAGE_SIZE, useFeed, useNearEnd } from './gallery/feed.js';
import { useLiveCount } from './gallery/live.js';
import { lookUp, useViewer } from './gallery/viewer.js';

/** The event's own list (its name, status and folders come with it), asked for by the URL it has in the cache. */
const eventList = (code: string, query: { featured?: '1'; limit: number }) => ({ path: { eventCode: code }, query });

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
  // Event name, status and folders come with the event page; folder pages ask for them apart.
  const meta = useApi('/event/{eventCode}', eventList(code, { limit: isEventPage ? PAGE_SIZE : 1 }));
  const event = meta.data?.event;
  useTitle([session, day, event?.name ?? code].filter(Boolean).join(' · '));

  const {
    feed,
    feedRef,
    error,
    loadingMore,
    loadThrough,
    more,
    reload: reloadPages,
  } = useFeed(folder, searched, path, meta);

  // Prices for the lightbox, fetched when the page has settled.
  const [wantConfig, setWantConfig] = useState(false);
  useEffect(() => whenIdle(() => setWantConfig(true)), []);
  const offers = useEventConfig(wantConfig ? code : null);

  const { newPhotos, acknowledge } = useLiveCount(code, meta.data?.totalCount);
  /** Shows the new photos: the pages shown so far, loaded again (they take their place in shooting order). */
  const reload = () => {
    acknowledge();
    void reloadPages();
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
  const sentinel = useNearEnd(more, feed !== undefined);

  const eventName = event?.name ?? code;
  const viewer = { code, day, session, path, linkedPhoto, eventName, feed, feedRef, loadThrough };
  const { open, setOpen, closeViewer, toLightbox, openFound } = useViewer(viewer);

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
    return <NotFound error={(error ?? meta.error) as ApiError} />;
  }

  return (
    <main class="page" id="main">
      <Crumbs code={code} day={day} session={session} eventName={eventName} />
      <div class="gallery-head">
        <GalleryTitle
          title={session ?? day ?? eventName}
          date={isEventPage ? event?.date : undefined}
          count={feed?.totalCount}
          isEventPage={isEventPage}
        />
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

      <EventNotices
        code={code}
        event={event}
        isEventPage={isEventPage}
        offers={offers.data}
        onOpen={(photos, index) => setOpen({ photos: photos.map(toLightbox), index })}
      />

      {meta.data && meta.data.folders.length > 0 && (
        <FolderChips code={code} day={day} session={session} folders={meta.data.folders} />
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
      {feed && feed.page < feed.totalPages && <MorePhotos feed={feed} loadingMore={loadingMore} more={more} />}
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

/** The list's title: the session, day or event, the event's date and how many photos. */
function GalleryTitle(props: {
  title: string;
  date: string | null | undefined;
  count: number | undefined;
  isEventPage: boolean;
}) {
  const { title, date, count, isEventPage } = props;
  return (
    <div>
      <h1>{title}</h1>
      <p class="muted">
        {[date ? formatDate(date) : '', count !== undefined ? plural(count, 'photo') : ''].filter(Boolean).join(' · ')}
      </p>
      {isEventPage && (
        <p class="muted code-callout">
          <a href="/code">Get a photo code</a> to find the photos taken of you.
        </p>
      )}
    </div>
  );
}

function NotFound({ error }: { error: ApiError }) {
  return (
    <main class="page" id="main">
      <h1>Not found</h1>
      <ErrorBox error={error} />
      <p>
        <a href="/">See all events</a>
      </p>
    </main>
  );
}

/** How many are shown, and the button for the next page (scrolling near the end loads it too). */
function MorePhotos({ feed, loadingMore, more }: { feed: Feed; loadingMore: boolean; more: () => void }) {
  return (
    <div class="more">
      <p class="muted small">
        Showing {feed.photos.length} of {feed.totalCount}
      </p>
      <button type="button" class="btn btn-secondary" onClick={more} disabled={loadingMore}>
        {loadingMore ? 'Loading…' : 'Show more photos'}
      </button>
    </div>
  );
}

/** Events › the event › the day, above a day's or a session's photos. */
function Crumbs({
  code,
  day,
  session,
  eventName,
}: {
  code: string;
  day?: string | undefined;
  session?: string | undefined;
  eventName: string;
}) {
  return (
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
  );
}

type Folders = EventPage['folders'];

/** The event's days, and the chosen day's sessions with their counts. */
function FolderChips({
  code,
  day,
  session,
  folders,
}: {
  code: string;
  day?: string | undefined;
  session?: string | undefined;
  folders: Folders;
}) {
  const isEventPage = day === undefined;
  const dayFolder = folders.find((f) => f.name === day);
  return (
    <nav class="folders" aria-label="Days and sessions">
      <ul class="chips">
        <li>
          <a class="chip" href={eventPath(code)} aria-current={isEventPage ? 'page' : undefined}>
            All photos
          </a>
        </li>
        {folders.map((f) => (
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
  );
}

/** Whether the event sells (closed, its offers, its deadline), and the selfie search where it has one. */
function EventNotices({
  code,
  event,
  isEventPage,
  offers,
  onOpen,
}: {
  code: string;
  event: EventPage['event'] | undefined;
  isEventPage: boolean;
  offers: EventConfig | undefined;
  onOpen: ComponentProps<typeof FindMe>['onOpen'];
}) {
  return (
    <>
      {event && !event.status.active && (
        <Notice kind="warn" role="status">
          <strong>Ordering is closed.</strong> {closedMessage(event.status)} You can still browse the photos.
        </Notice>
      )}
      {isEventPage && event?.status.active && offers && <OffersNotice config={offers} />}
      {isEventPage && offers?.selfieSearch && (
        <FindMe
          code={code}
          onOpen={onOpen}
          toGrid={(p) => ({ event: code, number: p.number, thumbnail: p.thumbnail, srcset: p.srcset, label: '' })}
        />
      )}
      {event?.status.active && event.status.deadline && (
        <p class="muted small">Order prints until {formatDeadline(event.status.deadline)}.</p>
      )}
    </>
  );
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

/** The featured row's length (src/routes/gallery/page-document.ts carries this URL). */
const FEATURED = 12;

/**
 * The photographer's picks (`?featured=1`: rated at least the event's featuredRating), in a row
 * above the grid, kept out of the way of the grid's first screen (test/web/tiles.test.ts):
 * - its answer comes with the page's HTML, so the row is laid out in the same render as the
 *   grid and moves nothing; where the HTML carries none (an in-app navigation), it is asked
 *   for once the page is idle, and its space is held meanwhile;
 * - its images are given their `src` only once the page has loaded (the first screen's tiles
 *   included), and they are the grid's own tiles (same `srcset` and `sizes`), so the browser
 *   fetches each once for both.
 */
function FeaturedRow({ code, onOpen }: { code: string; onOpen: (photos: PhotoItem[], index: number) => void }) {
  const params = eventList(code, { featured: '1', limit: FEATURED });
  const url = apiUrl('/event/{eventCode}', params);
  const [wanted, setWanted] = useState(() => carriesPageData(url));
  const [showImages, setShowImages] = useState(false);
  useEffect(() => {
    let left = false;
    whenIdle(() => {
      if (left) return;
      setWanted(true);
      setShowImages(true);
    });
    return () => {
      left = true;
    };
  }, [url]);
  const featured = useApi(wanted ? '/event/{eventCode}' : null, params);
  const photos = featured.data?.photos ?? [];
  const pending = featured.data === undefined && featured.error === undefined;
  if (!pending && photos.length === 0) return null;
  return (
    <section class="featured" aria-labelledby="featured-title" aria-busy={pending}>
      <h2 id="featured-title" class="featured-title">
        Featured
      </h2>
      <ul class="featured-row">
        {photos.map((p, i) => {
          const thumbnail = localUrl(p.thumbnail);
          return (
            <li key={p.id}>
              <button type="button" class="featured-tile" onClick={() => onOpen(photos, i)}>
                <img
                  src={showImages ? tileSrc(thumbnail) : undefined}
                  srcset={showImages ? tileSrcset(thumbnail) : undefined}
                  sizes={TILE_SIZES}
                  alt={`Featured: #${p.number}`}
                  width={96}
                  height={96}
                  decoding="async"
                />
              </button>
            </li>
          );
        })}
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
