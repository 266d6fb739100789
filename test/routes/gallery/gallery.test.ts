import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { z } from 'zod';
import galleryRoutes from '../../../src/routes/gallery/index.js';
import { DayPage, EventList, EventPage, SessionPage } from '../../../src/routes/gallery/schemas.js';
import { build, type TestApp, tempDir } from '../../helpers/build.js';
import { unscannedLibraryApp } from '../../helpers/unscanned-library.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

const BASE = 'http://photos.test';
const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });
const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
const past = new Date(Date.now() - 86_400_000).toISOString();
const WEIRD = 'Fan Fest #1 & 100%';

/**
 * Anime Expo: Day 1 / Cosplay (3), Day 1 / Stage (2), Day 2 / Cosplay (2) = 7 photos.
 * Three more events exercise status and ordering; one has a name that needs encoding.
 * A folder next to PHOTOS_DIR holds a photo no request may ever reach.
 */
async function galleryApp(t: TestContext): Promise<TestApp> {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  const shot = (hhmm: string, day = '03') => makeImage({ takenAt: `2026:07:${day} ${hhmm}:00` });
  await writeEventJson(root, 'Anime Expo', {
    name: 'Anime Expo 2026',
    date: '2026-07-03',
    prefix: 'AX26',
    deadline: future,
  });
  await writePhoto(root, ['Anime Expo', 'Day 1', 'Cosplay', 'c.jpg'], await shot('10:02'));
  await writePhoto(root, ['Anime Expo', 'Day 1', 'Cosplay', 'a.jpg'], await shot('10:00'));
  await writePhoto(root, ['Anime Expo', 'Day 1', 'Cosplay', 'b.jpg'], await shot('10:01'));
  await writePhoto(root, ['Anime Expo', 'Day 1', 'Stage', 'd.jpg'], await shot('11:00'));
  await writePhoto(root, ['Anime Expo', 'Day 1', 'Stage', 'e.jpg'], await makeImage({ width: 40, height: 60 }));
  await writePhoto(root, ['Anime Expo', 'Day 2', 'Cosplay', 'f.jpg'], await shot('09:00', '04'));
  await writePhoto(root, ['Anime Expo', 'Day 2', 'Cosplay', 'g.jpg'], await shot('09:30', '04'));

  await writeEventJson(root, 'Old Con', { date: '2024-01-01', deadline: past });
  await writePhoto(root, ['Old Con', 'D', 'S', 'x.jpg'], await makeImage());
  await writeEventJson(root, 'Archived', { date: '2025-01-01', isArchived: true });
  await writePhoto(root, ['Archived', 'D', 'S', 'x.jpg'], await makeImage());
  await writeEventJson(root, WEIRD, { date: '2025-06-01', orderingEnabled: false });
  await writePhoto(root, [WEIRD, 'Day #1', 'Q&A 100%', 'x.jpg'], await makeImage());

  // Recognisable by its width (77), which no photo of the library has.
  await writePhoto(dataDir, ['outside', 'D', 'S', 'secret.jpg'], await makeImage({ width: 77 }));
  const app = await build(t, { dataDir });
  await app.photos.ready(); // start-up waits 2 s at most; a loaded CI machine may need longer
  return app;
}

/** zod strips unknown keys: equal after parsing means no field outside the allow-list. */
function expectAllowListed(schema: z.ZodType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

const enc = encodeURIComponent;

describe('GET /event', () => {
  test('every event, newest first, with thumbnails and status', async (t) => {
    const app = await galleryApp(t);
    const res = await app.inject({ url: '/event' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expectAllowListed(EventList, body);
    expect(body.map((e: { code: string }) => e.code)).toEqual(['Anime Expo', WEIRD, 'Archived', 'Old Con']);

    const [ax] = body;
    expect(ax).toMatchObject({
      code: 'Anime Expo',
      name: 'Anime Expo 2026',
      date: '2026-07-03',
      photoCount: 7,
      status: { isArchived: false, orderingEnabled: true, deadline: future, active: true },
    });
    expect(ax.thumbnails).toHaveLength(4);
    const first = app.photos.photosOf('Anime Expo')?.[0];
    expect(ax.thumbnails[0]).toBe(`${BASE}/api/proxy-image/Anime%20Expo/${first?.id}?v=${first?.version}`);

    const status = Object.fromEntries(body.map((e: { code: string; status: unknown }) => [e.code, e.status]));
    expect(status['Old Con']).toEqual({
      isArchived: false,
      orderingEnabled: true,
      deadline: past,
      active: false,
      closedReason: 'deadline',
    });
    expect(status.Archived).toMatchObject({ isArchived: true, active: false, closedReason: 'archived' });
    expect(status[WEIRD]).toMatchObject({ orderingEnabled: false, active: false, closedReason: 'disabled' });
    expect(status['Anime Expo']).toMatchObject({ active: true, closedReason: null });
    expect(body[1].thumbnails[0]).toMatch(
      /^http:\/\/photos\.test\/api\/proxy-image\/Fan%20Fest%20%231%20%26%20100%25\//,
    );
  });

  test('an empty library is an empty list, and ready', async (t) => {
    const app = await build(t);
    const res = await app.inject({ url: '/event' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.json().checks.photos).toEqual({ ok: true, details: { events: 0 } });
  });

  test('before the first scan has finished: 503 SERVICE_UNAVAILABLE with Retry-After', async (t) => {
    // The gallery routes on a library that has not scanned yet (what a large cold start looks like).
    const { app, library } = await unscannedLibraryApp(t, galleryRoutes);
    for (const url of ['/event', '/event/Con', '/event/Con/D', '/event/Con/D/S']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(503);
      expect(errorBody.parse(res.json()).code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('5');
    }
    await library.start();
    expect((await app.inject({ url: '/event/Con/D/S' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/event/Nope' })).json().code).toBe('EVENT_NOT_FOUND');
  });
});

describe('GET /event/{eventCode}', () => {
  test('first page: photos in order, totals, effective limit, event and folders', async (t) => {
    const app = await galleryApp(t);
    const res = await app.inject({ url: '/event/Anime%20Expo' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const body = res.json();
    expectAllowListed(EventPage, body);
    expect(body).toMatchObject({ totalCount: 7, currentPage: 1, totalPages: 1, limit: 50 });
    expect(body.photos.map((p: { number: string }) => p.number)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(
      body.photos.map((p: { metadata: { day: string; session: string } }) => `${p.metadata.day}/${p.metadata.session}`),
    ).toEqual([
      'Day 1/Cosplay',
      'Day 1/Cosplay',
      'Day 1/Cosplay',
      'Day 1/Stage',
      'Day 1/Stage',
      'Day 2/Cosplay',
      'Day 2/Cosplay',
    ]);
    const photo = app.photos.findPhoto('Anime Expo', '1');
    expect(photo?.fileName).toBe('a.jpg');
    expect(body.photos[0]).toEqual({
      id: photo?.id,
      number: '1',
      thumbnail: `${BASE}/api/proxy-image/Anime%20Expo/${photo?.id}?v=${photo?.version}`,
      srcset: `${BASE}/api/proxy-image/Anime%20Expo/${photo?.id}?v=${photo?.version} 1x, ${BASE}/api/proxy-image/Anime%20Expo/${photo?.id}?v=${photo?.version}&size=2x 2x`,
      fullSize: `${BASE}/api/preview/Anime%20Expo/${photo?.id}?v=${photo?.version}`,
      metadata: { day: 'Day 1', session: 'Cosplay', width: 48, height: 32, takenAt: '2026-07-03T10:00:00.000Z' },
    });
    // No capture time: no takenAt key at all.
    expect(body.photos[4].metadata).toEqual({ day: 'Day 1', session: 'Stage', width: 40, height: 60 });
    expect(body.event).toEqual({
      code: 'Anime Expo',
      name: 'Anime Expo 2026',
      date: '2026-07-03',
      prefix: 'AX26',
      photoCount: 7,
      status: { isArchived: false, orderingEnabled: true, deadline: future, active: true, closedReason: null },
    });
    expect(body.folders).toEqual([
      {
        name: 'Day 1',
        path: '/event/Anime%20Expo/Day%201',
        photoCount: 5,
        sessions: [
          { name: 'Cosplay', path: '/event/Anime%20Expo/Day%201/Cosplay', photoCount: 3 },
          { name: 'Stage', path: '/event/Anime%20Expo/Day%201/Stage', photoCount: 2 },
        ],
      },
      {
        name: 'Day 2',
        path: '/event/Anime%20Expo/Day%202',
        photoCount: 2,
        sessions: [{ name: 'Cosplay', path: '/event/Anime%20Expo/Day%202/Cosplay', photoCount: 2 }],
      },
    ]);
  });

  test('pagination: pages, the last partial page, past the end, limit 1 and clamping', async (t) => {
    const app = await galleryApp(t);
    const page = async (qs: string) => {
      const res = await app.inject({ url: `/event/Anime%20Expo?${qs}` });
      expect(res.statusCode, qs).toBe(200);
      return res.json();
    };
    const numbers = (b: { photos: { number: string }[] }) => b.photos.map((p) => p.number);

    const p2 = await page('page=2&limit=3');
    expect(numbers(p2)).toEqual(['4', '5', '6']);
    expect(p2).toMatchObject({ totalCount: 7, currentPage: 2, totalPages: 3, limit: 3 });
    expect(numbers(await page('page=3&limit=3'))).toEqual(['7']);

    const beyond = await page('page=4&limit=3');
    expect(beyond).toMatchObject({ photos: [], totalCount: 7, currentPage: 4, totalPages: 3, limit: 3 });
    expect(await page('page=999999999')).toMatchObject({ photos: [], currentPage: 999999999, totalPages: 1 });

    expect(await page('limit=1')).toMatchObject({ totalPages: 7, limit: 1 });
    expect(numbers(await page('limit=1&page=7'))).toEqual(['7']);
    expect(await page('limit=101')).toMatchObject({ limit: 100, totalPages: 1 });
    expect(await page('limit=100')).toMatchObject({ limit: 100 });
    expect(await page('limit=100000000')).toMatchObject({ limit: 100 });
  });

  test('invalid page or limit: 400 VALIDATION_FAILED naming the field', async (t) => {
    const app = await galleryApp(t);
    const cases: [string, string][] = [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=', 'page'],
      ['page=1e400', 'page'],
      ['page=1&page=2', 'page'],
      ['limit=0', 'limit'],
      ['limit=-5', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
    ];
    for (const url of ['/event/Anime%20Expo', '/event/Anime%20Expo/Day%201', '/event/Anime%20Expo/Day%201/Cosplay']) {
      for (const [qs, field] of cases) {
        const res = await app.inject({ url: `${url}?${qs}` });
        expect(res.statusCode, `${url}?${qs}`).toBe(400);
        const body = errorBody.parse(res.json());
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(JSON.parse(body.details)).toEqual([expect.objectContaining({ in: 'querystring', field })]);
      }
    }
  });

  test('unknown event: 404 EVENT_NOT_FOUND', async (t) => {
    const app = await galleryApp(t);
    for (const url of ['/event/Nope', '/event/anime%20expo', '/event/Nope/Day%201', '/event/Nope/Day%201/Cosplay']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(errorBody.parse(res.json()).code, url).toBe('EVENT_NOT_FOUND');
    }
  });

  test('names that need encoding round-trip through paths and URLs', async (t) => {
    const app = await galleryApp(t);
    const res = await app.inject({ url: `/event/${enc(WEIRD)}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.folders[0].sessions[0].path).toBe(`/event/${enc(WEIRD)}/${enc('Day #1')}/${enc('Q&A 100%')}`);
    const session = await app.inject({ url: body.folders[0].sessions[0].path });
    expect(session.statusCode).toBe(200);
    expect(session.json().folder).toEqual({ event: WEIRD, day: 'Day #1', session: 'Q&A 100%', photoCount: 1 });
  });

  test('a page reflects library changes (the cache is keyed on the index generation)', async (t) => {
    const app = await galleryApp(t);
    const before = (await app.inject({ url: '/event/Anime%20Expo?limit=2' })).json();
    expect(before.totalCount).toBe(7);
    await writePhoto(
      app.config.photosDir,
      ['Anime Expo', 'Day 1', 'Cosplay', 'aa.jpg'],
      await makeImage({ takenAt: '2026:07:03 08:00:00' }),
    );
    await app.photos.rescan();
    const after = (await app.inject({ url: '/event/Anime%20Expo?limit=2' })).json();
    expect(after.totalCount).toBe(8);
    expect(after.photos[0].number).toBe('8');
    expect(after.photos[0].metadata.takenAt).toBe('2026-07-03T08:00:00.000Z');
  });
});

describe('GET /event/{eventCode}/{day} and /{day}/{session}', () => {
  test('session page: photos, folder, pagination, parents and top-level totals', async (t) => {
    const app = await galleryApp(t);
    const res = await app.inject({ url: '/event/Anime%20Expo/Day%201/Cosplay?limit=2&page=2' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expectAllowListed(SessionPage, body);
    expect(body.photos.map((p: { number: string }) => p.number)).toEqual(['3']);
    expect(body).toMatchObject({
      folder: { event: 'Anime Expo', day: 'Day 1', session: 'Cosplay', photoCount: 3 },
      pagination: { page: 2, limit: 2, totalCount: 3, totalPages: 2 },
      parents: [
        { name: 'Anime Expo 2026', path: '/event/Anime%20Expo' },
        { name: 'Day 1', path: '/event/Anime%20Expo/Day%201' },
      ],
      totalCount: 3,
      currentPage: 2,
      totalPages: 2,
      limit: 2,
    });
    const past = (await app.inject({ url: '/event/Anime%20Expo/Day%201/Cosplay?page=3&limit=2' })).json();
    expect(past).toMatchObject({ photos: [], totalCount: 3, pagination: { page: 3, totalPages: 2 } });
    expect((await app.inject({ url: '/event/Anime%20Expo/Day%201/Cosplay?limit=500' })).json().pagination.limit).toBe(
      100,
    );
  });

  test('day page: every session of the day, with its sessions and the event as parent', async (t) => {
    const app = await galleryApp(t);
    const res = await app.inject({ url: '/event/Anime%20Expo/Day%201' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expectAllowListed(DayPage, body);
    expect(body.photos.map((p: { number: string }) => p.number)).toEqual(['1', '2', '3', '4', '5']);
    expect(body).toMatchObject({
      folder: {
        event: 'Anime Expo',
        day: 'Day 1',
        photoCount: 5,
        sessions: [
          { name: 'Cosplay', path: '/event/Anime%20Expo/Day%201/Cosplay', photoCount: 3 },
          { name: 'Stage', path: '/event/Anime%20Expo/Day%201/Stage', photoCount: 2 },
        ],
      },
      pagination: { page: 1, limit: 50, totalCount: 5, totalPages: 1 },
      parents: [{ name: 'Anime Expo 2026', path: '/event/Anime%20Expo' }],
      totalCount: 5,
    });
  });

  test('unknown day or session: 404 FOLDER_NOT_FOUND', async (t) => {
    const app = await galleryApp(t);
    for (const url of [
      '/event/Anime%20Expo/Day%203',
      '/event/Anime%20Expo/Day%203/Cosplay',
      '/event/Anime%20Expo/Day%202/Stage',
      '/event/Anime%20Expo/day%201/Cosplay',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(errorBody.parse(res.json()).code, url).toBe('FOLDER_NOT_FOUND');
    }
  });
});

describe('path traversal', () => {
  const nasty = [
    '..',
    '.',
    '%2e%2e',
    '%2E%2E',
    '..%2f..',
    '..%2F..%2Foutside',
    '%2e%2e%2f%2e%2e%2foutside',
    '..%5c..%5coutside',
    '%252e%252e',
    '%2fetc%2fpasswd',
    '%2Fetc',
    '%00',
    'Anime%20Expo%00',
    'Anime%20Expo%2f..',
    'Day%201%2f..%2f..%2f..',
    '....%2f%2f',
    '%c0%ae%c0%ae',
    '%E0%A4%A',
    '%',
    encodeURIComponent(path.resolve('/etc/passwd')),
  ];

  function nastyUrls(): string[] {
    const urls: string[] = [];
    for (const bad of nasty) {
      urls.push(
        `/event/${bad}`,
        `/event/${bad}/D/S`,
        `/event/Anime%20Expo/${bad}`,
        `/event/Anime%20Expo/${bad}/Cosplay`,
        `/event/Anime%20Expo/Day%201/${bad}`,
        `/event/${bad}/${bad}/${bad}`,
      );
    }
    urls.push(
      '/event/../outside',
      '/event/Anime%20Expo/../../outside/D/S',
      '/event//etc/passwd',
      '/event/./Anime%20Expo',
    );
    return urls;
  }

  function expectRefused(url: string, status: number, text: string): void {
    expect(status, url).toBeGreaterThanOrEqual(400);
    expect(status, url).toBeLessThan(500);
    const body = errorBody.parse(JSON.parse(text));
    expect(['EVENT_NOT_FOUND', 'FOLDER_NOT_FOUND', 'NOT_FOUND', 'VALIDATION_FAILED'], url).toContain(body.code);
    expect(text, url).not.toContain('"width":77');
  }

  test('raw request paths (sent byte for byte over a socket): every one refused', async (t) => {
    const app = await galleryApp(t);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    for (const url of nastyUrls()) {
      // node:http sends `path` as given: no dot-segment resolution, unlike fetch or inject.
      const { status, text, cors } = await new Promise<{ status: number; text: string; cors: unknown }>(
        (resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port, path: url }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, text, cors: res.headers['access-control-allow-origin'] }),
            );
          });
          req.on('error', reject);
          req.end();
        },
      );
      expectRefused(url, status, text);
      expect(cors, url).toBe('*');
    }
  });

  test('through inject: refused, or resolved by the client to another gallery page', async (t) => {
    const app = await galleryApp(t);
    for (const url of nastyUrls()) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('"width":77');
      // The WHATWG URL parser resolves `..`, `.` and `%2e%2e` segments before the app sees them.
      if (res.statusCode === 200) continue;
      expectRefused(url, res.statusCode, res.body);
    }
  });
});
