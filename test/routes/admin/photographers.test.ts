/**
 * `GET /api/orders/summary?by=photographer` (docs/contract.md, "The photographer's metadata"):
 * paid orders' lines by the photographer of their photo, from the photos' own XMP; and
 * `photographer:<name>:<token>` entries of ADMIN_TOKENS, which see only their own sales: every
 * route of the admin table is tried with such a token, and no answer may carry another
 * photographer's order, line, revenue or customer.
 */
import path from 'node:path';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/env.js';
import { parseTokenEntry } from '../../../src/domain/roles.js';
import { ADMIN_TOKEN, build, tempDir } from '../../helpers/build.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { photoWithMetadata } from '../../support/xmp-fixtures.js';
import { call, expectError, orderIn } from './fixtures.js';

const EVENT = 'AX2025';

describe('GET /api/orders/summary?by=photographer', () => {
  test('lines count for their photo’s photographer; unknown for none; only paid orders', async (t) => {
    const dataDir = await tempDir(t);
    const root = path.join(dataDir, 'photos');
    await writeEventJson(root, EVENT, { name: 'Anime Expo', prefix: 'AX25', prices: { '4x6': 5, '8x10': 20 } });
    const put = async (file: string, creator?: string) =>
      writePhoto(root, [EVENT, 'Day 1', 'Morning', file], await photoWithMetadata(creator ? { xmp: { creator } } : {}));
    await put('a.jpg', 'Jo Lens'); // 1
    await put('b.jpg', 'Sam Shutter'); // 2
    await put('c.jpg'); // 3
    const app = await build(t, { dataDir });
    await app.photos.ready();
    const line = (photoNumber: string, quantity: number, unitCents: number) => ({
      photoNumber,
      size: '4x6',
      quantity,
      unitCents,
      lineCents: quantity * unitCents,
    });
    await orderIn(app, 'paid', { eventSlug: EVENT, prefix: 'AX25', items: [line('1', 2, 500), line('2', 1, 500)] });
    await orderIn(app, 'paid', { eventSlug: EVENT, prefix: 'AX25', items: [line('1', 1, 2000), line('3', 3, 500)] });
    await orderIn(app, 'pending', { eventSlug: EVENT, prefix: 'AX25', items: [line('2', 9, 500)] });

    const plain = await call(app, { url: '/api/orders/summary' });
    expect(plain.json()).not.toHaveProperty('byPhotographer');
    const res = await call(app, { url: '/api/orders/summary?by=photographer' });
    expect(res.statusCode).toBe(200);
    expect(res.json().byPhotographer).toEqual([
      { photographer: 'Jo Lens', orders: 2, prints: 3, revenue: 30 },
      { photographer: 'unknown', orders: 1, prints: 3, revenue: 15 },
      { photographer: 'Sam Shutter', orders: 1, prints: 1, revenue: 5 },
    ]);
    const bad = await call(app, { url: '/api/orders/summary?by=camera' });
    expect(bad.statusCode).toBe(400);
  });
});

const JO_TOKEN = 'jo-lens-token-0123456789abcdefghij';
const SAM_TOKEN = 'sam-shutter-token-0123456789abcdef';
const VIEWER_TOKEN = 'viewer-token-0123456789abcdefghi';
const ADMIN_TOKENS = [
  ADMIN_TOKEN,
  // Spelt otherwise than the photos' metadata: case and spaces do not matter.
  `photographer: jo lens :${JO_TOKEN}`,
  `photographer:Sam Shutter:${SAM_TOKEN}`,
  `viewer:${VIEWER_TOKEN}`,
].join(',');

const line = (photoNumber: string, quantity: number, unitCents: number) => ({
  photoNumber,
  size: '4x6',
  quantity,
  unitCents,
  lineCents: quantity * unitCents,
});

/**
 * Photos 1 (Jo Lens), 2 (Sam Shutter), 3 (no one); orders: a paid one of Jo's and Sam's photos,
 * a paid one of Sam's only (its customer a secret from Jo), a pending one of Jo's, a cancelled
 * one of Sam's.
 */
async function studio(t: TestContext) {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, EVENT, { name: 'Anime Expo', prefix: 'AX25', prices: { '4x6': 5, '8x10': 20 } });
  const put = async (file: string, creator?: string) =>
    writePhoto(root, [EVENT, 'Day 1', 'Morning', file], await photoWithMetadata(creator ? { xmp: { creator } } : {}));
  await put('a.jpg', 'Jo Lens');
  await put('b.jpg', 'Sam Shutter');
  await put('c.jpg');
  const app = await build(t, { dataDir, env: { ADMIN_TOKENS } });
  await app.photos.ready();
  const at = { eventSlug: EVENT, prefix: 'AX25' };
  const shared = await orderIn(app, 'paid', {
    ...at,
    customerName: 'Shared Customer',
    customerEmail: 'shared@example.com',
    items: [line('1', 2, 500), line('2', 1, 2000), line('3', 1, 500)],
  });
  const samOnly = await orderIn(app, 'paid', {
    ...at,
    customerName: 'Secret Sammy',
    customerEmail: 'secret.sammy@example.com',
    items: [line('2', 4, 500)],
  });
  const joPending = await orderIn(app, 'pending', { ...at, items: [line('1', 3, 500)] });
  const samCancelled = await orderIn(app, 'cancelled', { ...at, items: [line('2', 7, 500)] });
  return { app, shared, samOnly, joPending, samCancelled };
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** A URL for a route of the table, its parameters filled with things that exist. */
function urlFor(url: string, orderNumber: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    if (/^(id|orderId|orderNumber)$/.test(name)) return orderNumber;
    if (name === 'event' || name === 'eventCode') return EVENT;
    if (name === 'photo') return '1';
    return 'x';
  });
}

describe('photographer:<name>:<token> entries of ADMIN_TOKENS', () => {
  test('parsed as a viewer with a name (the token after the last colon); a missing name stops start-up', () => {
    expect(parseTokenEntry(`photographer:Jo Lens:${JO_TOKEN}`)).toEqual({
      role: 'viewer',
      token: JO_TOKEN,
      photographer: 'Jo Lens',
    });
    // Never an owner token by mistake.
    expect(parseTokenEntry(`photographer:${JO_TOKEN}`)).toMatchObject({ role: 'viewer', photographer: '' });
    for (const bad of [`photographer:${JO_TOKEN}`, `photographer::${JO_TOKEN}`, `photographer: :${JO_TOKEN}`]) {
      expect(() => loadConfig({ ADMIN_TOKENS: bad, DATA_DIR: '/tmp/x' })).toThrow(/ADMIN_TOKENS: a photographer entry/);
    }
    expect(() => loadConfig({ ADMIN_TOKENS: 'photographer:Jo:short', DATA_DIR: '/tmp/x' })).toThrow(
      /ADMIN_TOKENS: every token must be at least 24/,
    );
  });

  test('every admin route refuses a photographer token (403 FORBIDDEN) unless it shows them their own sales', async (t) => {
    const { app, samOnly } = await studio(t);
    const open: string[] = [];
    for (const route of app.adminAuth.routes()) {
      for (const method of route.method.split(',')) {
        const url = urlFor(route.url, samOnly.orderNumber);
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: as(JO_TOKEN),
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        const what = `${method} ${url}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (route.photographer === undefined) {
          expectError(res, 403, 'FORBIDDEN');
        } else {
          expect(res.statusCode, what).toBe(200);
          open.push(`${method} ${route.url}`);
        }
        // Whatever the route: nothing of Sam's order, customer or name.
        expect(res.body, what).not.toContain(samOnly.orderNumber);
        expect(res.body, what).not.toContain('Sammy');
        expect(res.body, what).not.toContain('Sam Shutter');
      }
    }
    expect(open.sort()).toEqual([
      'GET /api/admin/me',
      'GET /api/orders/lines',
      'GET /api/orders/summary',
      'GET /api/orders/summary/breakdown',
    ]);
    // The order itself, and the lists, with a photographer's token: refused, even for their own order.
    const detail = await call(app, { url: `/api/orders/${samOnly.orderNumber}`, headers: as(JO_TOKEN) });
    expectError(detail, 403, 'FORBIDDEN');
  });

  test('the summary, the breakdown and the lines hold their own lines only; customers never', async (t) => {
    const { app, shared, samOnly, joPending, samCancelled } = await studio(t);
    const get = async (url: string, token: string) => {
      const res = await call(app, { url, headers: as(token) });
      expect(res.statusCode, res.body).toBe(200);
      for (const secret of ['Customer', 'Sammy', '@example.com']) expect(res.body).not.toContain(secret);
      return res;
    };

    // Jo: two lines of the shared order (2 × $5) paid, the pending order's 3 × $5.
    const jo = (await get('/api/orders/summary?by=photographer', JO_TOKEN)).json();
    expect(jo).toEqual({
      totalOrders: 2,
      pendingCount: 1,
      completedCount: 1,
      cancelledCount: 0,
      totalRevenue: 10,
      pendingRevenue: 15,
      averageOrderValue: 10,
      totalDiscounts: 0,
      byPhotographer: [{ photographer: 'Jo Lens', orders: 1, prints: 2, revenue: 10 }],
    });
    expect((await get('/api/orders/summary', JO_TOKEN)).json()).not.toHaveProperty('byPhotographer');
    // Sam: $20 of the shared order and the $20 order of theirs; the cancelled one counted as such.
    const sam = (await get('/api/orders/summary?by=photographer', SAM_TOKEN)).json();
    expect(sam).toMatchObject({ totalOrders: 3, completedCount: 2, cancelledCount: 1, totalRevenue: 40 });
    expect(sam.byPhotographer).toEqual([{ photographer: 'Sam Shutter', orders: 2, prints: 5, revenue: 40 }]);
    // The owner sees everything, as before.
    const all = (await call(app, { url: '/api/orders/summary?by=photographer' })).json();
    expect(all.byPhotographer.map((r: { photographer: string }) => r.photographer)).toEqual([
      'Sam Shutter',
      'Jo Lens',
      'unknown',
    ]);
    expect(all.totalRevenue).toBeGreaterThan(40);

    const breakdown = (await get('/api/orders/summary/breakdown', JO_TOKEN)).json();
    expect(breakdown.byEvent).toEqual([{ eventSlug: EVENT, eventName: 'Anime Expo', orders: 1, revenue: 10 }]);
    expect(breakdown.byDay.map((d: { revenue: number }) => d.revenue)).toEqual([10]);

    const joLines = (await get('/api/orders/lines', JO_TOKEN)).json().lines;
    expect(joLines).toHaveLength(2);
    expect(new Set(joLines.map((l: { photoNumber: string }) => l.photoNumber))).toEqual(new Set(['1']));
    expect(joLines.map((l: { orderNumber: string }) => l.orderNumber).sort()).toEqual(
      [shared.orderNumber, joPending.orderNumber].sort(),
    );
    expect(joLines.find((l: { orderNumber: string }) => l.orderNumber === shared.orderNumber)).toEqual({
      orderNumber: shared.orderNumber,
      status: 'paid',
      createdAt: shared.createdAt,
      eventSlug: EVENT,
      photoNumber: '1',
      photographer: 'Jo Lens',
      size: '4x6',
      quantity: 2,
      amount: 10,
    });
    const samLines = (await call(app, { url: '/api/orders/lines', headers: as(SAM_TOKEN) })).json().lines;
    expect(samLines.map((l: { orderNumber: string }) => l.orderNumber).sort()).toEqual(
      [shared.orderNumber, samOnly.orderNumber, samCancelled.orderNumber].sort(),
    );
    expect(samLines.every((l: { photographer: string }) => l.photographer === 'Sam Shutter')).toBe(true);
    // A plain viewer (and the owner) get every line, each with its photographer.
    const every = (await call(app, { url: '/api/orders/lines', headers: as(VIEWER_TOKEN) })).json().lines;
    expect(every).toHaveLength(6);
    expect(every.filter((l: { photographer: string }) => l.photographer === 'unknown')).toHaveLength(1);

    const me = (await get('/api/admin/me', JO_TOKEN)).json();
    expect(me).toMatchObject({ role: 'viewer', photographer: 'jo lens' });
    expect(me.routes.sort()).toEqual([
      'GET /api/admin/me',
      'GET /api/orders/lines',
      'GET /api/orders/summary',
      'GET /api/orders/summary/breakdown',
    ]);
    expect((await call(app, { url: '/api/admin/me', headers: as(VIEWER_TOKEN) })).json()).not.toHaveProperty(
      'photographer',
    );
  });

  test('a photographer token may not use admin credentials on public routes either', async (t) => {
    const { app, joPending } = await studio(t);
    const res = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: as(JO_TOKEN),
      payload: { orderNumber: joPending.orderNumber },
    });
    expectError(res, 403, 'FORBIDDEN');
  });
});
