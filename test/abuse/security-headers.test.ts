/**
 * Response headers a browser relies on (docs/contract.md, "Hardening"), over real HTTP so
 * that every path that answers is exercised: Fastify's routes and its errors, the router's
 * own refusals, requests Node's parser rejects, the gallery pages' fast path, static files,
 * images and /docs.
 *
 * - `X-Content-Type-Options: nosniff` on every response, JSON and errors included;
 * - `Strict-Transport-Security` when PUBLIC_BASE_URL is https, and never over plain http
 *   (a browser would then refuse plain http to that host for a year);
 * - /docs may not be framed (`frame-ancestors 'none'`), like the app's own pages.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { adminHeaders, build, tempDir } from '../helpers/build.js';
import { rawExchange } from '../support/abuse-raw.js';
import { writeLibrary } from '../support/orders-fixtures.js';

async function server(t: TestContext, env: Record<string, string> = {}) {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  const app = await build(t, { dataDir, env });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.photos.ready();
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, base: `http://127.0.0.1:${port}` };
}

type Probe = { name: string; status: number; headers: Record<string, string> };

/** One request of each kind the server answers, with what came back. */
async function probeEverything(port: number, base: string): Promise<Probe[]> {
  const probes: Probe[] = [];
  const via = async (name: string, url: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${url}`, init);
    await res.arrayBuffer();
    probes.push({ name, status: res.status, headers: Object.fromEntries(res.headers) });
    return res;
  };
  // The first page request refreshes the event settings through the route; the second is
  // answered by the fast path (src/routes/gallery/fast-path.ts).
  await via('gallery page (route)', '/event/Anime%20Expo');
  await via('gallery page (fast path)', '/event/Anime%20Expo');
  const session = await fetch(`${base}/event/Anime%20Expo/Day%201/Cosplay`).then(
    (r) => r.json() as Promise<{ photos: { thumbnail: string }[] }>,
  );
  const thumb = new URL(session.photos[0]?.thumbnail ?? '').pathname;
  await via('thumbnail', thumb);
  await via('health', '/healthz');
  await via('readiness', '/readyz');
  await via('events list', '/api/events');
  await via('admin list', '/api/orders/pending', { headers: adminHeaders });
  await via('401', '/api/orders/pending');
  await via('404 JSON', '/api/no-such-route');
  await via('400 validation', '/event/Anime%20Expo?page=zero');
  await via('400 body', '/api/orders/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{not json',
  });
  await via('415', '/api/orders/create', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
  await via('router refusal (bad percent-encoding)', '/event/%E0%A4%A');
  await via('preflight', '/api/orders/create', {
    method: 'OPTIONS',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
  });
  await via('app page (HTML)', '/', { headers: { accept: 'text/html' } });
  await via('gallery navigation (HTML)', '/event/Anime%20Expo', { headers: { accept: 'text/html' } });
  await via('static asset', '/assets/app-test.js');
  await via('service worker', '/sw.js');
  await via('OpenAPI document', '/openapi.json');
  await via('docs', '/docs');
  await via('docs redirect target', '/docs/static/index.html');
  // Requests Node's HTTP parser refuses never reach Fastify (errors/handler.ts answers them).
  const malformed = await rawExchange(port, [
    'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
  ]);
  probes.push({ name: 'malformed HTTP', status: malformed.status ?? 0, headers: malformed.headers });
  return probes;
}

describe('security headers', () => {
  test('X-Content-Type-Options: nosniff on every response; no HSTS over plain http', async (t) => {
    const { port, base } = await server(t);
    const probes = await probeEverything(port, base);
    // The probes did reach each kind of answer.
    expect(probes.map((p) => p.status)).toEqual(expect.arrayContaining([200, 204, 400, 401, 404, 415]));
    for (const p of probes) {
      expect(p.headers['x-content-type-options'], `${p.name} (${p.status})`).toBe('nosniff');
      expect(p.headers['strict-transport-security'], `${p.name} (${p.status})`).toBeUndefined();
    }
  });

  test('PUBLIC_BASE_URL on https: Strict-Transport-Security on every response', async (t) => {
    const { port, base } = await server(t, { PUBLIC_BASE_URL: 'https://photos.example.com' });
    for (const p of await probeEverything(port, base)) {
      expect(p.headers['strict-transport-security'], `${p.name} (${p.status})`).toMatch(/^max-age=\d{7,}/);
      expect(p.headers['x-content-type-options'], `${p.name} (${p.status})`).toBe('nosniff');
    }
  });

  test('/docs may not be framed by another site', async (t) => {
    const { base } = await server(t);
    for (const url of ['/docs', '/docs/static/index.html']) {
      const res = await fetch(`${base}${url}`);
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, url).toMatch(/frame-ancestors 'none'/);
      expect(csp, url).not.toMatch(/frame-ancestors 'self'/);
    }
  });
});
