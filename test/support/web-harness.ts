/**
 * The browser tests' set-up: the app built from the current sources into a temporary folder
 * (test/support/web-build.ts), the worker's Chromium (web-browser.ts, `sharedBrowser`), and the
 * whole service serving that build (web-server.ts). The server reads index.html when it starts,
 * so it starts after the build; `close` removes the build and the server, and closes the
 * file's browser contexts (the browser stays for the worker's next file).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { closeContexts, sharedBrowser } from './web-browser.js';
import { buildWebApp } from './web-build.js';
import { startWebServer, type WebServer } from './web-server.js';

/**
 * How long a browser file's set-up (the app's build, Chromium, the server) may take before its
 * `beforeAll` counts as hung: a bound for a hang, not a speed. With six jobs on 2 cores (load
 * average 30–48) set-ups took over 120 s, the bound most files had.
 */
export const SET_UP_TIMEOUT_MS = 300_000;

/** `webDir`: the built app, for a test that starts a server of its own with other settings. */
export type WebHarness = { server: WebServer; browser: Browser; webDir: string; close: () => Promise<void> };

export async function startWebHarness(): Promise<WebHarness> {
  const webDir = await mkdtemp(path.join(tmpdir(), 'photo-webapp-'));
  const [, browser] = await Promise.all([buildWebApp(webDir), sharedBrowser()]);
  const server = await startWebServer(webDir);
  return {
    server,
    browser,
    webDir,
    close: async () => {
      await closeContexts(browser);
      await server.close();
      await rm(webDir, { recursive: true, force: true });
    },
  };
}
