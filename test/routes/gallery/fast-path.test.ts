/**
 * The gallery's fast path (src/routes/gallery/fast-path.ts) answers plain page requests
 * before Fastify routes them. It must answer exactly what the route answers, and leave
 * everything else to the route. Requests over real HTTP can take the fast path; `inject`
 * never does (it calls Fastify's handler directly), so inject is the reference here.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, type TestContext, test } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { plainQuery } from '../../../src/routes/gallery/fast-path.js';
import { PAGE_GZIP_MIN_BYTES } from '../../../src/routes/gallery/pages.js';
import { tempDir, testConfig } from '../../helpers/build.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

const WEIRD = 'Fan Fest #1 & 100%';

/** An app on real HTTP, counting the requests that reached Fastify's routing. */
async function galleryServer(t: TestContext, logLevel?: string) {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, 'Anime Expo', { name: 'Anime Expo 2026', prefix: 'AX26' });
  const img = await makeImage();
  for (const [day, session, file] of [
    ['Day 1', 'Cosplay', 'a.jpg'],
    ['Day 1', 'Cosplay', 'b.jpg'],
    ['Day 1', 'Stage', 'c.jpg'],
    ['Day 2', 'Cosplay', 'd.jpg'],
  ] as const) {
    await writePhoto(root, ['Anime Expo', day, session, file], img);
  }
  await writePhoto(root, [WEIRD, 'Day 1', 'Main Hall', 'x.jpg'], img);
  // A logger only when asked: the level decides whether the fast path is used at all.
  const logger = logLevel ? { level: logLevel, stream: new Writable({ write: (_c, _e, cb) => cb() }) } : false;
  const app = await buildApp(testConfig(dataDir, logLevel ? { LOG_LEVEL: logLevel } : {}), logger);
  t.onTestFinished(() => app.close());
  const routed: string[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    routed.push(request.url);
    done();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.photos.ready();
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The first page request refreshes the event settings snapshot through the route.
  await fetch(`${base}/event/Anime%20Expo`);
  routed.length = 0;
  return { app, base, routed, root };
}

/** A GET over plain node:http: no decoding, the bytes as sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, async (res) => {
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        resolve({ headers: res.headers, body: Buffer.concat(chunks) });
      })
      .on('error', reject);
  });
}

/** Headers that differ between any two responses. */
const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

function stable(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => !VOLATILE.has(k.toLowerCase()))
      .map(([k, v]): [string, string] => [k.toLowerCase(), String(v)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const PLAIN = [
  '/event/Anime%20Expo',
  '/event/Anime%20Expo?page=1&limit=2',
  '/event/Anime%20Expo?limit=2&page=2',
  '/event/Anime%20Expo?page=9',
  '/event/Anime%20Expo?limit=500',
  '/event/Anime%20Expo/Day%201',
  '/event/Anime%20Expo/Day%201?page=2&limit=1',
  '/event/Anime%20Expo/Day%201/Cosplay?limit=1',
  `/event/${encodeURIComponent(WEIRD)}/Day%201/Main%20Hall`,
];

describe('gallery fast path', () => {
  test('plain page requests are answered before routing, with the route’s status, headers and bytes', async (t) => {
    const { app, base, routed } = await galleryServer(t);
    for (const url of PLAIN) {
      // fetch asks for gzip and decodes it; the reference is asked the same way and decoded here.
      const fast = await fetch(base + url);
      const body = Buffer.from(await fast.arrayBuffer());
      const reference = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate' } });
      const referenceBody =
        reference.headers['content-encoding'] === 'gzip' ? gunzipSync(reference.rawPayload) : reference.rawPayload;
      expect(fast.status, url).toBe(200);
      expect(fast.status, url).toBe(reference.statusCode);
      expect(body.equals(referenceBody), url).toBe(true);
      expect(stable(Object.fromEntries(fast.headers)), url).toEqual(stable(reference.headers));
      expect(fast.headers.get('x-request-id'), url).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    }
    // only the inject references reached the router
    expect(routed).toEqual(PLAIN);
  });

  test('a page is gzipped for a client that accepts it, on both paths alike; small pages and other clients get bytes', async (t) => {
    const { app, base, routed } = await galleryServer(t);
    const url = '/event/Anime%20Expo';
    const identity = await fetch(base + url, { headers: { 'accept-encoding': 'identity' } });
    const plain = Buffer.from(await identity.arrayBuffer());
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(identity.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(plain.length).toBeGreaterThanOrEqual(PAGE_GZIP_MIN_BYTES);
    const raw = await rawGet(`${base}${url}`, { 'accept-encoding': 'gzip' });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers.vary).toBe('Accept, Accept-Encoding');
    expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
    expect(raw.body.length).toBeLessThan(plain.length);
    expect(gunzipSync(raw.body).equals(plain)).toBe(true);
    expect(routed).toEqual([]); // both answered by the fast path
    const viaRoute = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(viaRoute.headers['content-encoding']).toBe('gzip');
    expect(viaRoute.headers.vary).toBe('Accept, Accept-Encoding');
    expect(gunzipSync(viaRoute.rawPayload).equals(plain)).toBe(true);
    // A refused gzip, or a page under PAGE_GZIP_MIN_BYTES, goes out as it is.
    const refused = await rawGet(`${base}${url}`, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain)).toBe(true);
    const empty = await rawGet(`${base}/event/Anime%20Expo?page=9`, { 'accept-encoding': 'gzip' });
    expect(empty.body.length).toBeLessThan(PAGE_GZIP_MIN_BYTES);
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(empty.body.toString('utf8'))).toMatchObject({ photos: [] });
  });

  test('an incoming X-Request-Id is echoed, as the route does', async (t) => {
    const { base, routed } = await galleryServer(t);
    const res = await fetch(`${base}/event/Anime%20Expo`, { headers: { 'x-request-id': 'client-7' } });
    expect(res.headers.get('x-request-id')).toBe('client-7');
    expect(routed).toEqual([]);
  });

  test('everything else goes through the route: errors, navigations, unusual queries and paths', async (t) => {
    const { app, base, routed } = await galleryServer(t);
    // [url, request, status, requests routed]: a malformed escape is refused by Fastify's router
    // itself (frameworkErrors in app.ts), before any hook, so no hook sees it.
    const cases: [string, RequestInit, number, number?][] = [
      ['/event/Nope', {}, 404],
      ['/event/Anime%20Expo/Day%209', {}, 404],
      ['/event/Anime%20Expo?page=0', {}, 400],
      ['/event/Anime%20Expo?page=abc', {}, 400],
      ['/event/Anime%20Expo?page=1&page=2', {}, 400],
      ['/event/Anime%20Expo?sort=name', {}, 200],
      ['/event/Anime%20Expo?page=%31', {}, 200],
      ['/event/Anime%20Expo/', {}, 200],
      ['/event/%E0%A4%A', {}, 400, 0],
      ['/event/Anime%20Expo', { headers: { accept: 'text/html,application/xhtml+xml' } }, 200],
      ['/event/Anime%20Expo', { method: 'HEAD' }, 200],
    ];
    for (const [url, init, status, reached = 1] of cases) {
      routed.length = 0;
      const res = await fetch(base + url, init);
      await res.arrayBuffer();
      expect(res.status, url).toBe(status);
      expect(routed.length, `${init.method ?? 'GET'} ${url} ${JSON.stringify(init.headers ?? {})}`).toBe(reached);
      if (status >= 400) expect(await (await app.inject({ url })).json()).toHaveProperty('code');
    }
  });

  test('at debug level every read is logged, so every request goes through the route', async (t) => {
    const { base, routed } = await galleryServer(t, 'debug');
    await (await fetch(`${base}/event/Anime%20Expo`)).arrayBuffer();
    expect(routed).toEqual(['/event/Anime%20Expo']);
  });

  test('a photo added to the library is in the next fast answer', async (t) => {
    const { app, base, routed, root } = await galleryServer(t);
    const count = async () => (await (await fetch(`${base}/event/Anime%20Expo`)).json()) as { totalCount: number };
    expect((await count()).totalCount).toBe(4);
    await writePhoto(root, ['Anime Expo', 'Day 2', 'Cosplay', 'e.jpg'], await makeImage());
    await app.photos.rescan();
    routed.length = 0;
    // The library's generation moved: the settings snapshot refreshes through the route once,
    // then the fast path answers from the new page.
    expect((await count()).totalCount).toBe(5);
    expect((await count()).totalCount).toBe(5);
    expect(routed.length).toBeLessThanOrEqual(1);
  });

  test('a shut front door sends every request to Fastify', async (t) => {
    const { app, base, routed } = await galleryServer(t);
    app.frontDoor.shut(); // what preClose does
    const res = await fetch(`${base}/event/Anime%20Expo`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(routed).toEqual(['/event/Anime%20Expo']);
  });

  test('once the app is closing, requests go to Fastify, which refuses them', async (t) => {
    const { app, base } = await galleryServer(t);
    const closing = app.close();
    const res = await fetch(`${base}/event/Anime%20Expo`).catch(() => undefined);
    await closing;
    // either refused at the socket or answered 503 by Fastify, never served by the fast path
    if (res) expect(res.status).toBe(503);
  });
});

describe('plainQuery', () => {
  test.each([
    ['', { page: 1, limit: 50 }],
    ['page=3', { page: 3, limit: 50 }],
    ['limit=7&page=2', { page: 2, limit: 7 }],
    ['limit=101', { page: 1, limit: 100 }],
  ])('%s is plain', (query, expected) => {
    expect(plainQuery(query)).toEqual(expected);
  });

  test.each([
    'page',
    'page=',
    'page=0',
    'page=01',
    'page=-1',
    'page=1.5',
    'page=1&page=1',
    'x=1',
    'page=1&',
    '&page=1',
    'page=%31',
    'page=1e3',
  ])('%s is left to the route', (query) => {
    expect(plainQuery(query)).toBeUndefined();
  });
});
