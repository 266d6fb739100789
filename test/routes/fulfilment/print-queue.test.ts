/**
 * The print queue (docs/contract.md, "Fulfilment") on both store engines:
 * `GET /api/print-queue`, `GET /api/print-files`, `POST /api/print-queue/printed`.
 */
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { actorFor } from '../../../src/domain/roles.js';
import { ADMIN_TOKEN } from '../../helpers/build.js';
import { forEachEngine, lineOf, photoNumber } from '../../support/fulfilment-apps.js';
import { readZip } from '../../support/fulfilment-fixtures.js';
import { AX, BX, call, expectError, orderIn } from '../admin/fixtures.js';

const ADMIN = actorFor('owner', ADMIN_TOKEN);

forEachEngine((engine, makeApp) => {
  test('the queue: unprinted lines of paid orders, oldest first, with photo and copies per size; filters', async (t) => {
    const app = await makeApp(t);
    expect(app.store.engine).toBe(engine);
    const n = photoNumber(app);
    const first = await orderIn(app, 'paid', { items: [lineOf(n, '4x6', 2), lineOf(n, '8x10')] });
    const second = await orderIn(app, 'paid', { items: [lineOf(n, '4x6', 3)], fulfillmentType: 'pickup' });
    await orderIn(app, 'pending', { items: [lineOf(n, '4x6')] });
    await orderIn(app, 'void', { items: [lineOf(n, '4x6')] });
    const other = await orderIn(app, 'paid', { eventSlug: BX, prefix: 'BX24', items: [lineOf('1', '4x6')] });

    const res = await call(app, { url: '/api/print-queue' });
    expect(res.statusCode, res.body).toBe(200);
    const { items, counts } = res.json();
    expect(items.map((i: { itemId: string }) => i.itemId)).toEqual([
      `${first.orderNumber}.1`,
      `${first.orderNumber}.2`,
      `${second.orderNumber}.1`,
      `${other.orderNumber}.1`,
    ]);
    expect(counts).toEqual({ '4x6': 6, '8x10': 1 });
    const photo = app.photos.photosOf(AX)?.[0];
    expect(items[0]).toEqual({
      itemId: `${first.orderNumber}.1`,
      orderId: first.id,
      orderNumber: first.orderNumber,
      eventSlug: AX,
      photoNumber: n,
      photo: {
        id: photo?.id,
        number: n,
        file: `${AX}/Day 1/Morning/IMG_0001.jpg`,
        thumbnail: expect.stringMatching(new RegExp(`/api/proxy-image/${AX}/${photo?.id}\\?v=`)),
      },
      size: '4x6',
      quantity: 2,
      crop: { x: 0.5, y: 0.5 },
      fileName: `${first.orderNumber}_${n}_4x6_x2.jpg`,
      printing: null,
    });

    const only = (await call(app, { url: `/api/print-queue?eventSlug=${AX}&size=4X6` })).json();
    expect(only.items.map((i: { itemId: string }) => i.itemId)).toEqual([
      `${first.orderNumber}.1`,
      `${second.orderNumber}.1`,
    ]);
    expect(only.counts).toEqual({ '4x6': 5 });
  });

  test('download the 4x6 batch, mark it printed: it leaves the queue, the history says who; the batch can be downloaded again by id', async (t) => {
    const app = await makeApp(t);
    const n = photoNumber(app);
    const a = await orderIn(app, 'paid', { items: [lineOf(n, '4x6', 2), lineOf(n, '8x10')] });
    const b = await orderIn(app, 'paid', { items: [lineOf(n, '4x6')] });

    const queue = (await call(app, { url: `/api/print-queue?eventSlug=${AX}&size=4x6` })).json();
    const ids = queue.items.map((i: { itemId: string }) => i.itemId);
    const zip = await call(app, { url: `/api/print-files?eventSlug=${AX}&size=4x6` });
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe(`attachment; filename="prints-${AX}-4x6.zip"`);
    expect(zip.headers['x-print-count']).toBe('2');
    const { names, files } = readZip(zip.rawPayload);
    expect(names).toEqual([`${a.orderNumber}_${n}_4x6_x2.jpg`, `${b.orderNumber}_${n}_4x6_x1.jpg`]);
    const meta = await sharp(Buffer.from(files[names[0] as string] as Uint8Array)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1800, height: 1200, density: 300 });

    const marked = await call(app, { method: 'POST', url: '/api/print-queue/printed', payload: { itemIds: ids } });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ success: true, marked: ids, alreadyPrinted: [] });
    const left = (await call(app, { url: '/api/print-queue' })).json();
    expect(left.items.map((i: { itemId: string }) => i.itemId)).toEqual([`${a.orderNumber}.2`]);
    expect(left.counts).toEqual({ '8x10': 1 });

    const view = (await call(app, { url: `/api/orders/${a.orderNumber}` })).json();
    expect(view.lines.map((l: { printedAt: string | null }) => l.printedAt !== null)).toEqual([true, false]);
    expect(view.history.at(-1)).toEqual({
      at: expect.any(String),
      action: 'printed',
      field: `${a.orderNumber}.1`,
      to: `Photo #${n} (4x6) x2 = $10.00`,
      by: ADMIN,
    });

    // again: nothing new; the queue of 4x6 is empty now, but the printed batch can be fetched by id
    const again = await call(app, { method: 'POST', url: '/api/print-queue/printed', payload: { itemIds: ids } });
    expect(again.json()).toMatchObject({ marked: [], alreadyPrinted: ids });
    expectError(await call(app, { url: `/api/print-files?eventSlug=${AX}&size=4x6` }), 409, 'NOTHING_TO_PRINT');
    const reprint = await call(app, { url: `/api/print-files?itemIds=${ids.join(',')}` });
    expect(reprint.statusCode).toBe(200);
    expect(readZip(reprint.rawPayload).names).toEqual(names);
  });

  test('errors: admin only, malformed or unknown item ids, unpaid orders; nothing is marked', async (t) => {
    const app = await makeApp(t);
    const n = photoNumber(app);
    const paid = await orderIn(app, 'paid', { items: [lineOf(n, '4x6')] });
    const pending = await orderIn(app, 'pending', { items: [lineOf(n, '4x6')] });
    expectError(await call(app, { url: '/api/print-queue', admin: false }), 401, 'UNAUTHORIZED');
    expectError(await call(app, { url: '/api/print-files', admin: false }), 401, 'UNAUTHORIZED');
    const post = (itemIds: unknown, admin = true) =>
      call(app, { method: 'POST', url: '/api/print-queue/printed', payload: { itemIds }, admin });
    expectError(await post([`${paid.orderNumber}.1`], false), 401, 'UNAUTHORIZED');
    expectError(await post(['nonsense']), 400, 'VALIDATION_FAILED');
    expectError(await post([]), 400, 'VALIDATION_FAILED');
    expectError(await post([`${paid.orderNumber}.1`, `${paid.orderNumber}.2`]), 400, 'VALIDATION_FAILED');
    expectError(await post([`${paid.orderNumber}.1`, 'AX25-9999.1']), 404, 'ORDER_NOT_FOUND');
    expectError(await post([`${paid.orderNumber}.1`, `${pending.orderNumber}.1`]), 409, 'INVALID_TRANSITION');
    expect((await app.store.orders.get(paid.id))?.printed).toEqual([]);
    expectError(
      await call(app, { url: `/api/print-files?itemIds=${pending.orderNumber}.1` }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await call(app, { url: '/api/print-files?itemIds=x' }), 400, 'VALIDATION_FAILED');
    expectError(await call(app, { url: `/api/print-files?eventSlug=${BX}` }), 409, 'NOTHING_TO_PRINT');
  });
  test("digital files are downloaded, not printed: the queue and an order's print files leave them out", async (t) => {
    const app = await makeApp(t);
    const n = photoNumber(app);
    const mixed = await orderIn(app, 'paid', { items: [lineOf(n, 'digital'), lineOf(n, '4x6', 2)] });
    const digitalOnly = await orderIn(app, 'paid', { items: [lineOf(n, 'Digital')], fulfillmentType: 'pickup' });
    const { items, counts } = (await call(app, { url: '/api/print-queue' })).json();
    expect(items.map((i: { itemId: string }) => i.itemId)).toEqual([`${mixed.orderNumber}.2`]);
    expect(counts).toEqual({ '4x6': 2 });
    const files = await call(app, { url: `/api/orders/${mixed.orderNumber}/print-files` });
    expect(files.statusCode, files.body).toBe(200);
    expect(readZip(files.rawPayload).names).toEqual([`${mixed.orderNumber}_${n}_4x6_x2.jpg`]);
    expectError(
      await call(app, { url: `/api/orders/${digitalOnly.orderNumber}/print-files` }),
      409,
      'NOTHING_TO_PRINT',
    );
  });
});
