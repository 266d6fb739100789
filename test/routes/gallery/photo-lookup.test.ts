/**
 * `GET /api/photos/{event}/{photo}`: a photo by number or id, the same item as the gallery
 * pages, its folder, and the page that shows it in the event, day and session lists.
 */
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { photoItemBuilder } from '../../../src/routes/gallery/photo-item.js';
import { locatePhoto } from '../../../src/routes/gallery/photo-locate.js';
import photoRoutes from '../../../src/routes/gallery/photo-lookup.js';
import { PhotoLookup } from '../../../src/routes/gallery/photo-lookup-schemas.js';
import { build, type TestApp, tempDir } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { unscannedLibraryApp } from '../../helpers/unscanned-library.js';
import { makeImage, writeEventJson, writePhoto } from '../../support/photos-fixtures.js';

const EVENT = 'Fan Con';
const E = encodeURIComponent(EVENT);

/**
 * Fan Con: Day 1 / Hall (5 photos), Day 1 / Stage (3), Day 2 / Hall (4) = 12, numbered in
 * that order (1–12). Another event has a photo 1 too.
 */
async function libraryApp(t: TestContext): Promise<TestApp> {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, EVENT, { name: 'Fan Con 2026', date: '2026-07-03' });
  const layout: [string, string, number][] = [
    ['Day 1', 'Hall', 5],
    ['Day 1', 'Stage', 3],
    ['Day 2', 'Hall', 4],
  ];
  let minute = 0;
  for (const [day, session, n] of layout) {
    for (let i = 0; i < n; i++) {
      minute++;
      const takenAt = `2026:07:0${day === 'Day 1' ? 3 : 4} 10:${String(minute).padStart(2, '0')}:00`;
      await writePhoto(root, [EVENT, day, session, `IMG_${minute}.jpg`], await makeImage({ takenAt }));
    }
  }
  await writePhoto(root, ['Other', 'D', 'S', 'x.jpg'], await makeImage());
  const app = await build(t, { dataDir });
  await app.photos.ready();
  return app;
}

async function get(app: TestApp, url: string) {
  const res = await app.inject({ url });
  expectMatchesOpenApi('GET', url.split('?')[0] as string, res);
  return res;
}

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toEqual({ error: expect.any(String), code, details: expect.any(String) });
}

describe('GET /api/photos/{event}/{photo}', () => {
  test('by number: the gallery’s item, its folder, and its pages in the event, day and session', async (t) => {
    const app = await libraryApp(t);
    const res = await get(app, `/api/photos/${E}/10?limit=4`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(PhotoLookup.parse(body)).toEqual(body); // nothing outside the allow-list

    // The very item the session page shows (same builder, same URLs).
    const page = (await app.inject({ url: `/event/${E}/Day%202/Hall?limit=50` })).json();
    const fromPage = page.photos.find((p: { number: string }) => p.number === '10');
    expect(body.photo).toEqual(fromPage);
    expect(body.photo.thumbnail).toMatch(/^http:\/\/photos\.test\/api\/proxy-image\/Fan%20Con\/[\w-]+\?v=/);

    expect(body.event).toEqual({ code: EVENT, name: 'Fan Con 2026' });
    expect(body.folder).toEqual({ day: 'Day 2', session: 'Hall', path: `/event/${E}/Day%202/Hall` });
    expect(body.limit).toBe(4);
    // #10 is the 10th of the event (index 9: page 3 of 4), the 2nd of Day 2 and of its Hall.
    expect(body.position).toEqual({
      event: { index: 9, page: 3, totalCount: 12, path: `/event/${E}` },
      day: { index: 1, page: 1, totalCount: 4, path: `/event/${E}/Day%202` },
      session: { index: 1, page: 1, totalCount: 4, path: `/event/${E}/Day%202/Hall` },
    });
    // And that page of the event really shows it.
    const p3 = (await app.inject({ url: `/event/${E}?page=3&limit=4` })).json();
    expect(p3.photos[9 % 4].number).toBe('10');
  });

  test('positions agree with every gallery page, whatever the page size', async (t) => {
    const app = await libraryApp(t);
    for (const limit of [1, 3, 5, 50]) {
      for (let n = 1; n <= 12; n++) {
        const { position } = (await app.inject({ url: `/api/photos/${E}/${n}?limit=${limit}` })).json();
        for (const place of [position.event, position.day, position.session]) {
          const list = (await app.inject({ url: `${place.path}?page=${place.page}&limit=${limit}` })).json();
          expect(list.totalCount).toBe(place.totalCount);
          expect(list.photos[place.index % limit].number, `#${n} limit ${limit} in ${place.path}`).toBe(String(n));
        }
      }
    }
  });

  test('by id, by "#12" or "012"; the default limit is 50 and larger ones are clamped to 100', async (t) => {
    const app = await libraryApp(t);
    const photo = app.photos.findPhoto(EVENT, '7');
    const byId = (await get(app, `/api/photos/${E}/${photo?.id}`)).json();
    expect(byId.photo.number).toBe('7');
    expect(byId.limit).toBe(50);
    expect(byId.folder).toMatchObject({ day: 'Day 1', session: 'Stage' });
    expect(byId.position.session).toMatchObject({ index: 1, page: 1, totalCount: 3 });

    for (const ref of ['%2312', '012', '0012']) {
      const res = await get(app, `/api/photos/${E}/${ref}?limit=500`);
      expect(res.statusCode, ref).toBe(200);
      expect(res.json().photo.number).toBe('12');
      expect(res.json().limit).toBe(100);
    }
  });

  test('unknown event 404 EVENT_NOT_FOUND, unknown photo 404 PHOTO_NOT_FOUND, bad limit 400', async (t) => {
    const app = await libraryApp(t);
    expectError(await get(app, '/api/photos/Nope/1'), 404, 'EVENT_NOT_FOUND');
    expectError(await get(app, `/api/photos/${E}/13`), 404, 'PHOTO_NOT_FOUND');
    expectError(await get(app, `/api/photos/${E}/0`), 404, 'PHOTO_NOT_FOUND');
    // A photo of another event is not one of this event's.
    const other = app.photos.findPhoto('Other', '1');
    expectError(await get(app, `/api/photos/${E}/${other?.id}`), 404, 'PHOTO_NOT_FOUND');
    // Paths are looked up in the index, never on disk.
    expectError(await get(app, `/api/photos/${E}/..%2F..%2Fsecret.jpg`), 404, 'PHOTO_NOT_FOUND');
    for (const limit of ['0', '-1', '2.5', 'ten']) {
      expectError(await get(app, `/api/photos/${E}/1?limit=${limit}`), 400, 'VALIDATION_FAILED');
    }
  });

  test('before the first scan: 503 SERVICE_UNAVAILABLE with Retry-After, then found', async (t) => {
    const { app, library } = await unscannedLibraryApp(t, photoRoutes);
    const early = await app.inject({ url: '/api/photos/Con/1' });
    expectError(early, 503, 'SERVICE_UNAVAILABLE');
    expect(early.headers['retry-after']).toBe('5');
    await library.start();
    expect((await app.inject({ url: '/api/photos/Con/1' })).json().photo.number).toBe('1');
  });
});

describe('locatePhoto', () => {
  test('says which of event and photo is unknown', async (t) => {
    const app = await libraryApp(t);
    const items = photoItemBuilder('http://x');
    expect(locatePhoto(app.photos, items, 'Nope', '1', 50)).toEqual({ ok: false, reason: 'event' });
    expect(locatePhoto(app.photos, items, EVENT, 'zzz', 50)).toEqual({ ok: false, reason: 'photo' });
    const found = locatePhoto(app.photos, items, EVENT, '5', 2);
    expect(found.ok && found.body.position.event).toEqual({ index: 4, page: 3, totalCount: 12, path: `/event/${E}` });
  });
});
