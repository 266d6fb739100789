/**
 * The photographer's metadata on the gallery (docs/contract.md, "The photographer's
 * metadata"): photo items carry it, rejects stay private, `?q=` finds by keyword, caption,
 * title, photographer or number on event and folder pages, `?featured=1`, and the event
 * settings that change what is listed.
 */

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { adminHeaders, build, type TestApp, tempDir } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { lightroomSidecar, photoWithMetadata } from '../../support/xmp-fixtures.js';

const EVENT = 'Fan Con';
const E = encodeURIComponent(EVENT);

/**
 * Day 1/Hall: 1 Nezuko (5★, Jo), 2 rejected, 3 Pokémon Pikachu (4★, Sam, via sidecar);
 * Day 1/Stage: 4 Demon Slayer group caption (2★, Jo), 5 no metadata; Day 2/Hall: 6 Nezuko (4★).
 */
async function libraryApp(t: TestContext): Promise<TestApp> {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, EVENT, { name: 'Fan Con 2026', date: '2026-07-03' });
  const at = (d: number, m: number) => `2026:07:0${d} 10:0${m}:00`;
  const put = async (day: string, session: string, file: string, spec: Parameters<typeof photoWithMetadata>[0]) =>
    writePhoto(root, [EVENT, day, session, file], await photoWithMetadata(spec));
  await put('Day 1', 'Hall', 'a.jpg', {
    takenAt: at(3, 1),
    xmp: { rating: 5, keywords: ['Nezuko', 'Demon Slayer', '_proof-sent'], creator: 'Jo Lens', title: 'Fountain' },
  });
  await put('Day 1', 'Hall', 'b.jpg', { takenAt: at(3, 2), xmp: { rating: -1, keywords: ['Nezuko'] } });
  await put('Day 1', 'Hall', 'c.jpg', { takenAt: at(3, 3) });
  await writeFile(
    path.join(root, EVENT, 'Day 1', 'Hall', 'c.xmp'),
    lightroomSidecar({ rating: 4, keywords: ['Pokemon', 'Pikachu'], credit: 'Sam Shutter' }),
  );
  await put('Day 1', 'Stage', 'd.jpg', {
    takenAt: at(3, 4),
    xmp: { rating: 2, caption: 'Demon Slayer group at the main stage', creator: 'Jo Lens' },
  });
  await put('Day 1', 'Stage', 'e.jpg', { takenAt: at(3, 5) });
  await put('Day 2', 'Hall', 'f.jpg', { takenAt: at(4, 1), iptc: { keywords: ['Nezuko'] }, xmp: { rating: 4 } });
  const app = await build(t, { dataDir });
  await app.photos.ready();
  return app;
}

async function page(app: TestApp, url: string) {
  const res = await app.inject({ url, headers: { accept: 'application/json' } });
  expect(res.statusCode, res.body).toBe(200);
  expectMatchesOpenApi('GET', url.split('?')[0] as string, res);
  const body = res.json() as {
    photos: { number: string; metadata: Record<string, unknown> }[];
    totalCount: number;
    totalPages: number;
  };
  return { ...body, numbers: body.photos.map((p) => p.number) };
}

describe('the photographer’s metadata on the gallery', () => {
  test('items carry keywords, caption, title, rating, photographer; private keywords and rejects never show', async (t) => {
    const app = await libraryApp(t);
    const all = await page(app, `/event/${E}`);
    expect(all.numbers).toEqual(['1', '3', '4', '5', '6']);
    expect(all.totalCount).toBe(5);
    const [one, three, four, five] = all.photos;
    expect(one?.metadata).toMatchObject({
      keywords: ['Nezuko', 'Demon Slayer'],
      title: 'Fountain',
      rating: 5,
      photographer: 'Jo Lens',
    });
    expect(three?.metadata).toMatchObject({ keywords: ['Pokemon', 'Pikachu'], rating: 4, photographer: 'Sam Shutter' });
    expect(four?.metadata).toMatchObject({ caption: 'Demon Slayer group at the main stage' });
    for (const key of ['keywords', 'caption', 'title', 'rating', 'photographer']) {
      expect(five?.metadata).not.toHaveProperty(key);
    }
    // The reject: not by number, not in the lookup.
    const lookup = await app.inject({ url: `/api/photos/${E}/2` });
    expect(lookup.statusCode).toBe(404);
  });

  test('?q= on event and folder pages: every word prefix-matches, accent- and case-insensitively, or is the number', async (t) => {
    const app = await libraryApp(t);
    expect((await page(app, `/event/${E}?q=nezu`)).numbers).toEqual(['1', '6']);
    expect((await page(app, `/event/${E}?q=${encodeURIComponent('POKÉMON')}`)).numbers).toEqual(['3']);
    expect((await page(app, `/event/${E}?q=demon%20sla`)).numbers).toEqual(['1', '4']);
    expect((await page(app, `/event/${E}?q=demon%20stage`)).numbers).toEqual(['4']);
    expect((await page(app, `/event/${E}?q=jo`)).numbers).toEqual(['1', '4']);
    expect((await page(app, `/event/${E}?q=5`)).numbers).toEqual(['5']);
    expect((await page(app, `/event/${E}?q=proof`)).numbers).toEqual([]); // a private keyword
    expect((await page(app, `/event/${E}?q=fount`)).numbers).toEqual(['1']);
    const paged = await page(app, `/event/${E}?q=nezuko&limit=1&page=2`);
    expect(paged).toMatchObject({ numbers: ['6'], totalCount: 2, totalPages: 2 });
    expect((await page(app, `/event/${E}/Day%201?q=nezuko`)).numbers).toEqual(['1']);
    const session = await page(app, `/event/${E}/Day%201/Stage?q=demon`);
    expect(session).toMatchObject({ numbers: ['4'], totalCount: 1 });
    expect((await page(app, `/event/${E}?q=%20`)).totalCount).toBe(5);
    const tooLong = await app.inject({ url: `/event/${E}?q=${'a'.repeat(201)}` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('?featured=1 and the event settings showRejected, minRating, featuredRating (PUT /api/event-config)', async (t) => {
    const app = await libraryApp(t);
    expect((await page(app, `/event/${E}?featured=1`)).numbers).toEqual(['1', '3', '6']);
    const put = async (payload: Record<string, unknown>) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/event-config',
        headers: adminHeaders,
        payload: { eventSlug: EVENT, ...payload },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Record<string, unknown>;
    };
    expect(await put({ featuredRating: 5 })).toMatchObject({ featuredRating: 5, showRejected: false, minRating: 0 });
    expect((await page(app, `/event/${E}?featured=1`)).numbers).toEqual(['1']);
    await put({ showRejected: true });
    expect((await page(app, `/event/${E}`)).numbers).toEqual(['1', '2', '3', '4', '5', '6']);
    expect((await app.inject({ url: `/api/photos/${E}/2` })).statusCode).toBe(200);
    await put({ showRejected: false, minRating: 3 });
    expect((await page(app, `/event/${E}`)).numbers).toEqual(['1', '3', '6']);
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/event-config',
      headers: adminHeaders,
      payload: { eventSlug: EVENT, minRating: 6 },
    });
    expect(bad.statusCode).toBe(400);
  });
});
