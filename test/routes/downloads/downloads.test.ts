/**
 * `GET /api/downloads/{token}`: a digital line of a paid order, through its signed link;
 * the file is the original at full resolution without watermark or private metadata; every
 * refusal is 403 DOWNLOAD_UNAVAILABLE with its reason.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { adminHeaders, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { EVENT, expectError } from '../../support/orders-fixtures.js';
import { ALLOWED_DOWNLOAD_TAGS, allMetadata, cameraPhoto, sellingApp } from '../../support/selling-fixtures.js';

const ROUTE = '/api/downloads/{token}';

/** Photo 1 of the event becomes a camera original (900 × 600, full EXIF). */
async function appWithOriginal(t: Parameters<typeof sellingApp>[0], env: Record<string, string> = {}) {
  const app = await sellingApp(t, { env, earlyBird: false });
  const file = path.join(app.dataDir, 'photos', EVENT, 'Day 1', 'Cosplay', 'img0001.jpg');
  await writeFile(file, await cameraPhoto({ width: 900, height: 600 }));
  await app.photos.rescan();
  // The library reports it as displayed: orientation 6 stands it upright.
  expect(app.photos.findPhoto(EVENT, '1')).toMatchObject({ width: 600, height: 900 });
  return app;
}

/** A booth order: photo 1 as a digital file, photo 2 as a print; picked up. */
async function orderWithDigital(app: TestApp): Promise<{ id: string; orderNumber: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: {
      eventSlug: EVENT,
      photos: [
        { number: '1', size: 'digital', quantity: 1 },
        { number: '2', size: '4x6', quantity: 1 },
      ],
      customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
    },
  });
  expect(res.statusCode).toBe(201);
  const order = await app.store.orders.get(res.json().orderNumber);
  if (!order) throw new Error('order not stored');
  return { id: order.id, orderNumber: order.orderNumber };
}

async function markPaid(app: TestApp, id: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/orders/${id}/update-status`,
    headers: adminHeaders,
    payload: { status: 'paid' },
  });
  expect(res.statusCode).toBe(200);
}

const get = (app: TestApp, url: string) => app.inject({ method: 'GET', url: url.replace('http://photos.test', '') });

describe('GET /api/downloads/{token}', () => {
  test('once paid: the full-resolution file, streamed as an attachment, without private metadata', async (t) => {
    const app = await appWithOriginal(t);
    const order = await orderWithDigital(app);
    const links = app.downloads.linksFor(
      { id: order.id, items: (await app.store.orders.get(order.id))?.items ?? [] },
      new Date(),
    );
    // One link, for the digital line only.
    expect(links.map((l) => [l.line, l.photoNumber])).toEqual([[1, '1']]);
    const link = links[0]?.url as string;

    const early = await get(app, link);
    expect(JSON.parse(expectError(early, 'GET', ROUTE, 403, 'DOWNLOAD_UNAVAILABLE').details)).toEqual({
      reason: 'notPaid',
    });

    await markPaid(app, order.id);
    const res = await get(app, link);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toBe('attachment; filename="AX26-1.jpg"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-downloads-remaining']).toBe('9');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([900, 600, 6]);
    const tags = await allMetadata(res.rawPayload);
    expect(tags.Copyright).toBe('(c) 2026 Jane Photographer');
    expect(Object.keys(tags).filter((k) => !ALLOWED_DOWNLOAD_TAGS.has(k))).toEqual([]);

    // The second download streams the same rendered file.
    const again = await get(app, link);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(app.downloads.files.renders).toBe(1);
  });

  test('DOWNLOAD_MAX downloads per line, then 403 usedUp; a HEAD spends none', async (t) => {
    const app = await appWithOriginal(t, { DOWNLOAD_MAX: '2' });
    const order = await orderWithDigital(app);
    await markPaid(app, order.id);
    const link = app.downloads.links.url(order.id, 1, new Date(Date.now() + 3_600_000));
    const head = await app.inject({ method: 'HEAD', url: link.replace('http://photos.test', '') });
    expect(head.statusCode).toBe(404);
    expect((await get(app, link)).headers['x-downloads-remaining']).toBe('1');
    expect((await get(app, link)).headers['x-downloads-remaining']).toBe('0');
    const third = await get(app, link);
    expect(JSON.parse(expectError(third, 'GET', ROUTE, 403, 'DOWNLOAD_UNAVAILABLE').details)).toEqual({
      reason: 'usedUp',
    });
  });

  test('forged, altered, expired links and print lines: 403 with the reason', async (t) => {
    const app = await appWithOriginal(t);
    const order = await orderWithDigital(app);
    await markPaid(app, order.id);
    const future = new Date(Date.now() + 3_600_000);
    const good = app.downloads.links.token(order.id, 1, future);
    // Not a token at all: refused as input before any check.
    for (const bad of ['not-a-token', `${good}x`, good.replace(/\./g, '-')]) {
      expectError(await get(app, `/api/downloads/${bad}`), 'GET', ROUTE, 400, 'VALIDATION_FAILED');
    }
    const cases: [string, string][] = [
      [good.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), 'signature'],
      [app.downloads.links.token(order.id, 1, new Date(Date.now() - 1000)), 'expired'],
      [app.downloads.links.token(order.id, 2, future), 'notDigital'],
      [app.downloads.links.token(order.id, 3, future), 'notDigital'],
      [app.downloads.links.token('00000000-0000-4000-8000-000000000000', 1, future), 'unknownOrder'],
    ];
    for (const [token, reason] of cases) {
      const res = await get(app, `/api/downloads/${token}`);
      expect(JSON.parse(expectError(res, 'GET', ROUTE, 403, 'DOWNLOAD_UNAVAILABLE').details), token).toEqual({
        reason,
      });
    }
    expect(app.downloads.files.renders).toBe(0);
  });

  test('a void order gives no more downloads', async (t) => {
    const app = await appWithOriginal(t);
    const order = await orderWithDigital(app);
    await markPaid(app, order.id);
    const link = app.downloads.links.url(order.id, 1, new Date(Date.now() + 3_600_000));
    expect((await get(app, link)).statusCode).toBe(200);
    await app.inject({
      method: 'POST',
      url: `/api/orders/${order.id}/update-status`,
      headers: adminHeaders,
      payload: { status: 'void' },
    });
    expect(JSON.parse(expectError(await get(app, link), 'GET', ROUTE, 403, 'DOWNLOAD_UNAVAILABLE').details)).toEqual({
      reason: 'notPaid',
    });
  });

  test('a photo removed from the library: 404 PHOTO_NOT_FOUND', async (t) => {
    const app = await appWithOriginal(t);
    const order = await orderWithDigital(app);
    await markPaid(app, order.id);
    const { rm } = await import('node:fs/promises');
    await rm(path.join(app.dataDir, 'photos', EVENT, 'Day 1', 'Cosplay', 'img0001.jpg'));
    await app.photos.rescan();
    const res = await get(app, app.downloads.links.url(order.id, 1, new Date(Date.now() + 3_600_000)));
    expectError(res, 'GET', ROUTE, 404, 'PHOTO_NOT_FOUND');
    expectMatchesOpenApi('GET', ROUTE, res);
  });
});

describe('a photo taken down (docs/contract.md, "Takedown requests")', () => {
  test('round 2: hidden by a request, a paid download stays available; removed: its rendered download is deleted, 404', async (t) => {
    const app = await appWithOriginal(t);
    const order = await orderWithDigital(app);
    await markPaid(app, order.id);
    const link = app.downloads.links.url(order.id, 1, new Date(Date.now() + 3_600_000));
    expect((await get(app, link)).statusCode).toBe(200);
    const downloadsDir = path.join(app.dataDir, 'downloads');
    const rendered = async () => (await readdir(downloadsDir)).filter((f) => f.endsWith('.jpg'));
    expect(await rendered()).toHaveLength(1);

    // Hide-first: the photo leaves the gallery at once, but the buyer paid before anyone
    // asked: their download stays until the owner decides to remove it.
    const asked = await app.inject({
      method: 'POST',
      url: `/api/photos/${encodeURIComponent(EVENT)}/1/takedown`,
      headers: adminHeaders,
      payload: { reason: 'me', email: 'cosplayer@example.com' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(app.photos.findPhoto(EVENT, '1')).toBeUndefined();
    const meanwhile = await get(app, link);
    expect(meanwhile.statusCode).toBe(200);
    expect(meanwhile.headers['x-downloads-remaining']).toBe('8');

    const decided = await app.inject({
      method: 'POST',
      url: `/api/takedowns/${asked.json().requestId}`,
      headers: adminHeaders,
      payload: { decision: 'remove' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await rendered()).toEqual([]);
    expectError(await get(app, link), 'GET', ROUTE, 404, 'PHOTO_NOT_FOUND');
  });
});
