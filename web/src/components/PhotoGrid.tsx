/**
 * The grid of thumbnails: square tiles sized for the screen (lib/tiles.ts), the first screen
 * before the rest (lib/first-screen.ts), the photo number on each, a favourite toggle.
 */
import { useRef } from 'preact/hooks';
import { localUrl } from '../lib/api.js';
import { useFirstScreen } from '../lib/first-screen.js';
import { type Favourite, favourites, isFavourite, toggleFavourite } from '../lib/shop.js';
import { useStore } from '../lib/store.js';
import { TILE_SIZES, tileSrc, tileSrcset } from '../lib/tiles.js';
import { HeartIcon } from './icons.js';

export type GridPhoto = {
  event: string;
  number: string;
  /** The thumbnail URL (`/api/proxy-image/…?v=`); the grid asks for its square tiles. */
  thumbnail: string;
  label: string;
};

export function PhotoGrid({ photos, onOpen }: { photos: GridPhoto[]; onOpen: (index: number) => void }) {
  const favs = useStore(favourites);
  const list = useRef<HTMLUListElement>(null);
  const screen = useFirstScreen(list, photos.length);
  return (
    <ul class="grid" aria-label="Photos" ref={list}>
      {photos.map((p, i) => {
        const fav = isFavourite(favs, p.event, p.number);
        const f: Favourite = { event: p.event, number: p.number, thumb: p.thumbnail };
        const thumbnail = localUrl(p.thumbnail);
        const load = screen.shouldLoad(i);
        const settled = () => screen.settled(i);
        return (
          <li class="tile" key={`${p.event}/${p.number}`}>
            <button type="button" class="tile-open" onClick={() => onOpen(i)} data-number={p.number}>
              <img
                src={load ? tileSrc(thumbnail) : undefined}
                srcset={load ? tileSrcset(thumbnail) : undefined}
                sizes={TILE_SIZES}
                alt={`#${p.number}${p.label ? `, ${p.label}` : ''}`}
                loading={screen.isOnFirstScreen(i) ? 'eager' : 'lazy'}
                fetchpriority={screen.isFirstRow(i) ? 'high' : undefined}
                decoding="async"
                width={300}
                height={300}
                onLoad={settled}
                onError={settled}
              />
              <span class="tile-number" aria-hidden="true">
                #{p.number}
              </span>
            </button>
            <button
              type="button"
              class={`tile-fav ${fav ? 'is-on' : ''}`}
              aria-pressed={fav}
              aria-label={`Favourite photo #${p.number}`}
              onClick={() => toggleFavourite(f)}
            >
              <HeartIcon size={20} filled={fav} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
