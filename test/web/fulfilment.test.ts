/**
 * The fulfilment parts of the browser app in a real headless Chromium, against the whole
 * service with the demo library (test/support/web-server.ts):
 * - the customer drags the crop frame of an 8x10 in the cart; the order keeps the crop and
 *   the order page shows the order's QR code;
 * - the photographer's dashboard scanner reads that QR code from the camera and opens the
 *   order. The camera is Chromium's fake capture device playing a file this test writes from
 *   a screenshot of the customer's QR code, so the decoder (zxing-wasm: this Chromium has no
 *   BarcodeDetector) reads what a phone camera would see;
 * - the photographer's day: mark paid (the order page shows each line's thumbnail, file and
 *   history, and offers the undo), download the 4x6 batch from the print queue and mark it
 *   printed, "Ready for pickup" refused while the 8x10 is not printed (the page names it) and
 *   then "Mark all printed and ready for pickup", scan the pickup QR code, one click
 *   "Collected", the labels of the orders that ship (with and without slips, two file names),
 *   and the CSV.
 * Its own server and browser (the camera switches are the browser's).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readPdf, readZip } from '../support/fulfilment-fixtures.js';
import { newOrder } from '../support/store-fixtures.js';
import { closeContexts, DESKTOP, launchBrowser, openPage, PHONE, sharedBrowser } from '../support/web-browser.js';
import { buildWebApp } from '../support/web-build.js';
import { SET_UP_TIMEOUT_MS } from '../support/web-harness.js';
import { expectClean, expectGoodLayout } from '../support/web-layout.js';
import { adminInit, startWebServer, type WebServer } from '../support/web-server.js';

const HARBOR = 'Harbor Comic Con'; // demo event: 4x6 $5, 5x7 $10, 8x10 $20; photo #1 is 1600 × 1067

let workDir: string;
let cameraFile: string;
let server: WebServer;
let browser: Browser;

/** A camera that films `image` (PNG) held in front of it: 640 × 480 MJPEG frames. */
async function filmOf(image: Buffer): Promise<Buffer> {
  const held = await sharp(image).resize(300, 300, { fit: 'contain', background: '#ffffff' }).toBuffer();
  const frame = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d8d4cc' } })
    .composite([{ input: held, left: 170, top: 90 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return Buffer.concat(Array.from({ length: 30 }, () => frame));
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'photo-fulfil-web-'));
  const webDir = path.join(workDir, 'web');
  cameraFile = path.join(workDir, 'camera.mjpeg');
  // Until the test films the QR code, the camera sees a blank wall.
  await writeFile(
    cameraFile,
    await filmOf(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    ),
  );
  [, browser] = await Promise.all([
    buildWebApp(webDir),
    launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${cameraFile}`,
    ]),
  ]);
  server = await startWebServer(webDir);
}, SET_UP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('fulfilment in the browser', () => {
  test('the photographer’s day: crop chosen in the cart, mark paid, the 4x6 batch downloaded and marked printed, the pickup QR scanned and collected, labels for the rest, the CSV', async () => {
    const photo = (await server.app.inject({ url: `/event/${encodeURIComponent(HARBOR)}?limit=1` })).json().photos[0];
    expect(photo.number).toBe('1');
    expect(photo.metadata.width).toBeGreaterThan(photo.metadata.height);

    // ---- the customer, on a phone, with photo #1 as an 8x10 in the cart
    const line = { event: HARBOR, eventName: HARBOR, number: '1', thumb: photo.thumbnail, size: '8x10', quantity: 1 };
    const small = { ...line, size: '4x6', quantity: 2 };
    const customer = await openPage(browser, PHONE, {
      init: `if (!localStorage.getItem('cps.cart.v1')) localStorage.setItem('cps.cart.v1', ${JSON.stringify(JSON.stringify([line, small]))});`,
    });
    const page = customer.page;
    await page.goto(`${server.url}/checkout`);
    await page.getByRole('button', { name: 'Crop: centred' }).first().click();
    const frame = page.getByRole('slider', { name: 'Crop of photo #1 (8x10 print)' });
    await frame.waitFor();
    // A 3:2 photo in a 5:4 print: the frame moves sideways, starting in the middle.
    expect(await frame.getAttribute('aria-orientation')).toBe('horizontal');
    expect(await frame.getAttribute('aria-valuenow')).toBe('50');
    await expectGoodLayout(page, 'checkout with the crop chooser');

    // Drag it all the way to the left.
    const box = await frame.boundingBox();
    if (!box) throw new Error('no frame');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x - 200, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => frame.getAttribute('aria-valuenow')).toBe('0');
    expect(await page.getByRole('button', { name: 'Crop: adjusted' }).count()).toBe(1);
    // The keyboard moves it too; Home puts it back at the left edge.
    await frame.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await frame.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await page.keyboard.press('Home');
    await expect.poll(() => frame.getAttribute('aria-valuenow')).toBe('0');

    await page.getByText('Pick up at the booth').click();
    await page.fill('#c-name', 'Grace Hopper');
    await page.fill('#c-email', 'grace@example.com');
    await page.fill('#c-phone', '+1 (555) 010-2020');
    await page.getByRole('button', { name: 'Place order · $30.00' }).click();
    await page.waitForURL(/\/order\//, { timeout: 30_000 });
    const orderNumber = (await page.getByTestId('order-number').textContent())?.trim() ?? '';
    expect(orderNumber).toMatch(/^HCC-\d{4}$/);

    // The server kept the crop: the frame's centre at the left edge of a 3:2 photo printed 5:4.
    const stored = await server.app.store.orders.get(orderNumber);
    expect(stored?.items[0]?.crop?.y).toBe(0.5);
    expect(stored?.items[0]?.crop?.x).toBeCloseTo(1.25 / 1.5 / 2, 2);

    // The order page shows the QR code of the order's dashboard address.
    const qr = page.getByRole('img', { name: `QR code of order ${orderNumber}` });
    await qr.waitFor();
    expect(await qr.getAttribute('data-url')).toBe(`${server.url}/admin/orders/${orderNumber}`);
    expect(await page.getByRole('heading', { name: 'At the booth' }).count()).toBe(1);
    await expectGoodLayout(page, 'order page with its QR code');
    const qrImage = await qr.screenshot();
    expectClean(customer);
    await customer.close();

    // ---- the photographer's day. Another order, to ship, paid earlier.
    const shipOrder = (
      await server.app.store.orders.create(
        newOrder({
          prefix: 'HCC',
          eventSlug: HARBOR,
          customerName: 'Ship Person',
          items: [{ photoNumber: '2', size: '4x6', quantity: 1, unitCents: 500, lineCents: 500 }],
        }),
        { by: 'customer' },
      )
    ).orderNumber;
    await server.app.store.orders.update(shipOrder, { status: 'paid' }, { by: 'admin' });
    // And a paid 4x6 of another event: its own batch.
    const otherEvent = (
      await server.app.store.orders.create(
        newOrder({
          prefix: 'SPM',
          eventSlug: 'Spring Matsuri',
          items: [{ photoNumber: '1', size: '4x6', quantity: 1, unitCents: 600, lineCents: 600 }],
        }),
        { by: 'customer' },
      )
    ).orderNumber;
    await server.app.store.orders.update(otherEvent, { status: 'paid' }, { by: 'admin' });

    const admin = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = admin.page;
    const wasm: string[] = [];
    a.on('response', (r) => {
      if (r.url().endsWith('.wasm')) wasm.push(`${r.status()} ${r.headers()['content-type']}`);
    });
    // Mark paid: the order page shows each line's thumbnail, original file and print state, the history, and the undo.
    await a.goto(`${server.url}/admin/orders/${orderNumber}`);
    await a.getByRole('button', { name: 'Mark paid' }).click();
    await a.getByRole('button', { name: 'Confirm: $30.00 received' }).click();
    await expect.poll(async () => (await server.app.store.orders.get(orderNumber))?.status).toBe('paid');
    await a.getByRole('button', { name: 'Undo “Mark paid”' }).waitFor();
    expect(await a.locator('.print-line img').count()).toBe(2);
    expect(await a.locator('.file-path').first().textContent()).toMatch(new RegExp(`^${HARBOR}/.+\\.jpe?g$`, 'i'));
    expect(await a.getByRole('heading', { name: 'History' }).count()).toBe(1);
    expect(await a.locator('.history li').last().textContent()).toContain('Status pending → paid');
    await expectGoodLayout(a, 'order page with lines, undo and history');
    const [zip] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Print files (ZIP)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`prints-${orderNumber}.zip`);
    const { names, files } = readZip(await readFile((await zip.path()) as string));
    expect(names).toEqual([`${orderNumber}_1_8x10_x1.jpg`, `${orderNumber}_1_4x6_x2.jpg`]);
    const print = await sharp(Buffer.from(files[names[0] as string] as Uint8Array)).metadata();
    expect([print.width, print.height, print.density]).toEqual([3000, 2400, 300]);

    // The print queue: download the 4x6 batch, mark it printed.
    await a.getByRole('link', { name: 'Print queue' }).click();
    // One batch per event and size: Harbor's 4x6 (3 copies) apart from Spring Matsuri's.
    const batch = a.locator('section.print-batch', { has: a.getByRole('heading', { name: /^4x6 · 3 copies/ }) });
    await batch.waitFor();
    const other = a.locator('section.print-batch', {
      has: a.getByRole('heading', { name: '4x6 · 1 copy · 1 file · Spring Matsuri' }),
    });
    expect(await other.count()).toBe(1);
    await expectGoodLayout(a, 'print queue');
    const [batchZip] = await Promise.all([
      a.waitForEvent('download'),
      batch.getByRole('button', { name: 'Download this batch' }).click(),
    ]);
    const fourBySix = readZip(await readFile((await batchZip.path()) as string));
    // oldest order first: the customer's order came in before the one to ship
    expect(fourBySix.names).toEqual([`${orderNumber}_1_4x6_x2.jpg`, `${shipOrder}_2_4x6_x1.jpg`]);
    const small4x6 = await sharp(Buffer.from(fourBySix.files[fourBySix.names[0] as string] as Uint8Array)).metadata();
    expect([small4x6.width, small4x6.height, small4x6.density]).toEqual([1800, 1200, 300]);
    await batch.getByRole('button', { name: 'Mark printed' }).click();
    await expect.poll(() => batch.count()).toBe(0);
    expect(await other.count()).toBe(1);
    expect((await server.app.store.orders.get(orderNumber))?.printed.map((p) => p.line)).toEqual([1]);
    expect((await server.app.store.orders.get(shipOrder))?.printed.map((p) => p.line)).toEqual([0]);
    // Printed (one line): "Mark paid" can no longer be undone. "Ready for pickup" waits for the
    // prints: the 8x10 is not printed yet, so the order is not ready, and the page says which print.
    await a.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await a.getByRole('button', { name: 'Undo “Mark paid”' }).count()).toBe(0);
    await a.getByRole('button', { name: 'Ready for pickup' }).click();
    const missing = a.getByRole('alert').filter({ hasText: 'Not ready for pickup yet' });
    await missing.waitFor();
    expect(await missing.textContent()).toContain('Photo #1 (8x10) ×1');
    expect((await server.app.store.orders.get(orderNumber))?.pickupStatus).toBe('waiting');
    admin.errors.length = 0; // the refused change's 409 is logged by the browser, as browsers do
    await expectGoodLayout(a, 'order page: prints missing');
    // The 8x10 is in the bag already: mark it printed with "ready" in one go.
    await missing.getByRole('button', { name: 'Mark all printed and ready for pickup' }).click();
    await expect.poll(async () => (await server.app.store.orders.get(orderNumber))?.pickupStatus).toBe('ready');
    expect((await server.app.store.orders.get(orderNumber))?.printed.map((p) => p.line).sort()).toEqual([0, 1]);
    await expect.poll(() => a.locator('.history li').last().textContent()).toContain('Pickup waiting → ready');

    // The customer comes to the booth: the camera sees their phone; the scanner opens the order.
    await writeFile(cameraFile, await filmOf(qrImage));
    await a.goto(`${server.url}/admin/scan`);
    await a.waitForURL(`${server.url}/admin/orders/${orderNumber}`, { timeout: 30_000 });
    await expect.poll(() => a.locator('h1').textContent()).toBe(`Order ${orderNumber}`);
    // Decoded by zxing-wasm, its WebAssembly served by this server.
    expect(wasm).toEqual(['200 application/wasm']);
    expect(await a.getByRole('button', { name: 'Undo “Mark paid”' }).count()).toBe(0);
    await a.getByRole('button', { name: 'Collected', exact: true }).click();
    await expect.poll(async () => (await server.app.store.orders.get(orderNumber))?.pickupStatus).toBe('collected');
    await a.getByRole('button', { name: 'Not collected after all' }).waitFor();

    // The order that ships: "Mark shipped" waits for its print too (printed above, so it goes).
    // Labels and the CSV, from the order lists.
    await a.goto(`${server.url}/admin?event=${encodeURIComponent(HARBOR)}`);
    await a.getByText('Labels and export').click();
    // The orders that ship get their labels, one PDF.
    const [labels] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Labels to ship (PDF)' }).click(),
    ]);
    expect(labels.suggestedFilename()).toMatch(/^labels-Harbor.*\.pdf$/);
    // One 6 × 4 in page: the order that ships (the pickup order waits at the booth).
    // With packing slips: another file, under another name (a second download keeps both).
    const [slips] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Labels with packing slips (PDF)' }).click(),
    ]);
    expect(slips.suggestedFilename()).toMatch(/^labels-and-slips-Harbor.*\.pdf$/);
    expect(slips.suggestedFilename()).not.toBe(labels.suggestedFilename());
    const pdf = await readPdf(await readFile((await labels.path()) as string));
    expect(pdf.map((p) => [p.width, p.height])).toEqual([[432, 288]]);
    expect(pdf[0]?.text).toContain('Ship Person');
    expect(pdf[0]?.text).not.toContain('Grace Hopper');
    const [csv] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('orders-Harbor-Comic-Con.csv');
    const csvText = await readFile((await csv.path()) as string, 'utf8');
    expect(csvText.startsWith('\ufefforderNumber,createdAt,customerName')).toBe(true);
    expect(csvText).toContain(`${orderNumber},`);
    expect(csvText).toContain(`${shipOrder},`);
    await expectGoodLayout(a, 'order lists with labels and export');
    expectClean(admin);
    await admin.close();
  }, 180_000);

  test('the scanner says so when there is no camera, and a typed order number opens the order', async () => {
    // The worker's Chromium with the default switches (test/support/web-browser.ts): no fake
    // camera, as on a computer without one.
    const noCamera = await sharedBrowser();
    try {
      const admin = await openPage(noCamera, PHONE, { init: adminInit() });
      const a = admin.page;
      await a.goto(`${server.url}/admin/scan`);
      // (The owner's "Before you sell" banner may stand above it: the scanner's own notice is meant.)
      await a
        .locator('.notice', { hasText: /camera/i })
        .first()
        .waitFor({ timeout: 15_000 });
      await a.fill('#scan-order', 'hcc-0001');
      await a.getByRole('button', { name: 'Open' }).click();
      await a.waitForURL(`${server.url}/admin/orders/HCC-0001`);
      await expectGoodLayout(a, 'scanner without a camera');
      await admin.close();
    } finally {
      await closeContexts(noCamera);
    }
  }, 60_000);
});
