/** The photos the visitor marked, kept on this device, grouped by event. */
import { useState } from 'preact/hooks';
import { Notice, useTitle } from '../components/common.js';
import { Lightbox, type LightboxPhoto } from '../components/Lightbox.js';
import { PhotoGrid } from '../components/PhotoGrid.js';
import { enc } from '../lib/api.js';
import { useApi } from '../lib/hooks.js';
import { eventPath } from '../lib/router.js';
import { type Favourite, favourites } from '../lib/shop.js';
import { useStore } from '../lib/store.js';

export default function Favourites() {
  useTitle('Favourites');
  const favs = useStore(favourites);
  // Favourites keep the event's folder name (its code); people know it by its name.
  const events = useApi('/event');
  const nameOf = (code: string) => events.data?.find((e) => e.code === code)?.name ?? code;
  const [open, setOpen] = useState<{ photos: LightboxPhoto[]; index: number } | null>(null);
  const byEvent = new Map<string, Favourite[]>();
  for (const f of favs) byEvent.set(f.event, [...(byEvent.get(f.event) ?? []), f]);
  const toLightbox = (f: Favourite): LightboxPhoto => ({
    event: f.event,
    eventName: nameOf(f.event),
    number: f.number,
    thumbnail: f.thumb,
    fullSize: `/api/preview/${enc(f.event)}/${enc(f.number)}`,
    label: '',
  });

  return (
    <main class="page" id="main">
      <h1>Favourites</h1>
      {favs.length === 0 && (
        <Notice>
          Tap the heart on a photo to keep it here. Favourites stay on this device. <a href="/">Browse events</a>
        </Notice>
      )}
      {[...byEvent].map(([event, list]) => (
        <section key={event} class="section">
          <h2>
            <a href={eventPath(event)}>{nameOf(event)}</a>
          </h2>
          <PhotoGrid
            photos={list.map((f) => ({ event: f.event, number: f.number, thumbnail: f.thumb, label: '' }))}
            onOpen={(index) => setOpen({ photos: list.map(toLightbox), index })}
          />
        </section>
      ))}
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
