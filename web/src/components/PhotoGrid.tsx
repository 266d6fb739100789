/** The grid of thumbnails: lazy images, the photo number on each, a favourite toggle. */
import { localUrl } from '../lib/api.js';
import { type Favourite, favourites, isFavourite, toggleFavourite } from '../lib/shop.js';
import { useStore } from '../lib/store.js';
import { HeartIcon } from './icons.js';

export type GridPhoto = {
  event: string;
  number: string;
  thumbnail: string;
  /** 1x and 2x thumbnails (`srcset`), for sharp tiles on 2× screens. */
  srcset?: string;
  label: string;
};

/** Each candidate of a srcset made same-origin, like `localUrl` does for one URL. */
export function localSrcset(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  return srcset
    .split(', ')
    .map((candidate) => {
      const space = candidate.lastIndexOf(' ');
      return `${localUrl(candidate.slice(0, space))}${candidate.slice(space)}`;
    })
    .join(', ');
}

export function PhotoGrid({
  photos,
  onOpen,
  eager = 0,
}: {
  photos: GridPhoto[];
  onOpen: (index: number) => void;
  /** How many of the first thumbnails to load at once (the rest load as they scroll into view). */
  eager?: number;
}) {
  const favs = useStore(favourites);
  return (
    <ul class="grid" aria-label="Photos">
      {photos.map((p, i) => {
        const fav = isFavourite(favs, p.event, p.number);
        const f: Favourite = { event: p.event, number: p.number, thumb: p.thumbnail };
        return (
          <li class="tile" key={`${p.event}/${p.number}`}>
            <button type="button" class="tile-open" onClick={() => onOpen(i)} data-number={p.number}>
              <img
                src={localUrl(p.thumbnail)}
                srcset={localSrcset(p.srcset)}
                alt={`#${p.number}${p.label ? `, ${p.label}` : ''}`}
                loading={i < eager ? 'eager' : 'lazy'}
                decoding="async"
                width={300}
                height={300}
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
