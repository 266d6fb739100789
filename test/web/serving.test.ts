/**
 * How the server hands out the browser app (src/plugins/web.ts): content negotiation on the
 * gallery paths, the app's own pages, the SPA fallback, pre-compressed hashed assets, and the
 * API left as it was. A tiny stand-in build (no Vite) keeps these tests fast.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { contentSecurityPolicy, prefersHtml } from '../../src/plugins/web.js';
import { build, tempDir } from '../helpers/build.js';

const INDEX =
  '<!doctype html><html><body><div id="app"></div><script type="module" src="/assets/app-1.js"></script></body></html>';
const APP_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

async function fakeBuild(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'assets', 'app-1.js'), APP_JS);
  await writeFile(path.join(dir, 'assets', 'app-1.js.br'), brotliCompressSync(APP_JS));
  await writeFile(path.join(dir, 'sw.js'), 'self.addEventListener("push", () => {});');
}

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('prefersHtml', () => {
  test.each([
    [HTML, true],
    ['text/html', true],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
    ['application/json, text/html', false],
    ['text/html, application/json', true],
  ])('%s → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

describe('serving the web app', () => {
  async function app(t: Parameters<typeof tempDir>[0]) {
    const webDir = await tempDir(t, 'photo-web-');
    await fakeBuild(webDir);
    return build(t, { env: { WEB_DIR: webDir } });
  }

  test('a browser navigation to a gallery path gets the app; a fetch gets JSON; both vary on Accept', async (t) => {
    const server = await app(t);
    const page = await server.inject({ url: '/event', headers: { accept: HTML } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(INDEX);
    expect(page.headers.vary).toMatch(/Accept/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");

    for (const accept of [undefined, 'application/json', '*/*']) {
      const json = await server.inject({ url: '/event', headers: accept ? { accept } : {} });
      expect(json.statusCode).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers.vary).toMatch(/Accept/);
      expect(Array.isArray(json.json())).toBe(true);
    }
  });

  test('deep gallery URLs load the app, which asks the API; the API still answers its 404s in JSON', async (t) => {
    const server = await app(t);
    const url = '/event/AX25/Day%201/Cosplay%20Stage';
    const page = await server.inject({ url, headers: { accept: HTML } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    const json = await server.inject({ url, headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });

  test.for([
    '/',
    '/favorites',
    '/checkout',
    '/order',
    '/order/AX25-0001',
    '/admin',
    '/admin/orders/AX25-0001',
    '/admin/events',
  ])('the app page %s is index.html', async (url, t) => {
    const server = await app(t);
    const res = await server.inject({ url, headers: { accept: HTML } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });

  test('the receipt’s feedback link (/?feedback=<order>) opens the app', async (t) => {
    const server = await app(t);
    const res = await server.inject({ url: '/?feedback=AX25-0001', headers: { accept: HTML } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });

  test('unknown paths: the app with 404 for a browser, the JSON 404 for everyone else and for /api', async (t) => {
    const server = await app(t);
    const page = await server.inject({ url: '/no/such/page', headers: { accept: HTML } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toBe(INDEX);

    const json = await server.inject({ url: '/no/such/page' });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ code: 'NOT_FOUND' });

    const api = await server.inject({ url: '/api/no-such-route', headers: { accept: HTML } });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND', details: 'GET /api/no-such-route' });
  });

  test('hashed assets are served pre-compressed and cached for a year; sw.js is revalidated', async (t) => {
    const server = await app(t);
    const br = await server.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(APP_JS.length / 10);

    const plain = await server.inject({ url: '/assets/app-1.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);

    const sw = await server.inject({ url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  test('the app’s routes stay out of the OpenAPI document', async (t) => {
    const server = await app(t);
    const doc = (await server.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths);
    for (const hidden of ['/', '/*', '/checkout', '/admin', '/admin/*', '/favorites', '/sw.js', '/assets/app-1.js']) {
      expect(paths).not.toContain(hidden);
    }
    expect(paths).toContain('/event/{eventCode}');
  });

  test('without a build, pages explain how to build the app and the API works as before', async (t) => {
    const empty = await tempDir(t, 'photo-web-');
    const server = await build(t, { env: { WEB_DIR: empty } });
    const page = await server.inject({ url: '/', headers: { accept: HTML } });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain('npm run build');
    const api = await server.inject({ url: '/event' });
    expect(api.statusCode).toBe(200);
  });

  test('the page policy loads nothing from other hosts with ALTCHA, and allows a hosted CAPTCHA when chosen', () => {
    const own = contentSecurityPolicy({ CAPTCHA_PROVIDER: 'altcha' });
    expect(own).not.toMatch(/https?:/);
    expect(own).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy({ CAPTCHA_PROVIDER: 'turnstile' })).toContain('https://challenges.cloudflare.com');
  });
});
