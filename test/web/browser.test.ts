/**
 * The browser app end to end, in a real headless Chromium (test/support/web-browser.ts),
 * against the whole service on a loopback port with the demo library (test/support/web-server.ts)
 * and the app built from the current sources with the project's Vite config.
 *
 * One server and one browser for the file; every test opens its own browser contexts (fresh
 * storage and cache). The tests use different events where one changes what another sees.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readQrTexts } from '../../src/services/intake/qr.js';
import { ADMIN_TOKEN } from '../helpers/build.js';
import { makeImage, writeEventJson, writePhoto } from '../support/photos-fixtures.js';
import { makeFrame } from '../support/qr-frames.js';
import { startStripeEmulator } from '../support/stripe-emulator.js';
import { waitUntil } from '../support/wait.js';
import { closeViewer, DESKTOP, FAST_3G, openPage, PHONE, SMALL_PHONE } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS, startWebHarness, type WebHarness } from '../support/web-harness.js';
import { expectClean, expectGoodLayout } from '../support/web-layout.js';
import { adminInit, freePort, STAFF_TOKEN, startWebServer, type WebServer } from '../support/web-server.js';

const HARBOR = 'Harbor Comic Con'; // demo event: 4x6 $5, 5x7 $10, 8x10 $20, shipping $5
const MATSURI = 'Spring Matsuri';
const SESSION_PATH = `/event/${encodeURIComponent(HARBOR)}/Day%201/Cosplay%20Stage`;

let server: WebServer;
let browser: Browser;
let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness();
  ({ server, browser } = harness);
}, SET_UP_TIMEOUT_MS);

afterAll(() => harness?.close());

const api = (url: string, init: { method?: string; body?: unknown } = {}) =>
  server.app.inject({
    method: (init.method ?? 'GET') as 'GET',
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { payload: JSON.stringify(init.body) }),
  });

/** The feedback link of the order's receipt, read from the mail in DATA_DIR/outbox. */
async function feedbackLinkOf(orderNumber: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  let link = '';
  // However long the mail takes; one that never comes fails on the test's timeout.
  await waitUntil(async () => {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter(
      (f) => f.includes(`-receipt-${orderNumber}-`) && f.endsWith('.eml'),
    );
    if (!files[0]) return false;
    const mail = await simpleParser(await readFile(path.join(outbox, files[0])));
    link = /https?:\/\/\S*\?feedback=\S+/.exec(mail.text ?? '')?.[0] ?? '';
    return link !== '';
  }, `a receipt for ${orderNumber} in ${outbox}`);
  return link;
}

/** PNG width and height from the IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the customer and the photographer', () => {
  test('browse to a session, find a photo by number, order three photos in two sizes, and fulfil the order', async () => {
    // ---- the customer, on a phone
    const customer = await openPage(browser, PHONE);
    const { page } = customer;
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: /Harbor Comic Con/ }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/event/${encodeURIComponent(HARBOR)}`);
    await page.getByRole('link', { name: 'Day 1', exact: true }).click();
    await page.getByRole('link', { name: /Cosplay Stage/ }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}${SESSION_PATH}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Cosplay Stage');
    await page.locator('.tile').first().waitFor();
    expect(await page.locator('.tile').count()).toBe(6);

    // Photo #12 is in another session: "find photo #" still opens it.
    await page.fill('#find-number', '12');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #12');
    await dialog.getByRole('radio', { name: /5x7/ }).check();
    await dialog.getByRole('button', { name: /Add to cart · \$10\.00/ }).click();
    await expect.poll(() => dialog.getByRole('status').last().textContent()).toContain('Added #12 (5x7)');
    await closeViewer(page);

    await page.locator('button[data-number="2"]').click();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #2');
    await dialog.getByRole('button', { name: /Add to cart · \$5\.00/ }).click(); // default size 4x6
    await dialog.getByRole('button', { name: 'Next photo' }).click();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #3');
    await dialog.getByRole('button', { name: /Add to cart · \$5\.00/ }).click();
    await dialog.getByRole('link', { name: /View cart \(3\)/ }).click();

    // ---- checkout
    await expect.poll(() => page.url()).toBe(`${server.url}/checkout`);
    await page.locator('.cart-line').nth(2).waitFor();
    expect(await page.locator('.cart-line').count()).toBe(3);
    await expectGoodLayout(page, 'checkout');
    await page.fill('#c-name', 'Ada Lovelace');
    await page.fill('#c-email', 'ada@example.com');
    await page.fill('#c-phone', '+1 (555) 010-4477');
    await page.fill('#c-street', '12 Main St');
    await page.fill('#c-city', 'Springfield');
    await page.fill('#c-state', 'il');
    await page.fill('#c-zip', '62701');
    // The figures come from POST /api/quote a moment after the cart shows.
    await expect.poll(() => page.locator('.totals').textContent()).toContain('$25.00');
    const totals = await page.locator('.totals').textContent();
    expect(totals).toContain('$20.00'); // photos
    expect(totals).toContain('$5.00'); // shipping
    expect(totals).toContain('$25.00');

    const posts: { key: string | undefined }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/orders') {
        posts.push({ key: r.headers()['idempotency-key'] });
      }
    });
    // A double tap: the ALTCHA widget solves the server's challenge, and only one order is made.
    await page.getByRole('button', { name: 'Place order · $25.00' }).dblclick();
    await page.waitForURL(/\/order\//, { timeout: 30_000 });
    const orderNumber = (await page.getByTestId('order-number').textContent())?.trim() ?? '';
    expect(orderNumber).toMatch(/^HCC-\d{4}$/);
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order!');
    // Its current status, looked up with the email this device used.
    await expect.poll(() => page.getByTestId('order-status').textContent()).toContain('Waiting for payment');
    expect(posts.length).toBe(1);
    expect(posts[0]?.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await page.locator('.topnav-cart').getAttribute('aria-label')).toBe('Cart, 0 prints');
    await expectGoodLayout(page, 'order confirmation');

    const stored = (await api(`/api/orders/${orderNumber}`)).json();
    expect(stored).toMatchObject({
      orderNumber,
      eventSlug: HARBOR,
      customerName: 'Ada Lovelace',
      fulfillmentType: 'ship',
      state: 'IL',
      subtotal: '$20.00',
      shippingFee: '$5.00',
      total: '$25.00',
      status: 'pending',
      channel: 'web',
    });
    expect(stored.items).toBe('Photo #12 (5x7) x1 = $10.00; Photo #2 (4x6) x1 = $5.00; Photo #3 (4x6) x1 = $5.00');
    const mine = (await api('/api/orders/pending')).json() as { customerEmail: string }[];
    expect(mine.filter((o) => o.customerEmail === 'ada@example.com').length).toBe(1);

    expectClean(customer);
    await customer.close();

    // The receipt's "Tell us how we did" link, opened on another device (nothing stored there).
    const link = await feedbackLinkOf(orderNumber);
    expect(link).toBe(`http://photos.test/?feedback=${orderNumber}`);
    const reader = await openPage(browser, PHONE);
    await reader.page.goto(server.url + new URL(link).pathname + new URL(link).search);
    await expect.poll(() => reader.page.url()).toContain(`/order/${orderNumber}?feedback=1#feedback`);
    expect(await reader.page.locator(':focus').getAttribute('id')).toBe('feedback-text');
    await reader.page.keyboard.type('Lovely photos, thank you!');
    // This device never saw the order: the email it was placed with is the proof (a wrong one is refused).
    await reader.page.fill('#feedback-from-email', 'eve@example.com');
    await reader.page.getByRole('button', { name: 'Send feedback' }).click();
    await expect
      .poll(() => reader.page.locator('#feedback-from-error').textContent())
      .toContain('could not find order');
    // The refused feedback logs its 404 in the console, as browsers do; that one alone.
    await expect
      .poll(() => reader.errors)
      .toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
    reader.errors.length = 0;
    await reader.page.fill('#feedback-from-email', 'Ada@Example.com');
    await reader.page.getByRole('button', { name: 'Send feedback' }).click();
    await expect.poll(() => reader.page.locator('#feedback').textContent()).toContain('Your feedback on order');
    expect((await api(`/api/orders/${orderNumber}`)).json().feedback).toContain('Lovely photos, thank you!');
    expectClean(reader);
    await reader.close();

    // ---- the photographer, on a laptop
    const admin = await openPage(browser, DESKTOP);
    const a = admin.page;
    await a.goto(`${server.url}/admin`);
    await a.fill('#admin-token', 'not-the-right-token-at-all-0000');
    await a.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => a.locator('#admin-token-error').textContent()).toBe('That token is not valid.');
    admin.errors.length = 0; // the refused sign-in logs its 401 in the console, as browsers do
    await a.fill('#admin-token', ADMIN_TOKEN);
    await a.getByRole('button', { name: 'Sign in' }).click();
    await a.locator('.order-list').waitFor();
    await a.fill('#order-search', orderNumber);
    await expect.poll(() => a.locator('.order-row').count()).toBe(1);
    await a.locator('.order-row').click();
    await expect.poll(() => a.locator('h1').textContent()).toBe(`Order ${orderNumber}`);
    expect(await a.locator('.detail-grid').textContent()).toContain('12 Main St');

    // Marking paid asks once more, naming the amount.
    await a.getByRole('button', { name: 'Mark paid' }).click();
    expect((await api(`/api/orders/${orderNumber}`)).json().status).toBe('pending');
    await a.getByRole('button', { name: 'Confirm: $25.00 received' }).click();
    await a.locator('#tracking').waitFor();
    await a.fill('#tracking', '1Z999AA10123456784');
    // A parcel goes out with its prints: none is marked printed yet, so the page names them and
    // offers to mark them printed with the shipping (they are in the envelope).
    await a.getByRole('button', { name: 'Mark shipped' }).click();
    const missing = a.getByRole('alert').filter({ hasText: 'Not shipped yet' });
    await missing.waitFor();
    expect((await api(`/api/orders/${orderNumber}`)).json().shippingStatus).toBe('ship');
    admin.errors.length = 0; // the refused change's 409 is logged by the browser, as browsers do
    await missing.getByRole('button', { name: 'Mark all printed and shipped' }).click();
    await a.getByRole('button', { name: 'Undo shipped' }).waitFor();
    expect(await a.locator('.badges').textContent()).toContain('shipped');
    await expectGoodLayout(a, 'order detail');
    expect((await api(`/api/orders/${orderNumber}`)).json()).toMatchObject({
      status: 'paid',
      shippingStatus: 'shipped',
      trackingNumber: '1Z999AA10123456784',
    });

    const [png] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Label (PNG)' }).click(),
    ]);
    expect(png.suggestedFilename()).toBe(`label-${orderNumber}.png`);
    expect(pngSize(await readFile((await png.path()) as string))).toEqual({ width: 1800, height: 1200 });

    const [docx] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Label (DOCX)' }).click(),
    ]);
    expect(docx.suggestedFilename()).toBe(`label-${orderNumber}.docx`);
    const docBytes = await readFile((await docx.path()) as string);
    expect(docBytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004'); // a ZIP container
    expect(docBytes.includes(Buffer.from('word/document.xml'))).toBe(true);
    expect(docBytes.length).toBeGreaterThan(2000);

    // The paid list has it, the sales page counts it.
    await a.goto(`${server.url}/admin?list=completed`);
    await a.fill('#order-search', orderNumber);
    await expect.poll(() => a.locator('.order-row').count()).toBe(1);
    await a.getByRole('link', { name: 'Sales' }).click();
    await expect.poll(() => a.locator('.stats').textContent()).toContain('$25.00');
    expect(await a.locator('.bar-list').textContent()).toContain('Harbor Comic Con');
    expectClean(admin);
    await admin.close();
  }, 120_000);

  test('an event whose deadline passed refuses new orders with a clear message', async () => {
    // A customer has a photo of the event in the cart already.
    const customer = await openPage(browser, PHONE);
    const { page } = customer;
    const gallery = `${server.url}/event/${encodeURIComponent(MATSURI)}`;
    await page.goto(gallery);
    await page.locator('.tile-open').first().click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Add to cart/ })
      .click();
    await closeViewer(page);

    // The photographer moves the deadline into the past.
    const admin = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = admin.page;
    await a.goto(`${server.url}/admin/events`);
    const card = a.locator(`details[data-event="${MATSURI}"]`);
    await card.locator('summary').click();
    const deadline = card.getByLabel('Ordering deadline');
    await deadline.waitFor();
    await deadline.fill('2024-05-01T18:00');
    await card.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => a.locator('.toast').textContent()).toContain('closed');
    const config = (await api(`/api/event-config?eventSlug=${encodeURIComponent(MATSURI)}`)).json();
    expect(config).toMatchObject({ active: false, closedReason: 'deadline' });
    expect(Date.parse(config.deadline)).toBeLessThan(Date.now());
    expectClean(admin);
    await admin.close();

    // The gallery says so, the viewer offers no "add to cart", the checkout will not send.
    await page.goto(gallery);
    const notice = page.locator('.notice-warn').first();
    await expect.poll(() => notice.textContent()).toContain('Ordering is closed.');
    expect(await notice.textContent()).toContain('The ordering deadline for this event passed on');
    await expectGoodLayout(page, 'closed event');
    await page.locator('.tile-open').first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('.notice-warn').textContent()).toContain('deadline');
    expect(await dialog.getByRole('button', { name: /Add to cart/ }).count()).toBe(0);
    await closeViewer(page);

    await page.goto(`${server.url}/checkout`);
    const alert = page.getByRole('alert').filter({ hasText: 'Ordering is closed.' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The ordering deadline for this event passed on');
    expect(await page.getByRole('button', { name: /Place order/ }).isDisabled()).toBe(true);
    expectClean(customer);
    await customer.close();
  }, 60_000);
});

describe('finding a photo and an order', () => {
  const BIG = 'Big Expo';
  const BIG_PATH = `/event/${encodeURIComponent(BIG)}`;

  test('"find photo #" opens a photo beyond the loaded pages in its place, or one of another session with a link there', async () => {
    // An event with more photos than one page of the app (48): Day 1 / Hall 1–200, Day 1 / Stage 201–210.
    const root = path.join(server.dataDir, 'photos');
    for (let i = 1; i <= 210; i++) {
      const session = i <= 200 ? 'Hall' : 'Stage';
      const takenAt = `2026:07:03 ${String(9 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`;
      const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
      await writePhoto(
        root,
        [BIG, 'Day 1', session, name],
        await makeImage({ takenAt, color: i % 2 ? '#cc6633' : '#3366cc' }),
      );
    }
    await (server.app as unknown as { photos: { rescan(): Promise<void> } }).photos.rescan();
    expect((await api(`/api/photos/${encodeURIComponent(BIG)}/100?limit=48`)).json().position.event).toMatchObject({
      page: 3,
      totalCount: 210,
    });

    const customer = await openPage(browser, PHONE);
    const { page } = customer;
    const lookups: string[] = [];
    page.on('request', (r) => {
      // The lookup, and no more HEAD probes of the thumbnail route.
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/photos/') || r.method() === 'HEAD')
        lookups.push(`${r.method()} ${url.pathname}`);
    });
    await page.goto(server.url + BIG_PATH);
    await page.locator('.tile').first().waitFor();
    expect(await page.locator('.tile').count()).toBe(48);

    // #100 is on page 3: pages 2 and 3 load, and the viewer opens on it, in the list.
    await page.fill('#find-number', '100');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #100');
    expect(await page.locator('.tile').count()).toBe(144);
    expect(lookups).toEqual([`GET /api/photos/${encodeURIComponent(BIG)}/100`]);
    await dialog.getByRole('button', { name: 'Next photo' }).click();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #101');
    await closeViewer(page);

    // From the Stage session, #150 (in the Hall) opens on its own, labelled with its folder ...
    await page.goto(`${server.url}${BIG_PATH}/Day%201/Stage`);
    await page.locator('.tile').first().waitFor();
    expect(await page.locator('.tile').count()).toBe(10);
    await page.fill('#find-number', '#150');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #150');
    expect(await dialog.textContent()).toContain('Day 1 · Hall');
    await closeViewer(page);
    const where = page.locator('#find-where');
    expect(await where.textContent()).toContain('Photo #150 is in Day 1 · Hall.');
    await expectGoodLayout(page, 'find photo in another session');

    // ... and "See it there" opens the Hall at it: pages 1-4 loaded, the viewer on #150.
    await where.getByRole('link', { name: 'See it there' }).click();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #150');
    // ?photo= is dropped once used; the open photo's own link is in the address bar.
    await expect.poll(() => page.url()).toBe(`${server.url}${BIG_PATH}/photo/150`);
    expect(await page.locator('.tile').count()).toBe(192);
    await dialog.getByRole('button', { name: 'Previous photo' }).click();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #149');
    await closeViewer(page);
    expectClean(customer);

    // A number the event doesn't have.
    await page.fill('#find-number', '999');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#find-message').textContent()).toBe('There is no photo #999 in Big Expo.');
    // The browser logs the 404 it got, as browsers do; nothing else went wrong.
    expect(customer.errors.every((e) => e.includes('404'))).toBe(true);
    await customer.close();
  }, 90_000);

  test('an order opened on another device: the customer types the email and sees its status', async () => {
    const created = await api('/api/orders/create', {
      method: 'POST',
      body: {
        eventSlug: HARBOR,
        photos: ['5', { number: '6', size: '5x7', quantity: 2 }],
        customerInfo: { name: 'Grace Hopper', email: 'Grace@Example.com' },
        shippingAddress: { line1: '1 Navy Yard Rd', city: 'Springfield', state: 'IL', zip: '62701' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const orderNumber = created.json().orderNumber as string;
    expect(
      (await api(`/api/orders/${orderNumber}/update-status`, { method: 'POST', body: { status: 'paid' } })).statusCode,
    ).toBe(200);
    const shipped = await api(`/api/orders/${orderNumber}/update-shipping`, {
      method: 'POST',
      body: { trackingNumber: '9400 1000 0000 0000 0000 00', printAll: true },
    });
    expect(shipped.statusCode).toBe(200);

    const reader = await openPage(browser, PHONE);
    const { page } = reader;
    await page.goto(`${server.url}/order/${orderNumber}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Order ${orderNumber}`);
    const bodies: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/orders/lookup') bodies.push(`${r.method()} ${r.postData()}`);
    });

    await page.fill('#lookup-email', 'someone@example.com');
    await page.getByRole('button', { name: 'Show status' }).click();
    await expect.poll(() => page.locator('#lookup-error').textContent()).toContain('could not find order');
    reader.errors.length = 0; // the refused lookup logs its 404 in the console, as browsers do

    await page.fill('#lookup-email', ' grace@example.com ');
    await page.getByRole('button', { name: 'Show status' }).click();
    const status = page.getByTestId('order-status');
    await expect.poll(() => status.textContent()).toContain('Shipped');
    const text = (await status.textContent()) ?? '';
    expect(text).toContain('9400 1000 0000 0000 0000 00');
    expect(text).toContain('Photo #6 (5x7) x2 = $20.00');
    expect(text).toContain('$30.00'); // 5 + 20 + 5 shipping
    expect(text).toContain(HARBOR);
    // The email went in POST bodies, never in a URL; the page shows no address or name.
    expect(bodies).toEqual([
      `POST ${JSON.stringify({ orderNumber, email: 'someone@example.com' })}`,
      `POST ${JSON.stringify({ orderNumber, email: 'grace@example.com' })}`,
    ]);
    const pageText = (await page.locator('main').textContent()) ?? '';
    expect(pageText).not.toContain('Navy Yard');
    expect(pageText).not.toContain('Grace Hopper');
    // Feedback is still offered below.
    expect(await page.locator('#feedback-text').count()).toBe(1);
    await expectGoodLayout(page, 'order status on another device');
    expectClean(reader);
    await reader.close();
  }, 60_000);
});

describe('quality', () => {
  test('the gallery and the dashboard on a small phone, a phone and a desktop: nothing wider than the screen, no text cut off, AA contrast', async () => {
    // A few booth orders, so the dashboard has something to show.
    const placed: string[] = [];
    for (const [name, photos, fulfillmentType] of [
      ['Grace Hopper', [{ number: '4', size: '8x10', quantity: 2 }], 'pickup'],
      ['Katherine Johnson-Goble, Mission Planning', ['7', '8', '9'], 'pickup'],
      ['Alan Turing', [{ number: '15', size: '5x7', quantity: 1 }], 'ship'],
    ] as const) {
      const res = await api('/api/orders/create', {
        method: 'POST',
        body: {
          eventSlug: HARBOR,
          photos,
          customerInfo: { name, email: 'booth@example.com' },
          fulfillmentType,
          ...(fulfillmentType === 'ship'
            ? { shippingAddress: { line1: '1 Bletchley Rd', city: 'Springfield', state: 'IL', zip: '62701' } }
            : {}),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      placed.push(res.json().orderNumber);
    }
    // One of them paid, so that the print queue lists its lines (file names in a table).
    const paid = await api(`/api/orders/${placed[0]}/update-status`, { method: 'POST', body: { status: 'paid' } });
    expect(paid.statusCode, paid.body).toBe(200);
    for (const [name, viewport] of [
      ['small-phone', SMALL_PHONE],
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const p = await openPage(browser, viewport, { init: adminInit() });
      const { page } = p;
      for (const url of ['/', `/event/${encodeURIComponent(HARBOR)}`, SESSION_PATH]) {
        await page.goto(server.url + url);
        await page.locator('.event-card, .tile').first().waitFor();
        await expectGoodLayout(page, `${url} at ${name}`);
      }

      await page.locator('.tile-open').first().click();
      await page.locator('.lb-preview.is-loaded').waitFor();
      await expectGoodLayout(page, `lightbox at ${name}`);
      await closeViewer(page);

      // The order with three lines: a table of thumbnails and file paths that must fit a phone.
      const detail = `/admin/orders/${placed[1]}`;
      for (const url of ['/admin/booth', '/admin/events', '/admin/sales', detail, '/admin/print', '/admin']) {
        await page.goto(server.url + url);
        await page.locator('.admin h1').waitFor();
        await p.settled();
        await expectGoodLayout(page, `${url} at ${name}`);
      }
      await page.locator('.order-list, .notice').first().waitFor();
      expectClean(p);
      await p.close();
    }
  }, 90_000);

  // How soon (the 2 s target) is a bench's, not a test's: `npm run bench -- first-view`.
  test('the first gallery view becomes interactive on a "Fast 3G" connection', async () => {
    const p = await openPage(browser, PHONE);
    const { page } = p;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await page.goto(server.url + SESSION_PATH);
    await page.waitForSelector('html[data-gallery-ready]', { timeout: 15_000 });
    // Read in the page (a string: this file is compiled without the DOM's types).
    const { interactiveMs, scriptRequestedMs } = (await page.evaluate(`({
      interactiveMs: performance.getEntriesByName('gallery-interactive')[0]?.startTime ?? NaN,
      scriptRequestedMs: performance.getEntriesByType('resource')
        .find((e) => /\\/assets\\/index-[^/]*\\.js$/.test(e.name))?.startTime ?? NaN,
    })`)) as { interactiveMs: number; scriptRequestedMs: number };
    // The throttling is really on: the page's script was asked for only after the page itself
    // had taken at least one emulated round trip (without throttling: ~30 ms).
    expect(scriptRequestedMs).toBeGreaterThanOrEqual(FAST_3G.latency);
    // It really is interactive: a tap opens the viewer.
    await page.locator('.tile-open').first().click();
    await page.getByRole('dialog').waitFor();
    console.info(`[web] first gallery view interactive after ${Math.round(interactiveMs)} ms on Fast 3G`);
    expect(interactiveMs).toBeGreaterThan(0);
    expectClean(p);
    await p.close();
  }, 60_000);

  test('keyboard: tab to the controls, Enter opens, arrows move, Escape closes; every image has alt text', {
    timeout: 60_000,
    // Retried once: it timed out once in CI (a clean clone, both cores loaded by the other
    // test files) and never in 6 runs here, with both cores busy or not. With the 15 s page
    // timeout (test/support/web-browser.ts), a second failure names the step that hangs.
    retry: 1,
  }, async () => {
    const p = await openPage(browser, DESKTOP);
    const { page } = p;
    await page.goto(server.url + SESSION_PATH);
    await page.locator('.tile').first().waitFor();

    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Skip to content');

    const tabTo = async (selector: string, max = 40) => {
      for (let i = 0; i < max; i++) {
        if ((await page.locator(`${selector}:focus`).count()) > 0) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    // "Find photo #" by keyboard alone.
    await tabTo('#find-number');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #5');
    expect(await page.locator('dialog :focus').count()).toBe(1);
    await closeViewer(page);
    await expect.poll(() => dialog.count()).toBe(0);

    // A photo tile: Enter opens the viewer, → moves, Escape closes.
    await tabTo('.tile-open');
    const first = await page.locator(':focus').getAttribute('data-number');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe(`Photo #${first}`);
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => dialog.getByRole('heading', { level: 2 }).textContent())
      .toBe(`Photo #${Number(first) + 1}`);
    // Tab reaches "Add to cart" inside the viewer, and Enter presses it.
    await tabTo('.lb-actions .btn-primary');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.locator('.lb-added').textContent()).toContain('Added');
    await closeViewer(page);
    await expect.poll(() => dialog.count()).toBe(0);

    // The favourite toggle works from the keyboard too.
    await tabTo('.tile-fav');
    await page.keyboard.press('Enter');
    expect(await page.locator(':focus').getAttribute('aria-pressed')).toBe('true');

    // Alt text: every image has one; the photos' name their number.
    const images = await page.$$eval('img', (list) =>
      list.map((img) => ({ alt: img.getAttribute('alt'), hidden: img.closest('[aria-hidden="true"]') !== null })),
    );
    expect(images.length).toBeGreaterThan(5);
    for (const img of images) {
      expect(img.alt).not.toBeNull();
      if (!img.hidden) expect(img.alt).toMatch(/#\d+/);
    }
    expectClean(p);
    await p.close();
  });
});

describe('selling', () => {
  test('packages and the early bird shown in the gallery and the cart; a refused coupon says why; a good one is charged', async () => {
    // The photographer sets a digital price, a package and an early bird in the dashboard.
    const admin = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = admin.page;
    await a.goto(`${server.url}/admin/events`);
    const card = a.locator(`details[data-event="${HARBOR}"]`);
    await card.locator('summary').click();
    await card.getByRole('button', { name: '+ Add a size' }).click();
    await card.getByLabel('Size 4', { exact: true }).fill('digital');
    await card.getByLabel('Price of digital').fill('8');
    await card.getByRole('button', { name: '+ Add a package' }).click();
    await card.getByLabel('Package 1 size').selectOption('4x6');
    await card.getByLabel('Copies in package 1').fill('3');
    await card.getByLabel('Price of package 1').fill('12');
    await card.getByLabel('Percent off').fill('10');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await card
      .getByLabel('Until (your local time)')
      .fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T12:00`);
    await card.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => a.locator('.toast').textContent()).toContain('saved');
    await expectGoodLayout(a, 'event settings with offers');
    expect((await api(`/api/event-config?eventSlug=${encodeURIComponent(HARBOR)}`)).json()).toMatchObject({
      prices: { '4x6': 5, '5x7': 10, '8x10': 20, digital: 8 },
      packages: [{ size: '4x6', count: 3, price: 12 }],
      earlyBird: { percent: 10 },
    });
    expectClean(admin);
    await admin.close();
    await server.app.store.coupons.create({
      code: 'HALFOFF',
      eventSlug: HARBOR,
      kind: 'percent',
      value: 50,
      expiresAt: null,
      maxUses: null,
      minSubtotalCents: 0,
      createdAt: new Date().toISOString(),
    });
    try {
      const customer = await openPage(browser, PHONE);
      const { page } = customer;
      await page.goto(`${server.url}/event/${encodeURIComponent(HARBOR)}`);
      const banner = page.locator('.offers');
      await expect.poll(() => banner.textContent(), { timeout: 10_000 }).toContain('Early bird: 10% off');
      expect(await banner.textContent()).toContain('3 4x6 prints for $12.00 (save $3.00)');
      await expectGoodLayout(page, 'gallery with offers');

      // Three 4x6 prints (one package) and a digital file.
      await page.locator('.tile-open').first().click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.locator('.package-hint').textContent()).toContain('3 4x6 prints for $12.00');
      for (let i = 0; i < 3; i++) {
        await dialog.getByRole('button', { name: /Add to cart · \$5\.00/ }).click();
        await dialog.getByRole('button', { name: 'Next photo' }).click();
      }
      await dialog.getByRole('radio', { name: /Digital file/ }).check();
      await dialog.getByRole('button', { name: /Add to cart · \$8\.00/ }).click();
      await expect.poll(() => dialog.getByRole('status').last().textContent()).toContain('(Digital file)');
      await closeViewer(page);

      await page.goto(`${server.url}/checkout`);
      await page.locator('.cart-line').nth(3).waitFor();
      // $23.00 of photos − $3.00 package − 10 % early bird ($2.00) + $5.00 shipping.
      const totals = page.locator('.totals dl');
      await expect.poll(() => totals.textContent()).toContain('$23.00');
      const text = (await totals.textContent()) ?? '';
      expect(text).toContain('Package 3 × 4x6 for $12.00−$3.00');
      expect(text).toContain('Early bird 10%−$2.00');
      expect(text).toContain('Total$23.00');

      // A code that does not exist: the reason, and the total unchanged.
      await page.fill('#coupon-code', 'nope');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect
        .poll(() => page.locator('#coupon-error').textContent())
        .toBe('There is no coupon “NOPE”. Please check the spelling.');
      // The refused code's 400 is logged by the browser, as every failed request is.
      expect(customer.errors).toEqual([expect.stringContaining('status of 400')]);
      customer.errors.length = 0;
      await page.fill('#coupon-code', 'halfoff');
      await page.getByRole('button', { name: 'Apply' }).click();
      // 50 % of $20.00 beats the early bird: $20.00 − $10.00 + $5.00.
      await expect.poll(() => totals.textContent()).toContain('Coupon HALFOFF−$10.00');
      expect(await totals.textContent()).not.toContain('Early bird');
      expect(await page.locator('#coupon-error').count()).toBe(0);
      await expectGoodLayout(page, 'checkout with offers');

      await page.fill('#c-name', 'Mary Jackson');
      await page.fill('#c-email', 'mary@example.com');
      await page.fill('#c-phone', '+1 (555) 010-9999');
      await page.fill('#c-street', '12 Main St');
      await page.fill('#c-city', 'Springfield');
      await page.fill('#c-state', 'IL');
      await page.fill('#c-zip', '62701');
      await page.getByRole('button', { name: 'Place order · $15.00' }).click();
      await page.waitForURL(/\/order\//, { timeout: 30_000 });
      const orderNumber = (await page.getByTestId('order-number').textContent())?.trim() ?? '';
      expect((await api(`/api/orders/${orderNumber}`)).json()).toMatchObject({
        subtotal: '$23.00',
        discount: '$13.00',
        shippingFee: '$5.00',
        total: '$15.00',
      });
      expectClean(customer);
      await customer.close();
    } finally {
      await api('/api/event-config', {
        method: 'PUT',
        body: { eventSlug: HARBOR, prices: { '4x6': 5, '5x7': 10, '8x10': 20 }, packages: [], earlyBird: null },
      });
    }
  }, 90_000);
  test('a digital file and a print with a coupon made in the dashboard, paid through the emulated Stripe Checkout, then downloaded', async () => {
    // A server with online payment on (the other tests' server takes payment at the booth).
    // Stripe sends the customer back to PUBLIC_BASE_URL: here, this server's own address.
    const emu = await startStripeEmulator();
    const port = await freePort();
    const shop = await startWebServer(
      harness.webDir,
      {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: emu.secretKey,
        STRIPE_WEBHOOK_SECRET: emu.webhookSecret,
        STRIPE_API_URL: emu.url,
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      },
      port,
    );
    emu.webhookUrl = `${shop.url}/api/payments/stripe/webhook`;
    try {
      await shop.app.inject({
        method: 'PUT',
        url: '/api/event-config',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { eventSlug: HARBOR, prices: { '4x6': 5, '5x7': 10, '8x10': 20, digital: 8 } },
      });

      // The photographer makes a coupon on the dashboard's Coupons page.
      const admin = await openPage(browser, DESKTOP, { init: adminInit() });
      const a = admin.page;
      await a.goto(`${shop.url}/admin/coupons`);
      await a.getByLabel('Code').fill('thanks20');
      await a.getByLabel('Percent', { exact: true }).fill('20');
      await a.getByLabel('Uses (empty: no limit)').fill('3');
      await a.getByRole('button', { name: 'Create coupon' }).click();
      await expect.poll(() => a.locator('tr[data-coupon="THANKS20"]').count()).toBe(1);
      const uses = a.locator('tr[data-coupon="THANKS20"] [data-testid="coupon-uses"]');
      expect(await uses.textContent()).toBe('0 of 3');
      expect(await a.locator('tr[data-coupon="THANKS20"]').textContent()).toContain('20% off');
      await expectGoodLayout(a, 'coupons page');

      // The customer buys one 4x6 print and one digital file with the code.
      const customer = await openPage(browser, PHONE);
      const { page } = customer;
      await page.goto(`${shop.url}/event/${encodeURIComponent(HARBOR)}`);
      await page.locator('.tile-open').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: /Add to cart · \$5\.00/ }).click();
      await dialog.getByRole('button', { name: 'Next photo' }).click();
      await dialog.getByRole('radio', { name: /Digital file/ }).check();
      await dialog.getByRole('button', { name: /Add to cart · \$8\.00/ }).click();
      await expect.poll(() => dialog.getByRole('status').last().textContent()).toContain('(Digital file)');
      await closeViewer(page);
      await page.goto(`${shop.url}/checkout`);
      await page.locator('.cart-line').nth(1).waitFor();
      await page.fill('#coupon-code', 'thanks20');
      await page.getByRole('button', { name: 'Apply' }).click();
      const totals = page.locator('.totals dl');
      // $13.00 − 20 % ($2.60) + $5.00 shipping for the print.
      await expect.poll(() => totals.textContent()).toContain('Coupon THANKS20−$2.60');
      await page.fill('#c-name', 'Grace Hopper');
      await page.fill('#c-email', 'grace@example.com');
      await page.fill('#c-phone', '+1 (555) 010-4242');
      await page.fill('#c-street', '12 Main St');
      await page.fill('#c-city', 'Springfield');
      await page.fill('#c-state', 'IL');
      await page.fill('#c-zip', '62701');
      await page.getByRole('button', { name: 'Place order · $15.40' }).click();

      // Straight to the (emulated) Stripe Checkout page, then back to the order page, paid.
      await page.waitForURL((u) => u.href.startsWith(`${emu.url}/pay/`), { timeout: 30_000 });
      await page.getByRole('button', { name: 'Pay $15.40' }).click();
      await page.waitForURL(/\/order\/.*paid=1/, { timeout: 30_000 });
      const status = page.getByTestId('order-status');
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('Paid');
      expect(await status.textContent()).toContain('you saved $2.60 with THANKS20');
      const link = page.getByTestId('downloads').getByRole('link', { name: /Download photo #/ });
      await expectGoodLayout(page, 'paid order with a download');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const file = await readFile((await download.path()) as string);
      expect(file.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
      expect(download.suggestedFilename()).toMatch(/\.jpg$/);

      const orderNumber = (await page.getByTestId('order-number').textContent())?.trim() ?? '';
      const stored = (
        await shop.app.inject({
          url: `/api/orders/${orderNumber}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).json();
      expect(stored).toMatchObject({ status: 'paid', couponCode: 'THANKS20', discount: '$2.60', total: '$15.40' });
      expect(stored.history.at(-1)).toMatchObject({ action: 'status', to: 'paid', by: 'stripe' });
      expectClean(customer);
      await customer.close();

      await a.reload();
      await expect
        .poll(() => a.locator('tr[data-coupon="THANKS20"] [data-testid="coupon-uses"]').textContent())
        .toBe('1 of 3');
      expectClean(admin);
      await admin.close();
    } finally {
      await shop.close();
      await emu.close();
    }
  }, 120_000);
});

// Last in this file: it adds an event to the demo library the tests above count on.
describe('live gallery', () => {
  test('photos copied into the folder while the page is open: "N new photos", loaded on a tap', async () => {
    const root = path.join(server.dataDir, 'photos');
    const event = 'Live Con';
    await writeEventJson(root, event, { name: 'Live Con' });
    const shot = (minute: number, color: string) =>
      makeImage({ width: 300, height: 200, color, takenAt: `2026:07:03 10:${String(minute).padStart(2, '0')}:00` });
    for (let i = 0; i < 3; i++)
      await writePhoto(root, [event, 'Sat', 'Hall', `IMG_${100 + i}.jpg`], await shot(i * 2, '#335577'));
    // Listed once inspected (code frames never show).
    await expect.poll(() => server.app.photos.getEvent(event)?.photoCount, { timeout: 15_000 }).toBe(3);

    const p = await openPage(browser, PHONE);
    const { page } = p;
    await page.goto(`${server.url}/event/${encodeURIComponent(event)}`);
    await expect.poll(() => page.locator('.grid .tile').count()).toBe(3);
    // Square tiles by width, for the screen's density (test/web/tiles.test.ts has the rest).
    await expect
      .poll(() => page.locator('.grid .tile img').first().getAttribute('srcset'))
      .toMatch(/tile=160 160w, .*tile=480 480w$/);
    expect(await page.locator('.live-banner').count()).toBe(0);

    // The photographer copies two more in (one shot between the others): the watcher, the
    // intake's inspection, then the page is told.
    await writePhoto(root, [event, 'Sat', 'Hall', 'IMG_103.jpg'], await shot(1, '#aa5522'));
    await writePhoto(root, [event, 'Sat', 'Hall', 'IMG_104.jpg'], await shot(9, '#22aa55'));
    const banner = page.locator('.live-banner button');
    await expect.poll(() => banner.textContent(), { timeout: 20_000 }).toContain('2 new photos');
    expect(await page.locator('.grid .tile').count()).toBe(3); // nothing moved under the visitor's thumb
    await banner.click();
    await expect.poll(() => page.locator('.grid .tile').count()).toBe(5);
    // In shooting order: the 10:01 photo sits second.
    const numbers = await page
      .locator('.grid .tile-open')
      .evaluateAll((list) => list.map((b) => b.getAttribute('data-number')));
    expect(numbers).toEqual(['1', '4', '2', '3', '5']);
    await expect.poll(() => page.locator('.live-banner').count()).toBe(0);

    // Jump to time: 10:04 is the third photo.
    await page.locator('#jump-time').fill('10:04');
    await page.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => page.locator(':focus').getAttribute('data-number')).toBe('3');
    expectClean(p);
    await p.close();
  }, 60_000);
});

describe('my photos', () => {
  test("an attendee gets a photo code on the phone; their page fills in as the photographer's frames of it arrive", async () => {
    const p = await openPage(browser, PHONE);
    const { page } = p;
    // From the home page: "Get your photo code", behind the CAPTCHA the checkout uses.
    await page.goto(`${server.url}/`);
    await page.locator('.code-callout a').click();
    await page.waitForURL('**/code');
    await page.locator('altcha-widget').waitFor();
    await page.getByRole('button', { name: 'Get my photo code' }).click();
    const codeText = page.locator('.code-text');
    await expect.poll(() => codeText.count(), { timeout: 30_000 }).toBe(1);
    const code = (await codeText.getAttribute('data-code')) as string;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(await codeText.textContent()).toBe(`${code.slice(0, 4)}-${code.slice(4)}`);
    await expectGoodLayout(page, 'photo code page');

    // The QR on the screen, as the camera sees it: it holds the attendee's page.
    const shot = await page.locator('.code-qr').screenshot();
    const { data, info } = await sharp(shot).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const [url] = await readQrTexts(data, info.width, info.height);
    expect(url).toBe(`http://photos.test/me/${code}`);

    // Kept on the device: a reload shows the same code.
    await page.reload();
    await expect.poll(() => page.locator('.code-text').getAttribute('data-code')).toBe(code);

    // "My photos", one tap away: issued, so known at once, with no photos yet.
    await page.getByRole('link', { name: 'My photos' }).click();
    await page.waitForURL(`**/me/${code}`);
    await expect.poll(() => page.locator('.notice').first().textContent()).toContain('No photos for this code yet');

    // The photographer shoots the attendee's QR (phone screen, a bit turned), then two photos.
    const root = path.join(server.dataDir, 'photos');
    const at = (s: string) => `2026:07:03 15:00:${s}`;
    await writePhoto(
      root,
      ['Live Con', 'Sat', 'Studio', 'IMG_200.jpg'],
      await makeFrame({
        payload: url as string,
        width: 1200,
        height: 800,
        qrFraction: 0.35,
        rotate: -12,
        contrast: 0.7,
        takenAt: at('00'),
        seed: 11,
      }),
    );
    for (const [i, s] of ['10', '20'].entries()) {
      await writePhoto(
        root,
        ['Live Con', 'Sat', 'Studio', `IMG_20${i + 1}.jpg`],
        await makeImage({ width: 300, height: 200, takenAt: at(s) }),
      );
    }
    await expect.poll(() => page.locator('.grid .tile').count(), { timeout: 30_000 }).toBe(2);
    // Written as on the code page and the cards.
    expect(await page.locator('main').textContent()).toContain(`Photo code ${code.slice(0, 4)}-${code.slice(4)}`);
    // The code frame itself is nowhere: not in the event either.
    const live = (await server.app.inject({ url: `/event/${encodeURIComponent('Live Con')}/Sat/Studio` })).json();
    expect(live.totalCount).toBe(2);
    expectClean(p);
    await p.close();
  }, 90_000);
});

describe('the photographer at intake', () => {
  test('a card copied in as a new event folder: the intake panel names the cut-off file; "Publish with these prices" opens it', async () => {
    const root = path.join(server.dataDir, 'photos');
    const event = 'Walk-in Con'; // no event.json: listed, not on sale
    const photo = await makeImage({ width: 300, height: 200, color: '#446688' });
    await writePhoto(root, [event, 'Sat', 'Hall', 'IMG_300.jpg'], photo);
    await writePhoto(root, [event, 'Sat', 'Hall', 'IMG_301.jpg'], photo);
    // The card pulled out mid-copy: the file ends before its end-of-image marker.
    await writePhoto(root, [event, 'Sat', 'Hall', 'IMG_302.jpg'], photo.subarray(0, photo.length - 40));
    await expect.poll(() => server.app.photos.getEvent(event)?.photoCount, { timeout: 15_000 }).toBe(2);

    const admin = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = admin.page;
    await a.goto(`${server.url}/admin/events`);
    const panel = a.locator('[data-intake]');
    await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('1 file could not be read');
    // Not "every photo is in the gallery" above a file that is not.
    await expect
      .poll(() => panel.getByRole('status').textContent())
      .toBe('Every other photo copied in is in the gallery.');
    expect(await panel.locator('.intake-broken li').allTextContents()).toEqual([
      expect.stringContaining(`${event}/Sat/Hall/IMG_302.jpg`),
    ]);

    const card = a.locator(`details[data-event="${event}"]`);
    // Told apart from an event the photographer closed: a new folder waiting to be published.
    await expect.poll(() => card.locator('.badge').textContent()).toBe('not on sale');
    await card.locator('summary').click();
    await expect.poll(() => card.locator('.notice').first().textContent()).toContain('Not on sale');
    const before = (await api(`/api/event-config?eventSlug=${encodeURIComponent(event)}`)).json();
    expect(before).toMatchObject({ orderingEnabled: false, active: false, closedReason: 'disabled' });

    await card.getByRole('button', { name: 'Publish with these prices' }).click();
    await expect.poll(() => a.locator('.toast').textContent()).toContain('open for orders');
    await expect.poll(() => card.locator('.badge').textContent()).toBe('open');
    expect(await card.getByRole('button', { name: 'Publish with these prices' }).count()).toBe(0);
    const after = (await api(`/api/event-config?eventSlug=${encodeURIComponent(event)}`)).json();
    expect(after).toMatchObject({ orderingEnabled: true, active: true, prices: before.prices });
    // The gallery sells it now.
    const listed = (await server.app.inject({ url: '/event' })).json() as {
      code: string;
      status: { active: boolean };
    }[];
    expect(listed.find((e) => e.code === event)?.status.active).toBe(true);
    expectClean(admin);
    await admin.close();
  }, 60_000);
});

describe('consent', () => {
  test('a takedown end to end: asked on a phone, gone from the gallery at once, removed from the dashboard in two taps', async () => {
    const root = path.join(server.dataDir, 'photos');
    const event = 'Consent Con';
    await writeEventJson(root, event, { name: 'Consent Con', prefix: 'CC', prices: { '4x6': 5 }, defaultSize: '4x6' });
    for (let i = 0; i < 3; i++) {
      const takenAt = `2026:07:04 11:0${i}:00`;
      await writePhoto(
        root,
        [event, 'Sat', 'Hall', `IMG_${300 + i}.jpg`],
        await makeImage({ width: 300, height: 200, takenAt }),
      );
    }
    await expect.poll(() => server.app.photos.getEvent(event)?.photoCount, { timeout: 15_000 }).toBe(3);
    const gallery = `${server.url}/event/${encodeURIComponent(event)}`;
    // An unpaid booth order holds photo #2 already.
    const booth = await api('/api/orders/create', {
      method: 'POST',
      body: { eventSlug: event, photos: ['2', '3'], customerInfo: { name: 'Grace Hopper', phone: '555-010-2000' } },
    });
    expect(booth.statusCode, booth.body).toBe(201);
    const held = booth.json().orderNumber as string;

    // ---- the attendee, on a phone: "Request removal" on photo #2
    const attendee = await openPage(browser, PHONE);
    const { page } = attendee;
    await page.goto(gallery);
    await expect.poll(() => page.locator('.grid .tile').count()).toBe(3);
    await page.locator('button[data-number="2"]').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).textContent()).toBe('Photo #2');
    await dialog.getByRole('button', { name: 'Request removal' }).click();
    const form = dialog.locator('form.takedown-form');
    await form.getByRole('radio', { name: /I am in this photo/ }).check();
    // A missing email is caught before anything is sent.
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('email');
    await form.getByLabel('Your email').fill('cosplayer@example.com');
    await form.getByLabel('Message (optional)').fill('That is me in the back, please take it down');
    await expectGoodLayout(page, 'takedown form');
    await form.getByRole('button', { name: 'Send request' }).click(); // the ALTCHA widget solves the challenge
    await expect
      .poll(() => dialog.getByRole('status').filter({ hasText: 'Thank you' }).textContent(), { timeout: 30_000 })
      .toContain('Your request for photo #2 was received');
    expect(await dialog.getByRole('status').filter({ hasText: 'Thank you' }).textContent()).toContain(
      'hidden from the gallery until we decide',
    );

    // Gone from the gallery at once (hide-first): the page loaded again lists 1 and 3.
    // Closing the viewer goes back in history (the photo's link): wait for that before leaving.
    await closeViewer(page);
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.url()).not.toContain('/photo/');
    await page.goto(gallery);
    await expect.poll(() => page.locator('.grid .tile').count()).toBe(2);
    const numbers = await page
      .locator('.grid .tile-open')
      .evaluateAll((list) => list.map((b) => b.getAttribute('data-number')));
    expect(numbers).toEqual(['1', '3']);
    expectClean(attendee);
    await attendee.close();

    // ---- the photographer, signed in on a phone: the Takedowns tab, then "Remove photo".
    const [open] = (await api('/api/takedowns?status=open')).json().takedowns as { id: string; eventSlug: string }[];
    expect(open).toMatchObject({ eventSlug: event, reason: 'me', email: 'cosplayer@example.com', hidden: true });
    // The business is set up (no "Before you sell" banner above the queue on the phone's screen).
    const setUp = await api('/api/settings', {
      method: 'PUT',
      body: {
        returnAddress: 'Jane Doe Photography\n9 Elm St\nSpringfield, IL 62701',
        publicBaseUrl: 'https://photos.jane-doe.net',
      },
    });
    expect(setUp.statusCode, setUp.body).toBe(200);
    expect(setUp.json().warnings).toEqual([]);
    const owner = await openPage(browser, PHONE, { init: adminInit() });
    const a = owner.page;
    await a.goto(`${server.url}/admin`);
    await a.locator('.admin-role').filter({ hasText: 'Role: owner' }).waitFor();
    let taps = 0;
    await a.getByRole('link', { name: 'Takedowns' }).click();
    taps++;
    const card = a.locator('.takedown').filter({ hasText: `Photo #2 · Consent Con` });
    await card.waitFor();
    expect(await card.textContent()).toContain('That is me in the back, please take it down');
    expect(await card.textContent()).toContain('Hidden from the gallery now.');
    await expect.poll(() => card.locator('img.takedown-thumb').count()).toBe(1); // the photo, fetched with the token
    await expectGoodLayout(a, 'takedown queue on a phone');
    // No scrolling: the decision is on the phone's first screen.
    const remove = card.getByRole('button', { name: 'Remove photo' });
    const box = await remove.boundingBox();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
    await remove.click();
    taps++;
    await expect.poll(() => a.locator('.toast').textContent()).toContain('Photo #2 removed.');
    expect(await a.locator('.toast').textContent()).toContain(`Unpaid orders to settle: ${held}`);
    expect(taps).toBe(2);
    await expect.poll(() => a.getByText('No open requests.').count()).toBe(1);

    // The unpaid order holding it is flagged for the photographer.
    await a.goto(`${server.url}/admin/orders/${held}`);
    await expect.poll(() => a.locator('.badges').textContent()).toContain('photo removed');
    expect(await a.locator('.notice-warn').first().textContent()).toContain('Photo #2 of this order was removed');

    const decided = (await api('/api/takedowns?status=decided')).json().takedowns as Record<string, unknown>[];
    expect(decided.find((d) => d.id === open?.id)).toMatchObject({
      status: 'decided',
      decision: 'remove',
      hidden: true,
    });
    const listed = (await server.app.inject({ url: `/event/${encodeURIComponent(event)}` })).json();
    expect(listed.totalCount).toBe(2);
    expectClean(owner);
    await owner.close();

    // A booth helper's dashboard shows the role, and not the Coupons or Takedowns tabs; Events
    // holds the intake panel and the photo code cards for them, not the event settings.
    const staff = await openPage(browser, PHONE, { init: adminInit(STAFF_TOKEN) });
    await staff.page.goto(`${server.url}/admin`);
    await staff.page.locator('.admin-role').filter({ hasText: 'Role: staff' }).waitFor();
    const tabs = await staff.page.locator('.admin-tabs a').allTextContents();
    expect(tabs).toEqual(['Orders', 'Print queue', 'Booth', 'Scan', 'Events', 'Sales']);
    await staff.page.goto(`${server.url}/admin/events`);
    await staff.page.locator('[data-intake]').waitFor();
    await staff.page.getByRole('heading', { name: 'Photo code cards' }).waitFor();
    await staff.page.locator('details.event-setting').first().waitFor();
    expect(await staff.page.locator('.event-form').count()).toBe(0);
    expectClean(staff);
    await staff.close();
  }, 120_000);
});
