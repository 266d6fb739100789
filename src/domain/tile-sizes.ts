/**
 * How wide a cell of the gallery's grid is (web/src/styles.css, `.grid`), at each width of the
 * window: the `sizes` of the grid's `<img>` (web/src/lib/tiles.ts) and the `imagesizes` of the
 * first row's preloads in the server's HTML (src/routes/gallery/page-document.ts). One source
 * for both, because a preload whose sizes differ from the image's is fetched twice
 * (test/web/tiles.test.ts checks that they match in a real browser). Plain data, no imports: the
 * browser app's build imports this file too.
 *
 * Below 600 px three columns with 4 px gaps in a page with 12 px of padding each side; from
 * 600 px as many columns of 170 px or more as fit, with 8 px gaps (from 700 px the padding is
 * 20 px), in a page of at most 1200 px, where a cell is 186.7 px. The column count follows the
 * width the page is laid out in, which a desktop's scrollbar (up to 17 px) makes narrower than
 * the window that media queries and `vw` measure: each step to more columns is put 17 px later
 * than it happens without one (744, 922, 1100 and 1200 px), so that `sizes` may say a little
 * more than the cell, never less (a larger tile, never a blurry one).
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
