/**
 * The grid's tiles in a real Chromium (test/support/web-browser.ts), against the whole service
 * with the demo library: a phone at 3× asks for the tile its cells need and no bigger, a desktop
 * gets a sharp one; `sizes` says what the CSS lays out; the first screen's tiles load before the
 * rest; the page's own HTML carries page 1 and preloads the first row, each fetched once.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPage } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS, startWebHarness, type WebHarness } from '../support/web-harness.js';
import { expectClean } from '../support/web-layout.js';

const HARBOR = 'Harbor Comic Con'; // demo event: 30 photos
const EVENT_PATH = `/event/${encodeURIComponent(HARBOR)}`;
const PHONE_3X = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness();
}, SET_UP_TIMEOUT_MS);

afterAll(() => harness?.close());

/**
 * From inside the page, each moment a grid image is given its `src`, in order, with the images
 * that had completed by then (a MutationObserver: no clock involved).
 */
const WATCH_SRC = `(() => {
  window.__srcLog = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const img = r.target;
      if (!(img instanceof HTMLImageElement) || !img.closest('.grid') || !img.getAttribute('src')) continue;
      const all = [...document.querySelectorAll('.grid .tile img')];
      const complete = all.flatMap((i, n) => (i.getAttribute('src') && i.complete ? [n] : []));
      window.__srcLog.push({ index: all.indexOf(img), complete });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['src'] });
})();`;

async function open(viewport: { width: number; height: number }, options: Parameters<typeof openPage>[2] = {}) {
  const p = await openPage(harness.browser, viewport, { init: WATCH_SRC, ...options });
  const requests: { url: string; type: string }[] = [];
  p.page.on('request', (r) => requests.push({ url: r.url(), type: r.resourceType() }));
  await p.page.goto(harness.server.url + EVENT_PATH);
  await expect.poll(() => p.page.locator('.grid .tile').count()).toBe(30);
  return { ...p, requests };
}

/** The `tile` widths asked for, in order of request. */
const tileWidths = (requests: { url: string }[]) =>
  requests
    .map((r) => new URL(r.url).searchParams.get('tile'))
    .filter((w): w is string => w !== null)
    .map(Number);

type GridImage = { complete: boolean; naturalWidth: number };

/**
 * Waits until the first `n` grid images (every one without `n`) have loaded. A function, not a
 * string: the page's Content-Security-Policy allows no eval, which polling a string needs.
 */
function gridLoaded(page: Page, n?: number) {
  return page.waitForFunction((count) => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<GridImage> } }).document;
    const imgs = [...doc.querySelectorAll('.grid .tile img')].slice(0, count ?? undefined);
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, n ?? null);
}

/**
 * Waits until the first `n` tiles have loaded; answers their CSS widths and the tile each shows
 * (its width in pixels: the server's square of that side, test/routes/images).
 */
async function firstTiles(page: Page, n: number) {
  await gridLoaded(page, n);
  return (await page.evaluate(`[...document.querySelectorAll('.grid .tile img')].slice(0, ${n}).map((i) => ({
    cell: i.getBoundingClientRect().width,
    tile: Number(new URL(i.currentSrc).searchParams.get('tile')),
  }))`)) as { cell: number; tile: number }[];
}

describe('tile sizes', () => {
  test('a phone at 3× asks for the 360 px tile for its 119 px cells, each once, and not page 1 (the HTML has it)', async () => {
    const p = await open(PHONE_3X.viewport, PHONE_3X);
    const tiles = await firstTiles(p.page, 12);
    for (const t of tiles) {
      expect(t.cell).toBeCloseTo(119.3, 0);
      // Sharp (at least the screen's 358 pixels) and no bigger than needed (240 would not be).
      expect(t.tile).toBe(360);
      expect(t.tile).toBeGreaterThanOrEqual(t.cell * 3);
      expect(240).toBeLessThan(t.cell * 3);
    }
    await gridLoaded(p.page);
    const widths = tileWidths(p.requests.filter((r) => r.type === 'image'));
    expect(new Set(widths)).toEqual(new Set([360]));
    // The HTML's preloads say what the grid's images say, so each is fetched once.
    const { preloads, grid } = (await p.page.evaluate(`({
      preloads: [...document.querySelectorAll('link[rel=preload][as=image]')].map((l) => [l.getAttribute('imagesrcset'), l.getAttribute('imagesizes')]),
      grid: [...document.querySelectorAll('.grid .tile img')].slice(0, 12).map((i) => [i.getAttribute('srcset'), i.getAttribute('sizes')]),
    })`)) as { preloads: string[][]; grid: string[][] };
    expect(preloads).toHaveLength(12);
    expect(preloads).toEqual(grid);
    const images = p.requests.filter((r) => r.type === 'image').map((r) => r.url);
    expect(images.length).toBe(new Set(images).size);
    expect(images.length).toBe(30);
    // Page 1 came with the HTML: the app fetched neither it nor the event.
    const fetched = p.requests.filter((r) => r.type === 'fetch').map((r) => new URL(r.url));
    expect(fetched.filter((u) => u.pathname === EVENT_PATH)).toEqual([]);
    expectClean(p);
    await p.close();
  }, 60_000);

  test('desktops get sharp tiles: 240 px for 187 px cells at 1×, at least 1.9× the cell at 2×', async () => {
    const one = await open({ width: 1280, height: 800 });
    for (const t of await firstTiles(one.page, 6)) {
      expect(t.cell).toBeCloseTo(186.7, 0);
      expect(t.tile).toBe(240); // not the 160 px one, upscaled
      expect(t.tile).toBeGreaterThanOrEqual(t.cell);
    }
    expectClean(one);
    await one.close();
    const two = await open({ width: 1280, height: 800 }, { deviceScaleFactor: 2 });
    for (const t of await firstTiles(two.page, 6)) {
      expect([360, 480]).toContain(t.tile);
      expect(t.tile).toBeGreaterThanOrEqual(1.9 * t.cell);
    }
    expectClean(two);
    await two.close();
  }, 60_000);

  test('`sizes` gives the width the CSS lays a cell out at, from the narrowest phone to a wide desktop, never less', async () => {
    const p = await open({ width: 390, height: 844 });
    // Within 17 px after a change of column count `sizes` still says the wider cells (tiles.ts:
    // room for a desktop's scrollbar): there it may say more than the cell, never less.
    const scrollbarRoom = [744, 760, 922, 938, 1100, 1116, 1200, 1216];
    const widths = [
      320, 360, 390, 430, 599, 600, 699, 700, 743, 761, 768, 921, 939, 1024, 1099, 1117, 1199, 1217, 1280,
    ];
    for (const width of [...widths, 1440, 1920, ...scrollbarRoom]) {
      await p.page.setViewportSize({ width, height: 900 });
      // The first entry of `sizes` whose media query matches, laid out on a probe element.
      const { cell, said } = (await p.page.evaluate(`(() => {
        const img = document.querySelector('.grid .tile img');
        const entries = img.getAttribute('sizes').split(/,\\s*(?![^(]*\\))/);
        let length = entries[entries.length - 1];
        for (const e of entries) {
          const m = /^(\\(.*?\\))\\s+(.+)$/.exec(e);
          if (m && matchMedia(m[1]).matches) { length = m[2]; break; }
        }
        const probe = document.createElement('div');
        probe.style.width = length;
        document.body.append(probe);
        const said = probe.getBoundingClientRect().width;
        probe.remove();
        return { cell: img.getBoundingClientRect().width, said };
      })()`)) as { cell: number; said: number };
      expect(said, `${width} px`).toBeGreaterThanOrEqual(cell - 0.5);
      // 100vw counts a scrollbar, if there is one: a few pixels over at most.
      if (!scrollbarRoom.includes(width)) expect(said, `${width} px`).toBeLessThanOrEqual(cell + 6);
    }
    await p.close();
  }, 60_000);
});

describe('the first screen first', () => {
  test('tiles below the first screen are asked for only once every tile of it has arrived; the first row is high priority', async () => {
    const p = await open(PHONE_3X.viewport, PHONE_3X);
    await gridLoaded(p.page);
    // The first screen: the cells on it and the row just below (lib/first-screen.ts).
    const { log, onScreen, highs } = (await p.page.evaluate(`(() => {
      const imgs = [...document.querySelectorAll('.grid .tile img')];
      const below = innerHeight + imgs[0].getBoundingClientRect().height;
      return {
        log: window.__srcLog,
        onScreen: imgs.filter((i) => i.getBoundingClientRect().top < below).length,
        highs: imgs.map((i, n) => (i.getAttribute('fetchpriority') === 'high' ? n : -1)).filter((n) => n >= 0),
      };
    })()`)) as { log: { index: number; complete: number[] }[]; onScreen: number; highs: number[] };
    expect(onScreen).toBeGreaterThanOrEqual(9);
    expect(onScreen).toBeLessThan(30); // the check below can fail
    expect(log.map((e) => e.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // Every on-screen tile got its image before any off-screen one…
    const firstOffScreen = log.findIndex((e) => e.index >= onScreen);
    expect(log.slice(0, firstOffScreen).every((e) => e.index < onScreen)).toBe(true);
    expect(firstOffScreen).toBe(onScreen);
    // …and the off-screen ones only once the on-screen ones had all arrived.
    const onScreenTiles = Array.from({ length: onScreen }, (_, i) => i);
    expect(log[firstOffScreen]?.complete).toEqual(expect.arrayContaining(onScreenTiles));
    expect(highs).toEqual([0, 1, 2]);
    expectClean(p);
    await p.close();
  }, 60_000);
});
