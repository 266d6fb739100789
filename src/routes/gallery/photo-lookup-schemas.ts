/** Shapes of `GET /api/photos/{event}/{photo}`. */
import { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT, PageQuery, PhotoItem } from './schemas.js';

export const PhotoLookupParams = z.object({
  event: z.string().min(1).max(500).describe('Event code (its folder name), URL-encoded'),
  photo: z
    .string()
    .min(1)
    .max(200)
    .describe('Photo id, or photo number as a customer types it (leading zeros and a leading `#` are ignored)'),
});

/** The gallery's own `limit`: same default, same clamping, same errors. */
export const PhotoLookupQuery = PageQuery.pick({ limit: true });

const Place = z.object({
  index: z.number().int().describe('0-based position of the photo in this list, in gallery order'),
  page: z.number().int().describe('The page (from 1) that shows the photo at the given `limit`'),
  totalCount: z.number().int().describe('Photos in this list'),
  path: z.string().describe('Gallery path of the list, URL-encoded; add `?page=<page>&limit=<limit>`'),
});

export const PhotoLookup = z
  .object({
    photo: PhotoItem,
    event: z.object({ code: z.string(), name: z.string() }),
    folder: z.object({
      day: z.string().describe('Day folder'),
      session: z.string().describe('Session folder'),
      path: z.string().describe('Gallery path of the session folder, URL-encoded'),
    }),
    limit: z
      .number()
      .int()
      .describe(`Page size the pages below are for (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`),
    position: z
      .object({
        event: Place.describe('In the event page (`/event/{code}`)'),
        day: Place.describe('In its day folder page (`/event/{code}/{day}`)'),
        session: Place.describe('In its session folder page (`/event/{code}/{day}/{session}`)'),
      })
      .describe('Where the photo is in each gallery list that contains it'),
  })
  .meta({ id: 'PhotoLookup' });
export type PhotoLookupT = z.infer<typeof PhotoLookup>;
