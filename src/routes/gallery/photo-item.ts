/**
 * The one place a library `Photo` becomes the API's `GalleryPhoto`, and a folder its gallery
 * path, so the gallery pages and the photo lookup always agree.
 */
import { isPublicKeyword } from '../../services/photos/metadata.js';
import type { Photo } from '../../services/photos/types.js';
import type { PhotoItemT } from './schemas.js';

const enc = encodeURIComponent;

/** `/event/<code>[/<day>[/<session>]]`, each segment URL-encoded. */
export function galleryPath(code: string, day?: string, session?: string): string {
  let path = `/event/${enc(code)}`;
  if (day !== undefined) path += `/${enc(day)}`;
  if (day !== undefined && session !== undefined) path += `/${enc(session)}`;
  return path;
}

export type PhotoItemBuilder = {
  item(photo: Photo): PhotoItemT;
  /** Absolute URL of the thumbnail (`proxy-image`) or the watermarked preview. */
  imageUrl(kind: 'proxy-image' | 'preview', photo: Photo): string;
};

/**
 * The photographer's metadata of an item (docs/contract.md, "The photographer's metadata"):
 * each field absent when unknown; keywords starting with `_` are private.
 */
function addPhotographersMetadata(out: PhotoItemT['metadata'], photo: Photo): void {
  const m = photo.metadata;
  if (photo.rating !== null) out.rating = photo.rating;
  if (!m) return;
  const keywords = m.keywords?.filter(isPublicKeyword);
  if (keywords?.length) out.keywords = keywords;
  if (m.caption !== undefined) out.caption = m.caption;
  if (m.title !== undefined) out.title = m.title;
  if (m.photographer !== undefined) out.photographer = m.photographer;
}

export function photoItemBuilder(publicBaseUrl: string): PhotoItemBuilder {
  const imageUrl = (kind: 'proxy-image' | 'preview', photo: Photo) =>
    `${publicBaseUrl}/api/${kind}/${enc(photo.eventCode)}/${photo.id}?v=${photo.version}`;

  return {
    imageUrl,
    item(photo) {
      const metadata: PhotoItemT['metadata'] = {
        day: photo.day,
        session: photo.session,
        width: photo.width,
        height: photo.height,
      };
      if (photo.takenAt !== null) metadata.takenAt = photo.takenAt;
      addPhotographersMetadata(metadata, photo);
      const thumbnail = imageUrl('proxy-image', photo);
      return {
        id: photo.id,
        number: photo.number,
        thumbnail,
        srcset: `${thumbnail} 1x, ${thumbnail}&size=2x 2x`,
        fullSize: imageUrl('preview', photo),
        metadata,
      };
    },
  };
}
