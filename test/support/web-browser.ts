/**
 * A real headless Chromium from the npm registry alone (@sparticuz/chromium) driven by
 * playwright-core. Flags: the package's own, minus `--single-process` (closing a context
 * would take the whole browser down) and the two that relax web security (the tests should
 * see what a visitor's browser enforces); plus switches that stop Chromium from calling
 * Google on a machine without internet.
 */
import chromium from '@sparticuz/chromium';
import {
  type Browser,
  type BrowserContextOptions,
  type Page,
  chromium as playwright,
  type Request,
} from 'playwright-core';
import { expect } from 'vitest';

const DROPPED = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);

const QUIET_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** `extraArgs`: more switches, e.g. a fake camera (`--use-file-for-fake-video-capture=...`). */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return playwright.launch({
    executablePath: await chromium.executablePath(),
    args: [...chromium.args.filter((a) => !DROPPED.has(a)), ...QUIET_ARGS, ...extraArgs],
    headless: true,
  });
}

let shared: Promise<Browser> | undefined;

/**
 * The test worker's Chromium with the default switches: launched by the first browser file the
 * worker runs and kept for the next ones (vitest.config.ts keeps a worker's modules from file to
 * file), where each launch cost a file about a second. Files share no state through it: every
 * page is opened in a context of its own (`openPage`: own storage, cache and cookies), and a
 * file closes the contexts it leaves open (`closeContexts`). Playwright closes the browser when
 * the worker exits; one that has gone away (a crash) is launched anew. A file that needs other
 * switches (a fake camera) launches its own with `launchBrowser`.
 */
export async function sharedBrowser(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  shared = launchBrowser();
  return shared;
}

/** Closes every context of `browser`: what a file using the shared browser leaves open. */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((c) => c.close()));
}

export const PHONE = { width: 360, height: 740 } as const;

/**
 * Chrome DevTools' "Fast 3G" for CDP `Network.emulateNetworkConditions`: 150 ms round trip,
 * 1.6 Mbps down, 750 kbps up. The browser test proves the gallery becomes interactive under it;
 * bench/first-view.bench.ts holds how soon.
 */
export const FAST_3G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
} as const;
/** The narrowest phones, and the width WCAG's reflow criterion (1.4.10) names. */
export const SMALL_PHONE = { width: 320, height: 640 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * `settled`: resolves once the page shows no spinner and has no request in flight (data and
 * images in), checked on the page's own request events: what a layout check should look at.
 */
export type WatchedPage = { page: Page; errors: string[]; settled: () => Promise<void>; close: () => Promise<void> };

/**
 * A page in a fresh context (its own storage and cache) that records console errors,
 * uncaught exceptions and failed requests, so a test can assert there were none.
 */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
  opts: BrowserContextOptions & { init?: string } = {},
): Promise<WatchedPage> {
  const { init, ...contextOptions } = opts;
  const context = await browser.newContext({ viewport, acceptDownloads: true, ...contextOptions });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  // A wait that can't succeed fails in 15 s naming its locator, instead of Playwright's
  // 30 s default running into the test's own timeout with no clue which step hung.
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const inFlight = new Set<Request>();
  page.on('request', (r) => {
    // A live gallery's EventSource stays open by design: it is never "in".
    if (r.headers().accept !== 'text/event-stream') inFlight.add(r);
  });
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // Aborted fetches (a page left before its answer came) are the app's own doing.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED')
      errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  // A page shows a spinner from its first render until its data is in, so a fetch its effects
  // have yet to start still counts; requests hold the rest (later data, images).
  const settled = () =>
    expect.poll(async () => inFlight.size === 0 && (await page.locator('.spinner:visible').count()) === 0).toBe(true);
  return { page, errors, settled, close: () => context.close() };
}

/** `document.documentElement.scrollWidth <= innerWidth`: nothing sticks out sideways. */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  // A string: this side is compiled without the DOM's types.
  return (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
}

/**
 * Escape closes the photo viewer, which goes back in history (the photo's link leaves the
 * address bar): a navigation started before that back lands is cancelled by it, so wait for it.
 */
export async function closeViewer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => page.url()).not.toContain('/photo/');
}
