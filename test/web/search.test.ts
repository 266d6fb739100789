/**
 * The photographer's metadata in the browser app (docs/contract.md, "The photographer's
 * metadata"), in a real headless Chromium on a phone, against the whole service with the
 * demo library (which carries Lightroom's XMP: keywords, ratings, two photographers, a reject).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeViewer, openPage, PHONE } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS, startWebHarness, type WebHarness } from '../support/web-harness.js';
import { expectClean, expectGoodLayout } from '../support/web-layout.js';

const HARBOR = 'Harbor Comic Con';

type GridImage = { complete: boolean; naturalWidth: number; currentSrc: string };

let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness();
}, SET_UP_TIMEOUT_MS);

afterAll(() => harness?.close());

describe('search and the featured row', () => {
  test('on a phone: the featured row, a search by keyword finds the photos, the viewer credits the photographer', async () => {
    const { server, browser } = harness;
    const p = await openPage(browser, PHONE);
    const { page } = p;
    await page.goto(`${server.url}/event/${encodeURIComponent(HARBOR)}`);
    const featured = page.getByRole('region', { name: 'Featured' });
    // The row comes with the page's HTML: laid out in the grid's first render, it moves nothing
    // when its images arrive (after the grid's first screen), and they are the grid's own tiles.
    await page.locator('.grid .tile').first().waitFor();
    const gridTop = () => page.locator('.grid').evaluate((g) => g.getBoundingClientRect().top);
    const topAtFirst = await gridTop();
    expect(await featured.getByRole('button').count()).toBeGreaterThan(0);
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<GridImage> } })
        .document;
      const imgs = [...doc.querySelectorAll('.featured-tile img')];
      return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    expect(await gridTop()).toBe(topAtFirst);
    // The tiles the images show (those given one so far).
    const tileOf = (sel: string) =>
      page.locator(sel).evaluateAll((els) =>
        els.flatMap((e) => {
          const src = (e as unknown as GridImage).currentSrc;
          return src ? [new URL(src).searchParams.get('tile')] : [];
        }),
      );
    const gridTile = (await tileOf('.grid .tile img'))[0];
    expect(gridTile).toBeTruthy();
    expect(new Set(await tileOf('.featured-tile img'))).toEqual(new Set([gridTile]));

    // The demo's Nezuko photos are 5, 10, …, 30 (demo.ts); an accented, capitalised prefix finds them.
    await page.getByLabel('Search photos').fill('NEZU');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('6 photos for “NEZU”').waitFor();
    const numbers = await page
      .locator('.grid .tile-open')
      .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { number: string } }).dataset.number));
    expect(numbers).toEqual(['5', '10', '15', '20', '25', '30']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('NEZU');
    await expectGoodLayout(page, 'search results on a phone');

    // Photo 5 was shot on day 1, by Jo Lens.
    await page.locator('.grid .tile-open').first().click();
    await page.getByRole('dialog').getByText('Photo: Jo Lens').waitFor();
    // Closing goes back in history; a search started before that lands would be undone by it.
    await closeViewer(page);

    await page.getByLabel('Search photos').fill('pokémon cosplay');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/photos? for “pokémon cosplay”/).waitFor();
    expect(await page.locator('.grid .tile-open').count()).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Clear search' }).click();
    await featured.waitFor();
    expect(new URL(page.url()).search).toBe('');
    expectClean(p);
    await p.close();
  });
});
