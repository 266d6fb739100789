/**
 * The photo viewer: the watermarked preview (the thumbnail shows until it arrives, for slow
 * Wi-Fi), previous / next (buttons, arrow keys, swipe), favourite, and the order panel: size,
 * quantity, add to cart. A native <dialog>: focus stays inside, Escape closes it.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { localUrl } from '../lib/api.js';
import { dollarsToCents, money } from '../lib/format.js';
import { closedMessage, useEventConfig } from '../lib/hooks.js';
import { addToCart, cart, cartCount, favourites, isFavourite, toggleFavourite } from '../lib/shop.js';
import { useStore } from '../lib/store.js';
import { QuantityInput } from './common.js';
import { CloseIcon, HeartIcon, NextIcon, PrevIcon } from './icons.js';
import { isDigital, PackageHint, sizeLabel } from './Offers.js';
import { TakedownForm } from './TakedownForm.js';

export type LightboxPhoto = {
  event: string;
  eventName: string;
  number: string;
  thumbnail: string;
  fullSize: string;
  label: string;
};

export function Lightbox({
  photos,
  index,
  onIndex,
  onClose,
}: {
  photos: LightboxPhoto[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const photo = photos[index] as LightboxPhoto;
  const hasPrev = index > 0;
  const hasNext = index < photos.length - 1;
  // Keyed by URL, so moving to another photo needs no reset (and a cached one shows at once).
  const [loadedSrc, setLoadedSrc] = useState('');
  const [failedSrc, setFailedSrc] = useState('');
  const loaded = loadedSrc === photo.fullSize;
  const failed = failedSrc === photo.fullSize;

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    document.documentElement.classList.add('no-scroll');
    return () => document.documentElement.classList.remove('no-scroll');
  }, []);

  useEffect(() => {
    // The next preview starts downloading while this one is looked at.
    const next = photos[index + 1];
    if (next) new Image().src = localUrl(next.fullSize);
  }, [index, photos]);

  const go = (delta: number) => {
    const i = index + delta;
    if (i >= 0 && i < photos.length) onIndex(i);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (t.tagName === 'INPUT' || t.tagName === 'SELECT') return;
    if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === 'ArrowRight') go(1);
  };

  const touch = useRef<{ x: number; y: number } | null>(null);
  const onPointerDown = (e: PointerEvent) => {
    touch.current = { x: e.clientX, y: e.clientY };
  };
  const onPointerUp = (e: PointerEvent) => {
    const start = touch.current;
    touch.current = null;
    if (!start) return;
    const dx = e.clientX - start.x;
    if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(e.clientY - start.y)) go(dx < 0 ? 1 : -1);
  };

  return (
    <dialog
      ref={ref}
      class="lightbox"
      aria-labelledby="lb-title"
      onClose={onClose}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.target === ref.current) ref.current?.close();
      }}
    >
      <div class="lb-inner">
        <header class="lb-top">
          <div>
            <h2 id="lb-title" class="lb-title">
              Photo #{photo.number}
            </h2>
            {photo.label && <p class="muted">{photo.label}</p>}
          </div>
          <button type="button" class="btn btn-icon lb-close" aria-label="Close" onClick={() => ref.current?.close()}>
            <CloseIcon />
          </button>
        </header>
        <div class="lb-stage" onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
          <img class="lb-thumb" src={localUrl(photo.thumbnail)} alt="" aria-hidden="true" />
          {!failed && (
            <img
              key={photo.fullSize}
              class={`lb-preview ${loaded ? 'is-loaded' : ''}`}
              src={localUrl(photo.fullSize)}
              alt={`#${photo.number}, watermarked preview${photo.label ? ` (${photo.label})` : ''}`}
              ref={(el) => {
                if (el?.complete && el.naturalWidth > 0) setLoadedSrc(photo.fullSize);
              }}
              onLoad={() => setLoadedSrc(photo.fullSize)}
              onError={() => setFailedSrc(photo.fullSize)}
            />
          )}
          {failed && <p class="lb-failed">The preview could not be loaded.</p>}
          {hasPrev && (
            <button type="button" class="lb-nav lb-prev" aria-label="Previous photo" onClick={() => go(-1)}>
              <PrevIcon size={28} />
            </button>
          )}
          {hasNext && (
            <button type="button" class="lb-nav lb-next" aria-label="Next photo" onClick={() => go(1)}>
              <NextIcon size={28} />
            </button>
          )}
        </div>
        <OrderPanel photo={photo} />
        <RemovalRequest key={`${photo.event}/${photo.number}`} photo={photo} />
      </div>
    </dialog>
  );
}

/** Every photo can be asked down (docs/contract.md, "Takedown requests"); the form opens on a tap. */
function RemovalRequest({ photo }: { photo: LightboxPhoto }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" class="btn btn-ghost btn-small lb-removal" onClick={() => setOpen(true)}>
        Request removal
      </button>
    );
  }
  return <TakedownForm event={photo.event} number={photo.number} onDone={() => setOpen(false)} />;
}

function OrderPanel({ photo }: { photo: LightboxPhoto }) {
  const config = useEventConfig(photo.event);
  const favs = useStore(favourites);
  const lines = useStore(cart);
  const fav = isFavourite(favs, photo.event, photo.number);
  const [size, setSize] = useState<string | null>(null);
  const [qty, setQty] = useState(1);
  const [added, setAdded] = useState('');
  useEffect(() => setAdded(''), [photo.number]);
  const c = config.data;
  const sizes = c ? Object.entries(c.prices) : [];
  const chosen = size !== null && c && size in c.prices ? size : (c?.defaultSize ?? sizes[0]?.[0] ?? '');

  const favButton = (
    <button
      type="button"
      class={`btn btn-secondary ${fav ? 'is-on' : ''}`}
      aria-pressed={fav}
      onClick={() => toggleFavourite({ event: photo.event, number: photo.number, thumb: photo.thumbnail })}
    >
      <HeartIcon size={20} filled={fav} /> {fav ? 'Favourite' : 'Add to favourites'}
    </button>
  );

  if (!c) {
    return (
      <div class="lb-panel">
        {favButton}
        {config.error && <p class="muted">Prices could not be loaded: {config.error.message}</p>}
      </div>
    );
  }
  if (!c.active) {
    return (
      <div class="lb-panel">
        <p class="notice notice-warn" role="status">
          {closedMessage(c)}
        </p>
        {favButton}
      </div>
    );
  }
  const add = () => {
    addToCart({
      event: photo.event,
      eventName: photo.eventName || c.eventName,
      number: photo.number,
      thumb: photo.thumbnail,
      size: chosen,
      quantity: qty,
    });
    // Said inside the dialog: a toast would sit behind the modal.
    setAdded(`Added #${photo.number} (${sizeLabel(chosen)}) × ${qty}.`);
    setQty(1);
  };
  return (
    <div class="lb-panel">
      <fieldset class="sizes">
        <legend>{sizes.some(([name]) => isDigital(name)) ? 'Size or digital file' : 'Print size'}</legend>
        {sizes.map(([name, dollars]) => (
          <label key={name} class={`size-chip ${name === chosen ? 'is-on' : ''}`}>
            <input type="radio" name="lb-size" value={name} checked={name === chosen} onChange={() => setSize(name)} />
            <span>{sizeLabel(name)}</span>
            <span class="size-price">{money(dollarsToCents(dollars))}</span>
          </label>
        ))}
      </fieldset>
      <PackageHint config={c} size={chosen} />
      <div class="lb-actions">
        <QuantityInput id="lb-qty" label="Quantity" value={qty} onChange={setQty} />
        <button type="button" class="btn btn-primary" onClick={add}>
          Add to cart · {money(dollarsToCents(c.prices[chosen] ?? 0) * qty)}
        </button>
        {favButton}
      </div>
      <p class="lb-added" role="status">
        {added && (
          <>
            {added} <a href="/checkout">View cart ({cartCount(lines)})</a>
          </>
        )}
      </p>
    </div>
  );
}
