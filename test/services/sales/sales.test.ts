/**
 * `fastify.sales` (src/services/sales/sales.ts): the one place that decides which orders, and
 * which lines of them, a caller sees. The admin routes' own tests (test/routes/admin/
 * photographers.test.ts, sales.test.ts) cover the answers; these cover the service's edges.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { build, tempDir } from '../../helpers/build.js';
import { orderIn } from '../../routes/admin/fixtures.js';
import { writeEventJson, writePhoto } from '../../support/photos-fixtures.js';
import { photoWithMetadata } from '../../support/xmp-fixtures.js';

const EVENT = 'AX2025';
/** Four-by-six prints of one photo at $5 or $7 each. */
const prints = (photoNumber: string, quantity: number, unitCents: number) =>
  ({ photoNumber, size: '4x6', quantity, unitCents, lineCents: quantity * unitCents }) as const;

test('a photographer sees each order cut to their lines; one with none of theirs gets an empty row', async (t) => {
  const dataDir = await tempDir(t);
  const root = path.join(dataDir, 'photos');
  await writeEventJson(root, EVENT, { name: 'Anime Expo', prefix: 'AX25', prices: { '4x6': 5 } });
  await writePhoto(
    root,
    [EVENT, 'Day 1', 'Morning', 'a.jpg'],
    await photoWithMetadata({ xmp: { creator: 'Jo Lens' } }),
  );
  await writePhoto(root, [EVENT, 'Day 1', 'Morning', 'b.jpg'], await photoWithMetadata({}));
  const app = await build(t, { dataDir });
  await app.photos.ready();
  const mixed = await orderIn(app, 'paid', {
    eventSlug: EVENT,
    prefix: 'AX25',
    items: [prints('1', 2, 500), prints('2', 1, 700)],
  });
  await orderIn(app, 'paid', { eventSlug: EVENT, prefix: 'AX25', items: [prints('2', 1, 700)] });

  const everyone = await app.sales.visibleOrders({}, { eventSlug: EVENT });
  expect(everyone).toHaveLength(2);
  const jo = await app.sales.visibleOrders({ photographer: 'jo lens' }, {});
  expect(jo).toHaveLength(1);
  expect(jo[0]).toMatchObject({ orderNumber: mixed.orderNumber, items: [{ photoNumber: '1' }], totalCents: 1000 });

  // No photo of theirs sold: zero figures and their own row, never anyone else's.
  const nobody = { photographer: 'Ann Aperture' };
  const summary = await app.sales.summary(nobody, { byPhotographer: true });
  expect(summary).toMatchObject({ totalOrders: 0, completedCount: 0, totalRevenueCents: 0 });
  expect(summary.byPhotographer).toEqual([{ photographer: 'Ann Aperture', orders: 0, prints: 0, revenueCents: 0 }]);
  expect(await app.sales.lines(nobody, {})).toEqual([]);
  expect(await app.sales.breakdown(nobody, { timeZone: 'UTC' })).toEqual({ byDay: [], byEvent: [] });
  // The owner's summary is the store's own.
  expect(await app.sales.summary({}, { byPhotographer: false })).toEqual(await app.store.orders.summary({}));
});
