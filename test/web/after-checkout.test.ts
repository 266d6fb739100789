/**
 * What a customer and the photographer meet after the checkout, in a real Chromium against the
 * whole service (the demo library, the app built from the current sources): the confirmation
 * link of a large order (a page with a button; opening it confirms nothing), the order page
 * once the hold is gone, finding an order from the home page, booth orders for events closed
 * online and without an email, ordering deadlines in words, and favourites under the event's
 * name.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Challenge } from 'altcha-lib';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/build.js';
import { altchaToken } from '../support/captcha-altcha.js';
import { makeImage, writeEventJson, writePhoto } from '../support/photos-fixtures.js';
import { waitUntil } from '../support/wait.js';
import { DESKTOP, openPage, PHONE } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS, startWebHarness, type WebHarness } from '../support/web-harness.js';
import { adminInit, type WebServer } from '../support/web-server.js';

const HARBOR = 'Harbor Comic Con'; // demo event: 8x10 $20, prefix HCC
const MATSURI = 'Spring Matsuri';

let harness: WebHarness;
let server: WebServer;
let browser: Browser;

beforeAll(async () => {
  harness = await startWebHarness();
  ({ server, browser } = harness);
}, SET_UP_TIMEOUT_MS);

afterAll(() => harness?.close());

const api = (url: string, init: { method?: string; body?: unknown; admin?: boolean } = {}) =>
  server.app.inject({
    method: (init.method ?? 'GET') as 'GET',
    url,
    headers: {
      'content-type': 'application/json',
      ...(init.admin === false ? {} : { authorization: `Bearer ${ADMIN_TOKEN}` }),
    },
    ...(init.body === undefined ? {} : { payload: JSON.stringify(init.body) }),
  });

/** A web order placed as the checkout places it: with a solved ALTCHA, no admin token. */
async function webOrder(
  body: Record<string, unknown>,
): Promise<{ orderNumber: string; verificationRequired: boolean }> {
  const challenge = (await api('/api/captcha/challenge', { admin: false })).json() as Challenge;
  const res = await api('/api/orders/create', {
    method: 'POST',
    admin: false,
    body: { ...body, captchaToken: await altchaToken(challenge) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** An order as the device that placed it remembers it (what the checkout stores). */
type RememberedOrder = {
  orderNumber: string;
  email: string;
  total: string;
  items: string;
  fulfillmentType: 'ship' | 'pickup';
  verificationRequired: boolean;
};

/** The init script of a page on that device: its remembered orders in localStorage, as the checkout keeps them. */
function rememberedOn(orders: RememberedOrder[]): string {
  const all = Object.fromEntries(
    orders.map((o) => [o.orderNumber, { ...o, event: HARBOR, eventName: HARBOR, createdAt: new Date().toISOString() }]),
  );
  return `localStorage.setItem('cps.orders.v1', ${JSON.stringify(JSON.stringify(all))});`;
}

/** The confirmation link of a held order, from its mail in DATA_DIR/outbox, on this server. */
async function confirmationLink(orderNumber: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  let link = '';
  // However long the mail takes; one that never comes fails on the test's timeout.
  await waitUntil(async () => {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) =>
      f.includes(`-verification-${orderNumber}-`),
    );
    if (!files[0]) return false;
    const mail = await simpleParser(await readFile(path.join(outbox, files[0])));
    link = /https?:\/\/\S*\/api\/orders\/verify\?token=\S+/.exec(mail.text ?? '')?.[0] ?? '';
    return link !== '';
  }, `a confirmation mail for ${orderNumber}`);
  return server.url + new URL(link).pathname + new URL(link).search;
}

describe('after the checkout', () => {
  test('a large order: the link shows it with a button, the button confirms, and the order page stops saying "held"', async () => {
    const placed = await webOrder({
      eventSlug: HARBOR,
      photos: [{ number: '1', size: '8x10', quantity: 6 }], // $120.00 + $5.00 shipping: held
      customerInfo: { name: 'Grace Hopper', email: 'grace@example.com' },
      shippingAddress: { line1: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    });
    expect(placed.verificationRequired).toBe(true);
    const n = placed.orderNumber;
    // The device that placed it remembers it as the checkout does.
    const customer = await openPage(browser, PHONE, {
      init: rememberedOn([
        {
          orderNumber: n,
          email: 'grace@example.com',
          total: '$125.00',
          items: 'Photo #1 (8x10) x6 = $120.00',
          fulfillmentType: 'ship',
          verificationRequired: true,
        },
      ]),
    });
    const { page } = customer;
    await page.goto(`${server.url}/order/${n}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Almost done: check your email');
    expect(await page.locator('main').textContent()).toContain('held until you open that link');

    // The link from the mail: the order and a button, a way home; nothing is confirmed yet.
    await page.goto(await confirmationLink(n));
    expect(await page.locator('h1').textContent()).toBe('Confirm your order');
    expect(await page.locator('main').textContent()).toContain('Photo #1 (8x10) x6');
    expect(await page.locator('header a').getAttribute('href')).toBe('/');
    expect((await api(`/api/orders/${n}`)).json().verificationRequired).toBe(true);
    await page.getByRole('button', { name: 'Confirm my order' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Order confirmed');
    expect((await api(`/api/orders/${n}`)).json().verificationRequired).toBe(false);

    // From there to the order page, which shows the order as it is now.
    await page.getByRole('link', { name: `See order ${n}` }).click();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toContain('Waiting for payment');
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order!');
    expect(await page.locator('main').textContent()).not.toContain('held until');

    // Paid and shipped later: no stale "check your email" and no "receipt on its way" above "Shipped".
    expect((await api(`/api/orders/${n}/update-status`, { method: 'POST', body: { status: 'paid' } })).statusCode).toBe(
      200,
    );
    const shipped = await api(`/api/orders/${n}/update-shipping`, {
      method: 'POST',
      body: { shipped: true, printAll: true },
    });
    expect(shipped.statusCode).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toContain('Shipped');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain('check your email');
    expect(text).not.toContain('held until');
    expect(text).not.toContain('A receipt is on its way');
    expect(customer.errors).toEqual([]);
    await customer.close();
  }, 90_000);

  test('the offer of notifications on the order page names them: paid or shipped, paid or ready for pickup', async () => {
    const remembered: RememberedOrder[] = [];
    const placed: Record<'ship' | 'pickup', string> = { ship: '', pickup: '' };
    for (const kind of ['ship', 'pickup'] as const) {
      const { orderNumber } = await webOrder({
        eventSlug: HARBOR,
        photos: ['5'],
        customerInfo: { name: 'Mary Jackson', email: 'mary@example.com' },
        ...(kind === 'ship'
          ? { shippingAddress: { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' } }
          : {}),
      });
      placed[kind] = orderNumber;
      // The device that placed it remembers it as the checkout does.
      remembered.push({
        orderNumber,
        email: 'mary@example.com',
        total: kind === 'ship' ? '$10.00' : '$5.00',
        items: 'Photo #5 (4x6) x1 = $5.00',
        fulfillmentType: kind,
        verificationRequired: false,
      });
    }
    const customer = await openPage(browser, PHONE, { init: rememberedOn(remembered) });
    const { page } = customer;
    const offer = page.locator('section[aria-labelledby="push-title"] p');
    await page.goto(`${server.url}/order/${placed.ship}`);
    await expect.poll(() => offer.textContent()).toBe('Get a notification when your order is paid or ships.');
    await page.goto(`${server.url}/order/${placed.pickup}`);
    await expect
      .poll(() => offer.textContent())
      .toBe('Get a notification when your order is paid or ready for pickup.');
    expect(customer.errors).toEqual([]);
    await customer.close();
  }, 60_000);

  test('"Find your order" on the home page: order number and email lead to its status', async () => {
    const placed = await webOrder({
      eventSlug: HARBOR,
      photos: ['2'],
      customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    const p = await openPage(browser, PHONE);
    const { page } = p;
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Find your order' }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/order`);
    await page.fill('#find-order-number', placed.orderNumber.toLowerCase());
    await page.fill('#lookup-email', 'nobody@example.com');
    await page.getByRole('button', { name: 'Find my order' }).click();
    await expect.poll(() => page.locator('#lookup-error').textContent()).toContain('could not find order');
    p.errors.length = 0; // the refused lookup's 404 is logged by the browser
    await page.fill('#lookup-email', 'ada@example.com');
    await page.getByRole('button', { name: 'Find my order' }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/order/${placed.orderNumber}`);
    await expect.poll(() => page.getByTestId('order-status').textContent()).toContain('Waiting for payment');
    expect(p.errors).toEqual([]);
    await p.close();
  }, 60_000);

  test('booth: every event not archived, closed online or not; the email optional; worded for the photographer', async () => {
    await api('/api/event-config', { method: 'PUT', body: { eventSlug: MATSURI, orderingEnabled: false } });
    const admin = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = admin.page;
    await a.goto(`${server.url}/admin/booth`);
    const select = a.locator('#booth-event');
    await select.waitFor();
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual([expect.stringMatching(/^Harbor Comic Con/), expect.stringMatching(/^Spring Matsuri/)]);
    expect(options[0]).not.toContain('closed');
    expect(options[1]).toMatch(/ \(closed online\)$/);
    await select.selectOption(MATSURI);
    await a.locator('.booth-line').first().waitFor();
    const form = (await a.locator('form.booth').textContent()) ?? '';
    expect(form).toContain('Customer');
    expect(form).toContain('Ship to the customer');
    expect(form).not.toContain('Your details');
    expect(form).not.toContain('Ship to me');
    await a.locator('.booth-line input[inputmode="numeric"]').first().fill('3');
    await a.fill('#booth-name', 'Walk-in Visitor');
    await a.getByRole('button', { name: 'Place booth order' }).click();
    const done = a.locator('.notice-ok');
    await expect.poll(() => done.textContent()).toContain('No email was given, so no receipt is sent.');
    const said = (await done.textContent()) ?? '';
    expect(said.split('is placed').length - 1).toBe(1);
    const number = /[A-Z]+-\d{4}/.exec(said)?.[0] ?? '';
    expect((await api(`/api/orders/${number}`)).json()).toMatchObject({
      eventSlug: MATSURI,
      customerEmail: '',
      channel: 'booth',
    });
    expect(admin.errors).toEqual([]);
    await admin.close();
    await api('/api/event-config', { method: 'PUT', body: { eventSlug: MATSURI, orderingEnabled: true } });
  }, 60_000);

  test('a deadline at midnight reads as the end of the day before; another time, as date and time', async () => {
    const set = (deadline: string) =>
      api('/api/event-config', { method: 'PUT', body: { eventSlug: HARBOR, deadline } });
    const p = await openPage(browser, DESKTOP, { timezoneId: 'UTC', locale: 'en-US' });
    const badge = p.page.locator('.event-card', { hasText: HARBOR }).locator('.badge');
    await set('2099-08-01T00:00:00.000Z');
    await p.page.goto(`${server.url}/`);
    await expect.poll(() => badge.textContent()).toBe('Ordering open until the end of Jul 31, 2099');
    await set('2099-08-01T18:30:00.000Z');
    await p.page.reload();
    await expect.poll(() => badge.textContent()).toBe('Ordering open until Aug 1, 2099, 6:30 PM');
    expect(p.errors).toEqual([]);
    await p.close();
  }, 60_000);

  test("favourites are listed under the event's name, not its folder's", async () => {
    const photos = path.join(server.dataDir, 'photos');
    await writeEventJson(photos, 'expo-2026', { name: 'Summer Expo 2026', prefix: 'SX26' });
    await writePhoto(photos, ['expo-2026', 'Day 1', 'Morning', 'a.jpg'], await makeImage({ width: 600, height: 400 }));
    // The event is listed as soon as its folder is; its photo only after the intake has looked
    // at it (docs/contract.md, "Finding one's photos, and intake"): wait for the photo.
    const listed = async () => {
      const res = await api('/event/expo-2026');
      return res.statusCode === 200 && (res.json() as { photos: unknown[] }).photos.length > 0;
    };
    await waitUntil(listed, 'the new photo to be listed');
    const p = await openPage(browser, PHONE);
    await p.page.goto(`${server.url}/event/expo-2026`);
    await p.page.getByRole('button', { name: 'Favourite photo #1' }).click();
    await p.page.goto(`${server.url}/favorites`);
    await expect.poll(() => p.page.locator('main h2').first().textContent()).toBe('Summer Expo 2026');
    expect(p.errors).toEqual([]);
    await p.close();
  }, 60_000);
});
