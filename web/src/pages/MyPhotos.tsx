/**
 * "My photos" (`/me/<code>`, the link a photo code's QR holds): the photos the photographer
 * shot after the attendee's code frame (`GET /api/finder/{code}`), looked at again every
 * ten seconds while the page is open (within the lookup rate limit), so it fills in as
 * cards are copied in.
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { Lightbox, type LightboxPhoto } from '../components/Lightbox.js';
import { PhotoGrid } from '../components/PhotoGrid.js';
import { type ApiError, api, ok } from '../lib/api.js';
import type { FinderPhotos, GalleryPhoto as PhotoItem } from '../lib/api-schema.js';
import { spacedCode } from '../lib/photo-codes.js';

const REFRESH_MS = 10_000;

/** The event code inside a photo item's thumbnail URL (`/api/proxy-image/<event>/<id>`). */
function eventOf(p: PhotoItem): string {
  const m = /\/api\/proxy-image\/([^/]+)\//.exec(p.thumbnail);
  return m?.[1] ? decodeURIComponent(m[1]) : '';
}

export default function MyPhotos({ code }: { code: string }) {
  useTitle('My photos');
  const [found, setFound] = useState<FinderPhotos | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const f = await ok(api.GET('/api/finder/{code}', { params: { path: { code } } }));
        if (!stop) {
          setFound(f);
          setError(undefined);
        }
      } catch (err) {
        if (!stop) setError(err as ApiError);
      }
      if (!stop) timer = setTimeout(load, REFRESH_MS);
    };
    void load();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [code]);

  const photos = found?.photos ?? [];
  const toLightbox = (p: PhotoItem): LightboxPhoto => ({
    event: eventOf(p),
    eventName: eventOf(p),
    number: p.number,
    thumbnail: p.thumbnail,
    fullSize: p.fullSize,
    label: `${p.metadata.day}, ${p.metadata.session}`,
  });
  return (
    <main class="page" id="main">
      <h1>My photos</h1>
      <p class="muted">
        Photo code <strong>{found ? spacedCode(found.code) : code.toUpperCase()}</strong>
      </p>
      {error?.status === 404 && (
        <Notice>
          No photos for this code yet. They appear here once the photographer has shot your code and copied the card;
          this page looks again every few seconds.
        </Notice>
      )}
      {error && error.status !== 404 && <ErrorBox error={error} />}
      {!found && !error && <Spinner label="Looking for your photos…" />}
      {found && photos.length === 0 && <Notice>No photos for this code yet: they appear here as they arrive.</Notice>}
      {photos.length > 0 && (
        <PhotoGrid
          photos={photos.map((p) => ({
            event: eventOf(p),
            number: p.number,
            thumbnail: p.thumbnail,
            label: `${p.metadata.day}, ${p.metadata.session}`,
          }))}
          onOpen={(i) => setOpen(i)}
        />
      )}
      {open !== null && (
        <Lightbox photos={photos.map(toLightbox)} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />
      )}
    </main>
  );
}
