/**
 * Zod schemas of the gallery routes (docs/contract.md, "Gallery"): request parameters, and
 * allow-lists for every response. The decisions behind them are written into the
 * descriptions too, so they reach the OpenAPI document.
 */
import { z } from 'zod';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

const positiveInt = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const PageQuery = z.object({
  page: positiveInt
    .default(1)
    .describe(
      'Page number, starting at 1 (default 1). Not an integer, or below 1: 400 `VALIDATION_FAILED`. ' +
        'A page past the last one is 200 with `photos: []` and the true totals.',
    ),
  limit: positiveInt
    .default(DEFAULT_LIMIT)
    .transform((v) => Math.min(v, MAX_LIMIT))
    .describe(
      `Photos per page (default ${DEFAULT_LIMIT}). Values above ${MAX_LIMIT} are clamped to ${MAX_LIMIT}, and the ` +
        'effective value is returned in `limit`. Not an integer, or below 1: 400 `VALIDATION_FAILED`.',
    ),
  q: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Search: only photos where every word of `q` starts a word of the photographer's keywords, caption, " +
        'title or photographer name, or equals the photo number; case- and accent-insensitive (`pokémon` finds ' +
        '"Pokemon"). `totalCount` and the paging count the matches. Blank: every photo. Over 200 characters: 400.',
    ),
  featured: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .describe("`1`: only photos rated at least the event's `featuredRating` (default 4 stars)"),
});

/** The event page also jumps to a time of day (docs/contract.md, "Finding one's photos, and intake"). */
export const EventPageQuery = PageQuery.extend({
  at: z
    .string()
    .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be a time of day HH:MM (24-hour)')
    .optional()
    .describe(
      'Jump to a time: the page (at `limit`) holding the first listed photo whose camera clock time of day ' +
        '(EXIF as written, no time-zone conversion) is at or after `HH:MM`. Overrides `page`; when no photo is ' +
        'that late, the last page.',
    ),
  day: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('With `at`: only photos of this day folder count (the page is still one of the whole event)'),
});

const name = z.string().min(1).max(500);
export const EventParams = z.object({
  eventCode: name.describe('Event code: the event folder name, URL-encoded'),
});
export const DayParams = EventParams.extend({ day: name.describe('Day folder name, URL-encoded') });
export const SessionParams = DayParams.extend({ session: name.describe('Session folder name, URL-encoded') });

const EventStatusSchema = z
  .object({
    isArchived: z.boolean(),
    orderingEnabled: z.boolean(),
    deadline: z.string().nullable().describe('Ordering deadline, ISO 8601 UTC, or null for none'),
    active: z.boolean().describe('Open for orders: not archived, ordering enabled, and the deadline (if any) ahead'),
    closedReason: z
      .enum(['archived', 'disabled', 'deadline'])
      .nullable()
      .describe(
        'Why the event takes no orders, the first that applies: `archived`, `disabled` (ordering turned off), ' +
          '`deadline` (passed); null while `active`. The same reason a refused order gives (409 `ORDERING_CLOSED`).',
      ),
  })
  .meta({ id: 'GalleryEventStatus' });

export const PhotoItem = z
  .object({
    id: z.string().describe('Opaque photo id, stable across restarts'),
    number: z
      .string()
      .describe('The number a customer types to order this photo: unique within the event, stable, never reused'),
    thumbnail: z
      .string()
      .describe('Absolute URL of the thumbnail (`/api/proxy-image/{event}/{id}`); `v` changes when the file does'),
    srcset: z
      .string()
      .describe(
        'For `<img srcset>`: the thumbnail at 1x and twice its size (`&size=2x`) at 2x, for 2× screens. ' +
          'Both are negotiated on `Accept` (WebP where the browser takes it).',
      ),
    fullSize: z
      .string()
      .describe('Absolute URL of a watermarked preview (`/api/preview/{event}/{id}`), never the original file'),
    metadata: z.object({
      day: z.string().describe('Day folder'),
      session: z.string().describe('Session folder'),
      width: z.number().int().describe('Width in pixels as displayed (EXIF orientation applied)'),
      height: z.number().int().describe('Height in pixels as displayed'),
      takenAt: z
        .string()
        .optional()
        .describe(
          'EXIF capture time, ISO 8601: the camera clock as written (its wall-clock time, whatever offset ' +
            'the camera also recorded), given as if it were UTC. `?at=HH:MM` matches this time of day. ' +
            'Absent when the file has none.',
        ),
      keywords: z
        .array(z.string())
        .optional()
        .describe(
          "The photographer's keywords (XMP dc:subject, the last part of lr:hierarchicalSubject, IPTC Keywords); " +
            'those starting with `_` are private and never served. Absent when none.',
        ),
      caption: z
        .string()
        .optional()
        .describe('The caption (XMP dc:description, IPTC Caption-Abstract); absent when none'),
      title: z.string().optional().describe('The title (XMP dc:title or photoshop:Headline); absent when none'),
      rating: z
        .number()
        .int()
        .min(-1)
        .max(5)
        .optional()
        .describe(
          "The photographer's star rating (xmp:Rating): 0–5, −1 for a reject (listed only where the event shows rejects); absent when unrated",
        ),
      photographer: z
        .string()
        .optional()
        .describe('Who took it (XMP dc:creator, photoshop:Credit, IPTC By-line, EXIF Artist); absent when unknown'),
    }),
  })
  .meta({ id: 'GalleryPhoto' });

export const EventSummary = z
  .object({
    code: z.string().describe('Event code (its folder name); use it URL-encoded in paths'),
    name: z.string(),
    date: z.string().nullable().describe('YYYY-MM-DD: event.json `date`, else the first capture date, else null'),
    photoCount: z.number().int(),
    thumbnails: z.array(z.string()).max(4).describe('Up to 4 absolute thumbnail URLs: the first photos of the event'),
    status: EventStatusSchema,
  })
  .meta({ id: 'GalleryEvent' });

export const EventList = z
  .array(EventSummary)
  .describe('Every event of the library, newest date first (events without a date last), then by code');

const SessionFolderItem = z.object({
  name: z.string(),
  path: z.string().describe('Gallery path of this session folder, URL-encoded'),
  photoCount: z.number().int(),
});
const DayFolderItem = z.object({
  name: z.string(),
  path: z.string().describe('Gallery path of this day folder, URL-encoded'),
  photoCount: z.number().int(),
  sessions: z.array(SessionFolderItem),
});

const Breadcrumb = z
  .array(z.object({ name: z.string(), path: z.string().describe('Gallery path, URL-encoded') }))
  .describe('Parent folders, outermost first: the event, then (for a session) its day');

const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int().describe('Effective page size (after clamping to 100)'),
  totalCount: z.number().int(),
  totalPages: z.number().int().describe('ceil(totalCount / limit); 0 for an empty folder'),
});

const pageFields = {
  photos: z
    .array(PhotoItem)
    .describe('This page of photos, ordered by day, session, capture time, then number; empty past the last page'),
  totalCount: z.number().int(),
  currentPage: z.number().int(),
  totalPages: z.number().int().describe('ceil(totalCount / limit); 0 for an empty event or folder'),
  limit: z.number().int().describe('Effective page size (after clamping to 100)'),
};

export const EventPage = z
  .object({
    ...pageFields,
    event: z.object({
      code: z.string(),
      name: z.string(),
      date: z.string().nullable(),
      prefix: z.string().describe('Prefix of this event’s order numbers'),
      photoCount: z.number().int(),
      status: EventStatusSchema,
    }),
    folders: z.array(DayFolderItem).describe('Day folders with their session folders and photo counts'),
  })
  .meta({ id: 'GalleryEventPage' });

export const DayPage = z
  .object({
    ...pageFields,
    folder: z.object({
      event: z.string().describe('Event code'),
      day: z.string(),
      photoCount: z.number().int(),
      sessions: z.array(SessionFolderItem),
    }),
    pagination: Pagination,
    parents: Breadcrumb,
  })
  .meta({ id: 'GalleryDayPage' });

export const SessionPage = z
  .object({
    ...pageFields,
    folder: z.object({
      event: z.string().describe('Event code'),
      day: z.string(),
      session: z.string(),
      photoCount: z.number().int(),
    }),
    pagination: Pagination,
    parents: Breadcrumb,
  })
  .meta({ id: 'GallerySessionPage' });

export type PhotoItemT = z.infer<typeof PhotoItem>;
export type EventSummaryT = z.infer<typeof EventSummary>;
