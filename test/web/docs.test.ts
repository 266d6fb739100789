/**
 * `/docs` (Swagger UI) in a real Chromium, against the service on a random loopback port:
 * "Try it out" reaches the server it was loaded from, whatever the port, and the page's CSP
 * lets it (docs/contract.md, "Operations").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeContexts, DESKTOP, openPage, sharedBrowser } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS } from '../support/web-harness.js';
import { startWebServer, type WebServer } from '../support/web-server.js';

let browser: Browser;
let server: WebServer;
let noWebDir: string;

beforeAll(async () => {
  noWebDir = await mkdtemp(path.join(tmpdir(), 'photo-docs-')); // /docs needs no built app
  // No PUBLIC_BASE_URL: the document's servers are relative, so any port works. No photos:
  // /docs shows none, and indexing the demo library's 60 would only load the machine.
  [browser, server] = await Promise.all([
    sharedBrowser(),
    startWebServer(noWebDir, { PUBLIC_BASE_URL: '', DEMO_LIBRARY: 'off' }),
  ]);
}, SET_UP_TIMEOUT_MS);

afterAll(async () => {
  if (browser) await closeContexts(browser);
  await server?.close();
  if (noWebDir) await rm(noWebDir, { recursive: true, force: true });
});

test('"Try it out" on /docs calls this server on its own port, and the CSP allows it', async () => {
  expect(new URL(server.url).port).not.toBe('3000');
  const p = await openPage(browser, DESKTOP);
  try {
    const { page } = p;
    // Swagger UI lays out the whole document before a block opens: 7 s of one core alone,
    // 20 s and more beside the rest of the suite. A step waits for it; a hang still fails.
    page.setDefaultTimeout(90_000);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const docs = await page.goto(`${server.url}/docs/`);
    const csp = docs?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(docs?.headers()['x-content-type-options']).toBe('nosniff');

    const op = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/healthz$/ }) });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((r) => r.url() === `${server.url}/healthz`);
    await op.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    await expect
      .poll(() => op.locator('.live-responses-table .response .response-col_status').first().textContent())
      .toContain('200');
    expect(
      await op.locator('.live-responses-table .response .response-col_description').first().textContent(),
    ).toContain('"ok"');
    expect(violations).toEqual([]);
    expect(p.errors).toEqual([]);
  } finally {
    await p.close();
  }
}, 240_000);
