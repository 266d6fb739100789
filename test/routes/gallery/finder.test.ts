/**
 * GET /api/finder/{code} and GET /api/admin/intake through the whole app: frames holding a
 * photo code's QR arrive in a session folder, and the code's photos are found; the code
 * frames themselves are neither listed nor served.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { photoCodeUrl } from '../../../src/domain/photo-code.js';
import { photoId } from '../../../src/services/photos/naming.js';
import { adminHeaders, build } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { makeFrame } from '../../support/qr-frames.js';

const CODE = 'K7M2Q9TX';
const at = (hhmmss: string) => `2026:07:03 ${hhmmss}`;

async function finderApp(t: Parameters<typeof build>[0], env: Record<string, string> = {}) {
  const app = await build(t, { env: { RATE_LIMIT_LOOKUP_PER_MIN: '1000', ...env } });
  const root = path.join(app.dataDir, 'photos');
  await writeEventJson(root, 'Con', { name: 'Con 2026' });
  const scene = (takenAt: string, seed: number) =>
    makeFrame({ payload: '', qrFraction: 0, width: 600, height: 400, takenAt, seed });
  await writePhoto(
    root,
    ['Con', 'Sat', 'Hall', 'IMG_0100.jpg'],
    await makeFrame({
      payload: photoCodeUrl('http://photos.test', CODE),
      width: 1200,
      height: 800,
      qrFraction: 0.35,
      contrast: 0.6,
      takenAt: at('14:00:00'),
      seed: 3,
    }),
  );
  await writePhoto(root, ['Con', 'Sat', 'Hall', 'IMG_0101.jpg'], await scene(at('14:00:10'), 4));
  await writePhoto(root, ['Con', 'Sat', 'Hall', 'IMG_0102.jpg'], await scene(at('14:00:20'), 5));
  await app.photos.rescan();
  return app;
}

describe('GET /api/finder/{code}', () => {
  test('the photos after the code frame, as gallery photo items, any case or hyphens', async (t) => {
    const app = await finderApp(t);
    const res = await app.inject({ url: `/api/finder/${CODE.slice(0, 4).toLowerCase()}-${CODE.slice(4)}` });
    expect(res.statusCode).toBe(200);
    expectMatchesOpenApi('GET', '/api/finder/{code}', res);
    const body = res.json();
    expect(body.code).toBe(CODE);
    expect(body.photos.map((p: { number: string }) => p.number)).toEqual(['1', '2']);
    expect(body.photos[0]).toMatchObject({
      metadata: { day: 'Sat', session: 'Hall', takenAt: '2026-07-03T14:00:10.000Z' },
    });
    expect(body.photos[0].srcset).toMatch(/ 1x, .*&size=2x 2x$/);
  });

  test('the code frame is never listed nor served', async (t) => {
    const app = await finderApp(t);
    const page = (await app.inject({ url: '/event/Con' })).json();
    expect(page.totalCount).toBe(2);
    const frameId = photoId('Con', 'Sat/Hall/IMG_0100.jpg');
    expect(page.photos.map((p: { id: string }) => p.id)).not.toContain(frameId);
    for (const url of [
      `/api/proxy-image/Con/${frameId}`,
      `/api/preview/Con/${frameId}`,
      `/api/photos/Con/${frameId}`,
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  test('unknown code 404 CODE_NOT_FOUND; not a code 400; rate limited like the order lookup', async (t) => {
    const app = await finderApp(t, { RATE_LIMIT_LOOKUP_PER_MIN: '3' });
    const unknown = await app.inject({ url: '/api/finder/ZZZZ2222' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'CODE_NOT_FOUND' });
    expectMatchesOpenApi('GET', '/api/finder/{code}', unknown);
    const bad = await app.inject({ url: '/api/finder/not-a-code!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await app.inject({ url: `/api/finder/${CODE}` })).statusCode).toBe(200); // the third of 3
    const limited = await app.inject({ url: `/api/finder/${CODE}` });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('GET /api/admin/intake', () => {
  test('admin only; lists broken files, which are not listed in the gallery', async (t) => {
    const app = await finderApp(t);
    const root = path.join(app.dataDir, 'photos');
    await writePhoto(root, ['Con', 'Sat', 'Hall', 'zz-broken.jpg'], Buffer.from('not a photo at all'));
    await app.photos.rescan();
    expect((await app.inject({ url: '/api/admin/intake' })).statusCode).toBe(401);
    const res = await app.inject({ url: '/api/admin/intake', headers: adminHeaders });
    expect(res.statusCode).toBe(200);
    expectMatchesOpenApi('GET', '/api/admin/intake', res);
    expect(res.json()).toMatchObject({
      pending: 0,
      inspecting: 0,
      broken: [{ event: 'Con', path: 'Sat/Hall/zz-broken.jpg', size: 18 }],
    });
    expect((await app.inject({ url: '/event/Con' })).json().totalCount).toBe(2);
  });
});
