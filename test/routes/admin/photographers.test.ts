/**
 * `GET /api/orders/summary?by=photographer` (docs/contract.md, "The photographer's metadata"):
 * paid orders' lines by the photographer of their photo, from the photos' own XMP.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, tempDir } from '../../helpers/build.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { photoWithMetadata } from '../../support/xmp-fixtures.js';
import { call, orderIn } from './fixtures.js';

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
