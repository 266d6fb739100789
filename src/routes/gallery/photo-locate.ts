/** Finds a photo by id or number and says where the gallery shows it, from the in-memory index alone. */
import type { Photo, PhotoLibrary } from '../../services/photos/types.js';
import { galleryPath, type PhotoItemBuilder } from './photo-item.js';
import type { PhotoLookupT } from './photo-lookup-schemas.js';

type Library = Pick<PhotoLibrary, 'getEvent' | 'findPhoto' | 'photosOf' | 'dayPhotos' | 'sessionPhotos'>;

/** What a customer types: `12`, `#12`, `012` all name photo 12; anything else is tried as given (an id). */
export function findByRef(library: Pick<PhotoLibrary, 'findPhoto'>, code: string, ref: string): Photo | undefined {
  const exact = library.findPhoto(code, ref);
  if (exact) return exact;
  const m = /^#?\s*0*(\d+)$/.exec(ref.trim());
  return m ? library.findPhoto(code, m[1] as string) : undefined;
}

function indexIn(list: readonly Photo[] | undefined, photo: Photo): number {
  if (!list) return -1;
  // The library's lists share the Photo objects; comparing ids keeps this right if they ever don't.
  const i = list.indexOf(photo);
  return i >= 0 ? i : list.findIndex((p) => p.id === photo.id);
}

export type Located = { ok: true; body: PhotoLookupT } | { ok: false; reason: 'event' | 'photo' };

export function locatePhoto(
  library: Library,
  items: PhotoItemBuilder,
  code: string,
  ref: string,
  limit: number,
): Located {
  const event = library.getEvent(code);
  if (!event) return { ok: false, reason: 'event' };
  const photo = findByRef(library, code, ref);
  if (!photo) return { ok: false, reason: 'photo' };

  const place = (list: readonly Photo[] | undefined, path: string) => {
    const index = Math.max(0, indexIn(list, photo));
    return { index, page: Math.floor(index / limit) + 1, totalCount: list?.length ?? 0, path };
  };
  const sessionPath = galleryPath(code, photo.day, photo.session);
  return {
    ok: true,
    body: {
      photo: items.item(photo),
      event: { code: event.code, name: event.name },
      folder: { day: photo.day, session: photo.session, path: sessionPath },
      limit,
      position: {
        event: place(library.photosOf(code), galleryPath(code)),
        day: place(library.dayPhotos(code, photo.day), galleryPath(code, photo.day)),
        session: place(library.sessionPhotos(code, photo.day, photo.session), sessionPath),
      },
    },
  };
}
