/**
 * An event's photos, a day's or a session's: breadcrumb, day/session navigation, "find photo #",
 * the grid (50 at a time, more as the visitor scrolls), and the lightbox.
 *
 * The page lives at the gallery API's own URL (`/event/<code>/<day>/<session>`): the server
 * answers a browser navigation with this app and the app's fetch with JSON.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { SearchIcon } from '../components/icons.js';
import { Lightbox, type LightboxPhoto } from '../components/Lightbox.js';
import { type GridPhoto, PhotoGrid } from '../components/PhotoGrid.js';
import { type ApiError, enc, getJson, request } from '../lib/api.js';
import { formatDate, plural } from '../lib/format.js';
import { cached, closedMessage, useEventConfig, useFetch, whenIdle } from '../lib/hooks.js';
import { eventPath, pendingScroll } from '../lib/router.js';
import type { EventPage, FolderPage, PhotoItem } from '../lib/types.js';

const PAGE_SIZE = 48;

type Feed = { photos: PhotoItem[]; page: number; totalPages: number; totalCount: number };

/** Photos loaded so far per gallery path, so "back" returns to the same place in a long list. */
const feeds = new Map<string, Feed>();

let markedInteractive = false;

export default function Gallery({ code, day, session }: { code: string; day?: string; session?: string }) {
  const path = eventPath(code, day, session);
  const isEventPage = day === undefined;
  // Event name, status and folders come with the event page; folder pages ask for them apart.
  const meta = useFetch<EventPage>(`${eventPath(code)}?limit=${isEventPage ? PAGE_SIZE : 1}`);
  const event = meta.data?.event;
  useTitle([session, day, event?.name ?? code].filter(Boolean).join(' · '));

  const [feed, setFeed] = useState<Feed | undefined>(() => feeds.get(path));
  const [error, setError] = useState<ApiError | undefined>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [open, setOpen] = useState<{ photos: LightboxPhoto[]; index: number } | null>(null);

  // Page 1: the event page has it in `meta`; folder pages fetch their own (in parallel with `meta`).
  useEffect(() => {
    if (feed || !isEventPage) return;
    if (meta.data) {
      const d = meta.data;
      setFeed({ photos: d.photos, page: 1, totalPages: d.totalPages, totalCount: d.totalCount });
    } else if (meta.error) setError(meta.error);
  }, [isEventPage, meta.data, meta.error, feed]);
  useEffect(() => {
    if (feed || isEventPage) return;
    const ctl = new AbortController();
    getJson<FolderPage>(`${path}?page=1&limit=${PAGE_SIZE}`, { signal: ctl.signal }).then(
      (d) => setFeed({ photos: d.photos, page: 1, totalPages: d.totalPages, totalCount: d.totalCount }),
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
  useEventConfig(wantConfig ? code : null);

  const more = async () => {
    if (!feed || loadingMore || feed.page >= feed.totalPages) return;
    setLoadingMore(true);
    try {
      const d = await getJson<FolderPage>(`${path}?page=${feed.page + 1}&limit=${PAGE_SIZE}`);
      setFeed(
        (f) =>
          f && {
            photos: [...f.photos, ...d.photos],
            page: f.page + 1,
            totalPages: d.totalPages,
            totalCount: d.totalCount,
          },
      );
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setLoadingMore(false);
    }
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
    label: p.metadata.day ? `${p.metadata.day} · ${p.metadata.session}` : '',
  });
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
        </div>
        <FindPhoto
          code={code}
          photos={feed?.photos ?? []}
          onFound={(p) => setOpen({ photos: [p], index: 0 })}
          onFoundInList={(i) => setOpen({ photos: (feed?.photos ?? []).map(toLightbox), index: i })}
          toLightbox={toLightbox}
        />
      </div>

      {event && !event.status.active && (
        <Notice kind="warn" role="status">
          <strong>Ordering is closed.</strong> {closedMessage(event.status)} You can still browse the photos.
        </Notice>
      )}
      {event?.status.active && event.status.deadline && (
        <p class="muted small">
          Order prints until{' '}
          {new Date(event.status.deadline).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.
        </p>
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
      {feed && feed.photos.length === 0 && <Notice>No photos here yet.</Notice>}
      {feed && feed.photos.length > 0 && (
        <PhotoGrid
          photos={gridPhotos}
          eager={6}
          onOpen={(i) => setOpen({ photos: feed.photos.map(toLightbox), index: i })}
        />
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
          onClose={() => setOpen(null)}
        />
      )}
    </main>
  );
}

/**
 * "Find photo #": the photos on screen first, then the image service, which knows every number
 * of the event. (The gallery API has no lookup by number: a number that is not on a loaded page
 * opens on its own, without its place in the list.)
 */
function FindPhoto({
  code,
  photos,
  onFound,
  onFoundInList,
  toLightbox,
}: {
  code: string;
  photos: PhotoItem[];
  onFound: (p: LightboxPhoto) => void;
  onFoundInList: (index: number) => void;
  toLightbox: (p: PhotoItem) => LightboxPhoto;
}) {
  const [value, setValue] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const eventMeta =
    cached<EventPage>(`${eventPath(code)}?limit=1`) ?? cached<EventPage>(`${eventPath(code)}?limit=${PAGE_SIZE}`);

  const submit = async (e: Event) => {
    e.preventDefault();
    const wanted = value.trim().replace(/^#/, '');
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
      const res = await request(`/api/proxy-image/${enc(code)}/${enc(wanted)}`, { method: 'HEAD' });
      if (res.ok) {
        onFound(
          toLightbox({
            id: wanted,
            number: wanted.replace(/^0+(?=.)/, ''),
            thumbnail: `/api/proxy-image/${enc(code)}/${enc(wanted)}`,
            fullSize: `/api/preview/${enc(code)}/${enc(wanted)}`,
            metadata: { day: '', session: '', width: 0, height: 0 },
          }),
        );
      }
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
            aria-describedby={message ? 'find-message' : undefined}
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
      </form>
    </search>
  );
}
