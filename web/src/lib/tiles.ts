/**
 * The grid's images: square tiles of each photo (`/api/proxy-image/…?tile=<width>`, the centre
 * square the cell shows) at several widths, offered with `w` descriptors, and the `sizes` that
 * tells the browser how wide a cell is before it has laid anything out, so a phone at 3× takes
 * the 360 px tile for its 119 px cells and a desktop at 1× the 240 px one for its 190 px cells
 * (docs/gallery-internals.md, "Tile sizes").
 *
 * The server's HTML preloads the first row with the same `imagesrcset` and `imagesizes`
 * (src/routes/gallery/page-document.ts); both take TILE_SIZES from src/domain/tile-sizes.ts, as
 * they must stay equal or the browser fetches those tiles twice (test/web/tiles.test.ts checks both).
 */
import { TILE_SIZES } from '../../../src/domain/tile-sizes.js';
import type { paths } from './api-schema.js';

type TileParam = NonNullable<
  NonNullable<paths['/api/proxy-image/{event}/{photo}']['get']['parameters']['query']>['tile']
>;

/** The widths the server renders (its `tile` parameter's values), smallest first. */
const TILE_WIDTHS = ['160', '240', '360', '480'] as const satisfies readonly TileParam[];

/** The `src` for a browser without `srcset`: right for 1× and 2× cells. */
const FALLBACK_WIDTH: TileParam = '240';

/** How wide a cell of `.grid` is at each window width: one source with the server's preloads. */
export { TILE_SIZES };

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
