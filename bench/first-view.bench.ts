/**
 * `npm run bench -- first-view`
 *
 * An attendee's first look at a session of the gallery on a phone on a "Fast 3G" link
 * (test/support/web-browser.ts, FAST_3G: Chromium's own emulation over CDP): real Chromium
 * (@sparticuz/chromium through playwright-core) as a 360×740 phone, the whole service serving
 * the browser app built from the current sources, with the demo library (test/support/web-server.ts,
 * as the browser tests run it). Measured: from the navigation's start to the page's
 * `gallery-interactive` mark (the first photos on screen and every handler attached,
 * web/src/pages/gallery/feed.ts).
 *
 * Baseline, in the same run: the same visit with no throttling, so the ratio is what the
 * network costs. Each visit is a fresh browser context (an empty cache); one unthrottled visit
 * first renders the session's thumbnails; then RUNS visits of each kind in alternating order,
 * medians reported.
 *
 * Target: interactive ≤ 2 s on Fast 3G (it was a timed assertion in test/web/browser.test.ts,
 * which now proves only that the page becomes interactive under the emulation).
 * FIRST_VIEW_RUNS sets the visits per kind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { FAST_3G, launchBrowser, PHONE } from '../test/support/web-browser.js';
import { buildWebApp } from '../test/support/web-build.js';
import { startWebServer, type WebServer } from '../test/support/web-server.js';
import { type BenchRow, median, printReport } from './lib/report.js';

const RUNS = Number(process.env.FIRST_VIEW_RUNS ?? 5);
const TARGET_MS = 2000;
const SESSION_PATH = `/event/${encodeURIComponent('Harbor Comic Con')}/Day%201/Cosplay%20Stage`;

/** Milliseconds from the navigation's start to `gallery-interactive`, in a fresh context. */
async function visit(browser: Browser, url: string, throttled: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: PHONE });
  try {
    const page = await context.newPage();
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    }
    await page.goto(url);
    await page.waitForSelector('html[data-gallery-ready]', { timeout: 60_000 });
    // A string: the page's types are not this file's.
    const ms = (await page.evaluate(
      `performance.getEntriesByName('gallery-interactive')[0]?.startTime ?? NaN`,
    )) as number;
    if (!(ms > 0)) throw new Error(`no gallery-interactive mark (${ms})`);
    return ms;
  } finally {
    await context.close();
  }
}

export default async function firstViewBench(): Promise<void> {
  const say = (line: string) => process.stdout.write(`  ${line}\n`);
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'first-view-web-'));
  let server: WebServer | undefined;
  let browser: Browser | undefined;
  try {
    say('preparing: the web app, the server with the demo library, Chromium');
    [, browser] = await Promise.all([buildWebApp(webDir), launchBrowser()]);
    server = await startWebServer(webDir);
    const url = server.url + SESSION_PATH;
    await visit(browser, url, false); // thumbnails rendered, caches warm

    const fast3g: number[] = [];
    const open: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? [true, false] : [false, true];
      for (const throttled of order) {
        const ms = await visit(browser, url, throttled);
        (throttled ? fast3g : open).push(ms);
        say(`${throttled ? 'Fast 3G' : 'no throttling'}: interactive after ${Math.round(ms)} ms`);
      }
    }
    const value = Math.round(median(fast3g));
    const rows: BenchRow[] = [
      {
        name: 'first gallery view interactive, Fast 3G',
        value,
        unit: 'ms',
        baseline: Math.round(median(open)),
        target: `<= ${TARGET_MS} ms`,
        pass: value <= TARGET_MS,
      },
    ];
    printReport(`first view (360×740 phone, a session of the demo library; ${RUNS} visits each)`, rows);
  } finally {
    await browser?.close();
    await server?.close();
    await rm(webDir, { recursive: true, force: true });
  }
}
