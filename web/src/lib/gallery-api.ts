/**
 * The gallery's lists by folder (`/event/{eventCode}`, `…/{day}`, `…/{day}/{session}`), typed by
 * their paths: the URL a list is asked at (the key of the answers the page's HTML carries and of
 * the cache) and the GET itself.
 */
import { api, apiUrl, ok } from './api.js';
import type { GalleryDayPage, GalleryEventPage, GallerySessionPage } from './api-schema.js';

export type Folder = { code: string; day?: string | undefined; session?: string | undefined };
/** The list's query, in the order the URL writes it (the server's HTML carries `?page=1&limit=48`). */
export type ListQuery = { q?: string; page?: number; limit?: number };
export type FolderPage = GalleryEventPage | GalleryDayPage | GallerySessionPage;

export function folderUrl({ code, day, session }: Folder, query: ListQuery): string {
  if (day === undefined) return apiUrl('/event/{eventCode}', { path: { eventCode: code }, query });
  if (session === undefined) return apiUrl('/event/{eventCode}/{day}', { path: { eventCode: code, day }, query });
  return apiUrl('/event/{eventCode}/{day}/{session}', { path: { eventCode: code, day, session }, query });
}

export function getFolder({ code, day, session }: Folder, query: ListQuery, signal?: AbortSignal): Promise<FolderPage> {
  const init = { signal: signal ?? null };
  if (day === undefined)
    return ok(api.GET('/event/{eventCode}', { params: { path: { eventCode: code }, query }, ...init }));
  if (session === undefined) {
    return ok(api.GET('/event/{eventCode}/{day}', { params: { path: { eventCode: code, day }, query }, ...init }));
  }
  const path = { eventCode: code, day, session };
  return ok(api.GET('/event/{eventCode}/{day}/{session}', { params: { path, query }, ...init }));
}
