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
 * columns with 4 px gaps in a page with 12 px padding on each side; from 600 px as many 170 px+
 * columns as fit with 8 px gaps, in at most 1200 px (1176 inside the padding). The column count
 * changes at 728, 906 and 1084 px; from 1200 px a cell is 189.3 px.
 */
export const TILE_SIZES = [
  '(min-width: 1200px) 190px',
  '(min-width: 1084px) calc((100vw - 64px) / 6)',
  '(min-width: 906px) calc((100vw - 56px) / 5)',
  '(min-width: 728px) calc((100vw - 48px) / 4)',
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
