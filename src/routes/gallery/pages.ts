/**
 * Performance machinery for `npm run bench -- gallery` (cached gallery pages ≥ 0.7× a bare
 * server sending the same bytes).
 *
 * Gallery pages built from the in-memory library, and the cache of their serialised bytes.
 * Everything a page depends on is in the cache key, so a cached page is never stale and
 * nothing is invalidated by hand. Bytes come from the zod allow-lists, once per key; the
 * gzipped copy is made on first demand and kept with the page.
 */
import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { acceptsGzip, GZIP_LEVEL } from '../../lib/content-encoding.js';
import { searchIndexOf } from '../../services/photos/search-index.js';
import { type EventSettings, type EventStatus, eventStatus } from '../../services/photos/status.js';
import type { EventDefaults, LibraryEvent, Photo, PhotoLibrary } from '../../services/photos/types.js';
import { galleryPath, photoItemBuilder } from './photo-item.js';
import { DayPage, EventList, EventPage, type EventSummaryT, SessionPage } from './schemas.js';

/** Where an event's ordering settings come from; today event.json, later the order store. */
export type EventSettingsSource = {
  /** Changes whenever any event's settings change. */
  readonly generation: number;
  settingsOf(event: LibraryEvent): EventSettings & Pick<EventDefaults, 'featuredRating'>;
};

const eventJsonSettings: EventSettingsSource = {
  generation: 0,
  settingsOf: (event) => event,
};

export type PageRequest = {
  page: number;
  limit: number;
  /** Search words (docs/contract.md, "The photographer's metadata"); absent or blank: every photo. */
  q?: string | undefined;
  /** Only photos rated at least the event's `featuredRating`. */
  featured?: boolean | undefined;
};
/** The event page can jump to a time of day instead of a page number. */
export type EventPageRequest = PageRequest & { at?: string | undefined; day?: string | undefined };

export type GalleryPages = {
  eventList(): EventSummaryT[];
  /** undefined: unknown event. */
  eventPage(code: string, req: EventPageRequest): Buffer | undefined;
  /** 'event': unknown event; 'folder': unknown day. */
  dayPage(code: string, day: string, req: PageRequest): Buffer | 'event' | 'folder';
  sessionPage(code: string, day: string, session: string, req: PageRequest): Buffer | 'event' | 'folder';
  /** The gzipped copy (`gzip: true`) when the client accepts gzip and the page is worth it, else the bytes. */
  encoded(bytes: Buffer, acceptEncoding: string | undefined): { body: Buffer; gzip: boolean };
};

/** Smaller pages go out as they are: gzip's own header and the CPU would gain nothing. */
export const PAGE_GZIP_MIN_BYTES = 1024;
/** Every page response says so: its body depends on Accept (HTML or JSON) and Accept-Encoding. */
export const PAGE_VARY = 'Accept, Accept-Encoding';

const SEP = '\u0000'; // cannot occur in a folder name, so keys cannot collide

export function createGalleryPages(opts: {
  library: PhotoLibrary;
  publicBaseUrl: string;
  settings?: EventSettingsSource;
  /** Bytes of serialised pages kept (default 32 MiB). */
  cacheBytes?: number;
  now?: () => number;
}): GalleryPages {
  const { library, publicBaseUrl } = opts;
  const settings = opts.settings ?? eventJsonSettings;
  const now = opts.now ?? Date.now;
  const cache = new LRUCache<string, Buffer>({
    maxSize: opts.cacheBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (b) => b.length + 64,
  });

  const statusOf = (event: LibraryEvent): EventStatus => eventStatus(settings.settingsOf(event), now());

  const { item: photoItem, imageUrl } = photoItemBuilder(publicBaseUrl);
  const eventPath = (code: string) => galleryPath(code);
  const dayPath = (code: string, day: string) => galleryPath(code, day);
  const sessionPath = (code: string, day: string, session: string) => galleryPath(code, day, session);

  function paging(photos: readonly Photo[], req: PageRequest) {
    const totalCount = photos.length;
    const start = (req.page - 1) * req.limit;
    return {
      photos: start < totalCount ? photos.slice(start, start + req.limit).map(photoItem) : [],
      totalCount,
      currentPage: req.page,
      totalPages: Math.ceil(totalCount / req.limit),
      limit: req.limit,
    };
  }

  /**
   * Everything a page depends on (a template string: the hot path). `closedReason` turns to
   * `deadline` at the deadline, so the bytes with `active: false` are built then.
   */
  function key(kind: string, status: EventStatus, parts: string, req: PageRequest): string {
    const base = `${library.generation}${SEP}${settings.generation}${SEP}${status.closedReason ?? 'open'}${SEP}${kind}${SEP}${parts}${SEP}${req.page}${SEP}${req.limit}`;
    return req.q === undefined && !req.featured ? base : `${base}${SEP}${req.q ?? ''}${SEP}${req.featured ? 1 : 0}`;
  }

  /** The photos `q` and `featured` leave of a folder's list; `within` narrows the event's matches to it. */
  function filtered(
    event: LibraryEvent,
    photos: readonly Photo[],
    req: PageRequest,
    within?: (p: Photo) => boolean,
  ): readonly Photo[] {
    const q = req.q?.trim() ?? '';
    if (q === '' && !req.featured) return photos;
    let out: readonly Photo[] = photos;
    if (q !== '') {
      const matches = searchIndexOf(library.photosOf(event.code) ?? []).search(q);
      out = within ? matches.filter(within) : matches;
    }
    if (req.featured) {
      const min = settings.settingsOf(event).featuredRating;
      out = out.filter((p) => (p.rating ?? 0) >= min);
    }
    return out;
  }

  // Keyed by the cached page's Buffer: dropped with it when the page leaves the cache.
  const gzipped = new WeakMap<Buffer, Buffer>();

  function cached(k: string, build: () => unknown): Buffer {
    let bytes = cache.get(k);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(build()));
      cache.set(k, bytes);
    }
    return bytes;
  }

  return {
    encoded(bytes, acceptEncoding) {
      if (bytes.length < PAGE_GZIP_MIN_BYTES || !acceptsGzip(acceptEncoding)) return { body: bytes, gzip: false };
      let body = gzipped.get(bytes);
      if (!body) {
        body = gzipSync(bytes, { level: GZIP_LEVEL });
        gzipped.set(bytes, body);
      }
      return { body, gzip: true };
    },

    eventList() {
      return EventList.parse(
        library.listEvents().map((event) => ({
          code: event.code,
          name: event.name,
          date: event.date,
          photoCount: event.photoCount,
          thumbnails: (library.photosOf(event.code) ?? []).slice(0, 4).map((p) => imageUrl('proxy-image', p)),
          status: statusOf(event),
        })),
      );
    },

    eventPage(code, request) {
      const event = library.getEvent(code);
      if (!event) return undefined;
      const status = statusOf(event);
      const all = filtered(event, library.photosOf(code) ?? [], request);
      const req = request.at === undefined ? request : { ...request, page: pageAtTime(all, request) };
      return cached(key('e', status, code, req), () =>
        EventPage.parse({
          ...paging(all, req),
          event: {
            code: event.code,
            name: event.name,
            date: event.date,
            prefix: event.prefix,
            photoCount: event.photoCount,
            status,
          },
          folders: event.days.map((d) => ({
            name: d.name,
            path: dayPath(code, d.name),
            photoCount: d.photoCount,
            sessions: d.sessions.map((s) => ({
              name: s.name,
              path: sessionPath(code, d.name, s.name),
              photoCount: s.photoCount,
            })),
          })),
        }),
      );
    },

    dayPage(code, day, req) {
      const event = library.getEvent(code);
      if (!event) return 'event';
      const folder = event.days.find((d) => d.name === day);
      const dayPhotos = library.dayPhotos(code, day);
      if (!folder || !dayPhotos) return 'folder';
      const photos = filtered(event, dayPhotos, req, (p) => p.day === day);
      const status = statusOf(event);
      return cached(key('d', status, `${code}${SEP}${day}`, req), () => {
        const page = paging(photos, req);
        return DayPage.parse({
          ...page,
          folder: {
            event: code,
            day,
            photoCount: folder.photoCount,
            sessions: folder.sessions.map((s) => ({
              name: s.name,
              path: sessionPath(code, day, s.name),
              photoCount: s.photoCount,
            })),
          },
          pagination: { page: req.page, limit: req.limit, totalCount: page.totalCount, totalPages: page.totalPages },
          parents: [{ name: event.name, path: eventPath(code) }],
        });
      });
    },

    sessionPage(code, day, session, req) {
      const event = library.getEvent(code);
      if (!event) return 'event';
      const sessionPhotos = library.sessionPhotos(code, day, session);
      if (!sessionPhotos) return 'folder';
      const photos = filtered(event, sessionPhotos, req, (p) => p.day === day && p.session === session);
      const status = statusOf(event);
      return cached(key('s', status, `${code}${SEP}${day}${SEP}${session}`, req), () => {
        const page = paging(photos, req);
        return SessionPage.parse({
          ...page,
          folder: { event: code, day, session, photoCount: sessionPhotos.length },
          pagination: { page: req.page, limit: req.limit, totalCount: page.totalCount, totalPages: page.totalPages },
          parents: [
            { name: event.name, path: eventPath(code) },
            { name: day, path: dayPath(code, day) },
          ],
        });
      });
    },
  };
}

/**
 * The page holding the first photo taken at or after `req.at`, else the last page. `takenAt`
 * is the camera clock written as if UTC, so its characters 11-16 are the clock's HH:MM.
 */
function pageAtTime(photos: readonly Photo[], req: EventPageRequest): number {
  const at = req.at ?? '00:00';
  for (let i = 0; i < photos.length; i++) {
    const p = photos[i] as Photo;
    if (p.takenAt === null || (req.day !== undefined && p.day !== req.day)) continue;
    if (p.takenAt.slice(11, 16) >= at) return Math.floor(i / req.limit) + 1;
  }
  return Math.max(1, Math.ceil(photos.length / req.limit));
}
