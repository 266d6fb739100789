/**
 * The grid's images: square tiles of each photo (`/api/proxy-image/…?tile=<width>`, the centre
 * square the cell shows) at several widths, offered with `w` descriptors, and the `sizes` that
 * tells the browser how wide a cell is before it has laid anything out, so a phone at 3× takes
 * the 360 px tile for its 119 px cells and a desktop at 1× the 240 px one for its 190 px cells
 * (docs/gallery-internals.md, "Tile sizes").
 *
 * The server's HTML preloads the first row with the same `imagesrcset` and `imagesizes`
 * (src/routes/gallery/page-document.ts); they must stay equal to these, or the browser fetches
 * those tiles twice (test/web/tiles.test.ts checks both).
 */
import type { paths } from './api-schema.js';

type TileParam = NonNullable<
  NonNullable<paths['/api/proxy-image/{event}/{photo}']['get']['parameters']['query']>['tile']
>;

/** The widths the server renders (its `tile` parameter's values), smallest first. */
const TILE_WIDTHS = ['160', '240', '360', '480'] as const satisfies readonly TileParam[];

/** The `src` for a browser without `srcset`: right for 1× and 2× cells. */
const FALLBACK_WIDTH: TileParam = '240';

/**
 * How wide a cell of `.grid` is (styles.css), at each width of the window: below 600 px three
 * columns with 4 px gaps in a page with 12 px of padding each side; from 600 px as many columns
 * of 170 px or more as fit, with 8 px gaps (from 700 px the padding is 20 px), in a page of at
 * most 1200 px, where a cell is 186.7 px. The column count follows the width the page is laid
 * out in, which a desktop's scrollbar (up to 17 px) makes narrower than the window that media
 * queries and `vw` measure: each step to more columns is put 17 px later than it happens
 * without one (744, 922, 1100 and 1200 px), so that `sizes` may say a little more than the
 * cell, never less (a larger tile, never a blurry one).
 */
export const TILE_SIZES = [
  '(min-width: 1217px) 187px',
  '(min-width: 1117px) calc((100vw - 80px) / 6)',
  '(min-width: 939px) calc((100vw - 72px) / 5)',
  '(min-width: 761px) calc((100vw - 64px) / 4)',
  '(min-width: 700px) calc((100vw - 56px) / 3)',
  '(min-width: 600px) calc((100vw - 40px) / 3)',
  'calc((100vw - 32px) / 3)',
].join(', ');

/** `thumbnail` (a same-origin thumbnail URL, with its `?v=`) as a tile of `width` px. */
function tileUrl(thumbnail: string, width: TileParam): string {
  return `${thumbnail}${thumbnail.includes('?') ? '&' : '?'}tile=${width}`;
}

export function tileSrc(thumbnail: string): string {
  return tileUrl(thumbnail, FALLBACK_WIDTH);
}

export function tileSrcset(thumbnail: string): string {
  return TILE_WIDTHS.map((w) => `${tileUrl(thumbnail, w)} ${w}w`).join(', ');
}
