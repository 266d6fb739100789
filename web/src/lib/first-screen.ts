/**
 * The first screen of a grid before the rest. Held to the phone bench's targets
 * (bench/phone-gallery.bench.ts: a phone on a convention's Wi-Fi sees its first screen of
 * tiles within 2.5 s, the first row on "Slow 3G" within 4 s).
 *
 * Chromium's own `loading="lazy"` starts every image within 1,250-2,500 px of the screen, which
 * on a phone is the whole first page of 48 tiles: the 12 on screen then share a slow link with
 * 36 that are not. So the grid holds back: its first render asks for no image; right after it
 * (before the first paint) the cells are measured, and only those on the screen and in the row
 * just below it (what the first flick of a thumb shows) load, the first row with
 * `fetchpriority="high"`; once every one of them has arrived (or failed), or the visitor
 * scrolls, the rest load, lazily.
 */
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export type FirstScreen = {
  /** Whether the image of cell `index` should be asked for now. */
  shouldLoad(index: number): boolean;
  /** Whether cell `index` is in the first row on the screen (to load first). */
  isFirstRow(index: number): boolean;
  /** Whether cell `index` was on the first screen or the row below it (loaded eagerly). */
  isOnFirstScreen(index: number): boolean;
  /** To call when the image of cell `index` has loaded or failed. */
  settled(index: number): void;
};

type Wave = { onScreen: number; firstRow: number; all: boolean };

/** `list`: the grid, whose children are its cells in order; `count`: how many there are. */
export function useFirstScreen(list: RefObject<HTMLElement | null>, count: number): FirstScreen {
  // undefined until the cells have been measured: no image is asked for before.
  const [wave, setWave] = useState<Wave | undefined>(undefined);
  const arrived = useRef(new Set<number>());

  useLayoutEffect(() => {
    if (wave || count === 0 || !list.current) return;
    setWave(measure(list.current));
  }, [count, wave === undefined]);

  // The visitor scrolls before the first screen has arrived: what comes into view matters more.
  useEffect(() => {
    if (!wave || wave.all) return;
    const release = () => setWave((w) => (w ? { ...w, all: true } : w));
    window.addEventListener('scroll', release, { once: true, passive: true });
    return () => window.removeEventListener('scroll', release);
  }, [wave?.all]);

  return {
    shouldLoad: (i) => wave !== undefined && (wave.all || i < wave.onScreen),
    isFirstRow: (i) => wave !== undefined && i < wave.firstRow,
    isOnFirstScreen: (i) => wave !== undefined && i < wave.onScreen,
    settled(i) {
      if (!wave || wave.all || i >= wave.onScreen) return;
      arrived.current.add(i);
      if (arrived.current.size >= wave.onScreen) setWave({ ...wave, all: true });
    },
  };
}

/**
 * Which leading cells lie on the screen or in the row below it, and how many of them share the
 * first one's row.
 */
function measure(grid: HTMLElement): Wave {
  const cells = grid.children;
  const first = cells[0]?.getBoundingClientRect();
  const bottom = window.innerHeight + (first?.height ?? 0);
  const firstTop = first?.top ?? bottom;
  let onScreen = 0;
  let firstRow = 0;
  for (let i = 0; i < cells.length; i++) {
    const top = (cells[i] as Element).getBoundingClientRect().top;
    if (top >= bottom) break;
    onScreen++;
    if (Math.abs(top - firstTop) < 1) firstRow++;
  }
  // A grid below the screen (scrolled away, a long header): nothing to wait for.
  return { onScreen, firstRow, all: onScreen === 0 };
}
