/**
 * The gallery's viewer (the lightbox) and its link: opening a photo puts `/event/<code>/photo/<n>`
 * in the address bar, "back" closes it; a photo link or `?photo=` opens that photo in its place
 * in this list when it is in it (the pages up to it load first), else on its own.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LightboxPhoto } from '../../components/Lightbox.js';
import { api, ok } from '../../lib/api.js';
import type { GalleryPhoto as PhotoItem, PhotoLookup } from '../../lib/api-schema.js';
import { navigate, openedFromList, photoPath, useLocation } from '../../lib/router.js';
import { type Feed, PAGE_SIZE } from './feed.js';

type PhotoPlace = PhotoLookup['position']['event'];
type Shown = { photos: LightboxPhoto[]; index: number };

/** The photo lookup, with pages of the app's own size, so its `page` is a page of the feed. */
export const lookUp = (code: string, ref: string) =>
  ok(
    api.GET('/api/photos/{event}/{photo}', {
      params: { path: { event: code, photo: ref }, query: { limit: PAGE_SIZE } },
    }),
  );

/** The photographer's credit of a photo, when the photographer's metadata names one. */
export function credit(p: PhotoItem): string {
  return p.metadata.photographer ? `Photo: ${p.metadata.photographer}` : '';
}

type ViewerOptions = {
  code: string;
  day: string | undefined;
  session: string | undefined;
  /** The list's own URL (the folder, or a search within it). */
  path: string;
  /** The photo of a photo link, shown over this list. */
  linkedPhoto: string | undefined;
  eventName: string;
  feed: Feed | undefined;
  feedRef: { current: Feed | undefined };
  loadThrough: (page: number) => Promise<PhotoItem[]>;
};

export function useViewer({
  code,
  day,
  session,
  path,
  linkedPhoto,
  eventName,
  feed,
  feedRef,
  loadThrough,
}: ViewerOptions) {
  const isEventPage = day === undefined;
  const [open, setOpenState] = useState<Shown | null>(null);
  const wantedPhoto = useLocation().query.get('photo');
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

  return { open, setOpen, closeViewer, toLightbox, openFound };
}
