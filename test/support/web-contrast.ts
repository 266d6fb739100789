/**
 * A WCAG 2 contrast check run inside the page: every visible element that holds text, its
 * computed colour against the background it is drawn on (semi-transparent layers composited
 * up to the first opaque ancestor). AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
 * Text drawn over an image (a photo's number badge) and disabled controls are skipped: the
 * first has no single background to compute against, the second is exempt in WCAG.
 *
 * Kept as source text evaluated in the page: the tests are compiled without the DOM's types.
 */
import type { Page } from 'playwright-core';

export type ContrastProblem = { text: string; ratio: number; required: number; color: string; background: string };

const SCRIPT = `(() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = '1'] = m[1].split(/[\\s,/]+/).filter(Boolean);
    return [Number(r), Number(g), Number(b), Number(a)];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const backgroundOf = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return null;
      const bg = parse(s.backgroundColor);
      if (bg && bg[3] > 0) {
        layers.push(bg);
        if (bg[3] >= 1) break;
      }
      // Text laid over a sibling image (badges on photos): no single background.
      if (e.parentElement && [...e.parentElement.children].some((c) => c !== e && c.tagName === 'IMG' && getComputedStyle(e).position === 'absolute')) return null;
    }
    let base = [255, 255, 255, 1];
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const problems = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own) continue;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || s.visibility !== 'visible' || el.closest('[aria-hidden="true"], .sr-only, noscript, option')) continue;
    if (el.closest(':disabled, [aria-disabled="true"]')) continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    if (opacity < 0.99) continue;
    const bg = backgroundOf(el);
    if (!bg) continue;
    const fg = parse(s.color);
    if (!fg) continue;
    const color = over(fg, bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const required = large ? 3 : 4.5;
    const value = ratio(color, bg);
    checked += 1;
    if (value < required) {
      problems.push({ text: el.textContent.trim().slice(0, 60), ratio: Math.round(value * 100) / 100, required, color: s.color, background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(',') + ')' });
    }
  }
  return { checked, problems };
})()`;

/** The texts below AA, and how many texts were measured (so an empty list means something). */
export async function contrastCheck(page: Page): Promise<{ checked: number; problems: ContrastProblem[] }> {
  return (await page.evaluate(SCRIPT)) as { checked: number; problems: ContrastProblem[] };
}
