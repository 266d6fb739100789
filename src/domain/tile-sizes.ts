/**
 * How wide a cell of the gallery's grid (web/src/styles.css, `.grid`) is at each window width:
 * the grid's `<img sizes>` and the first row's preload `imagesizes` both come from here,
 * because a preload whose sizes differ from the image's is fetched twice
 * (test/web/tiles.test.ts checks them in a real browser). Plain data, no imports: the browser
 * build imports this file too. Each step to more columns is put 17 px later than without a
 * scrollbar (which narrows the layout but not `vw`), so `sizes` may say a little more than the
 * cell, never less: a larger tile, never a blurry one.
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
