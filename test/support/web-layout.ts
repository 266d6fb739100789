/**
 * What the browser tests ask of every page they look at: nothing wider than the screen, no
 * text cut off by a box that hides what overflows it, no short word broken across lines,
 * every text at WCAG AA contrast
 * (web-contrast.ts), and no console error, page error or failed request along the way.
 *
 * The clipping check: every visible element holding text of its own must lie inside each
 * ancestor that clips (`overflow` hidden or clip). Boxes that scroll are fine (the rest is
 * a swipe away), and so is text that ends in an ellipsis inside its own box (a long site name
 * in the top bar): that is cut on purpose, and says so. Kept as source text evaluated in the
 * page: the tests are compiled without the DOM's types.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { horizontalOverflow, type WatchedPage } from './web-browser.js';
import { contrastCheck } from './web-contrast.js';

type ClippedText = { text: string; overBy: number };

const CLIPPED_SCRIPT = `(() => {
  const clipped = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up);
      if (!/hidden|clip/.test(s.overflowX)) continue;
      if (s.textOverflow === 'ellipsis') break;
      const edge = up.getBoundingClientRect();
      const overBy = Math.max(edge.left - box.left, box.right - edge.right);
      if (overBy > 1) {
        clipped.push({ text: el.textContent.trim().slice(0, 60), overBy: Math.round(overBy) });
        break;
      }
    }
  }
  return clipped;
})()`;

/**
 * Short single words drawn on more than one line ("Siz" above "e": a column squeezed to a
 * letter's width). Longer strings without a space (an email, a file path) may break.
 */
const BROKEN_WORDS_SCRIPT = `(() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const word = node.textContent.trim();
    if (word.length < 2 || word.length > 16 || /\\s/.test(word)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (lines.size > 1) broken.push(word);
  }
  return broken;
})()`;

/** Short words broken across lines. */
async function brokenWords(page: Page): Promise<string[]> {
  return (await page.evaluate(BROKEN_WORDS_SCRIPT)) as string[];
}

/** Texts cut off by an ancestor that hides its overflow, and by how many pixels. */
async function clippedTexts(page: Page): Promise<ClippedText[]> {
  return (await page.evaluate(CLIPPED_SCRIPT)) as ClippedText[];
}

/** Nothing wider than the viewport, no text cut off, and every text at WCAG AA contrast. */
export async function expectGoodLayout(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await horizontalOverflow(page);
  expect(scrollWidth, `${what}: page wider than the viewport`).toBeLessThanOrEqual(innerWidth);
  expect(await clippedTexts(page), `${what}: text cut off`).toEqual([]);
  expect(await brokenWords(page), `${what}: words broken across lines`).toEqual([]);
  const contrast = await contrastCheck(page);
  expect(contrast.checked, `${what}: texts measured for contrast`).toBeGreaterThan(3);
  expect(contrast.problems, `${what}: text below AA contrast`).toEqual([]);
}

/** No console error, page error or failed request on the page so far. */
export function expectClean(p: WatchedPage): void {
  expect(p.errors, 'console errors, page errors or failed requests').toEqual([]);
}
