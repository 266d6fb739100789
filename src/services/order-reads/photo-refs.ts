/** The photo behind each order line in the admin views (docs/contract.md, "Fulfilment"). */
import path from 'node:path';
import type { AdminPhoto, PhotoRefs } from '../../schemas/order.js';
import type { PhotoLibrary } from '../photos/types.js';

export function libraryPhotoRefs(library: PhotoLibrary, publicBaseUrl: string): PhotoRefs {
  // The gallery's thumbnail URL (src/routes/gallery/photo-item.ts builds the same for its pages).
  const thumbnailUrl = (p: { eventCode: string; id: string; version: string }) =>
    `${publicBaseUrl}/api/proxy-image/${encodeURIComponent(p.eventCode)}/${p.id}?v=${p.version}`;
  return {
    find(eventSlug, photoNumber): AdminPhoto | null {
      const photo = library.findPhoto(eventSlug, photoNumber);
      if (!photo) return null;
      return {
        id: photo.id,
        number: photo.number,
        file: path.posix.join(photo.eventCode, photo.day, photo.session, photo.fileName),
        thumbnail: thumbnailUrl(photo),
      };
    },
    get generation() {
      return library.generation;
    },
  };
}
