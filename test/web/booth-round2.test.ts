/**
 * What a new attendee and a new photographer tripped over (docs/contract.md, "Fulfilment",
 * "Selling", "Business settings", "Roles", "Gallery"), in a real Chromium against the whole
 * service with the demo library:
 * - the attendee: a photo's own link (opening a photo puts it in the address bar, "back" closes
 *   it, a shared link opens it), then a digital-only purchase: no delivery to choose, no
 *   shipping or pickup line, the phone said to be required, the order page speaking of download
 *   links and saying how to pay; once the photographer marks it paid (no pickup buttons, no
 *   labels or print files for it), the download links;
 * - the photographer: the banner about the placeholder return address until it is saved, a
 *   helper's token made and revoked, what a staff token sees (no CSV export, no settings, no
 *   void or cancel), photo code cards printed with the form's own default count, and a booth
 *   line added at the event's default size.
 */
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/build.js';
import { DESKTOP, openPage, PHONE } from '../support/web-browser.js';
import { SET_UP_TIMEOUT_MS, startWebHarness, type WebHarness } from '../support/web-harness.js';
import { expectClean, expectGoodLayout } from '../support/web-layout.js';
import { adminInit, type WebServer } from '../support/web-server.js';

const HARBOR = 'Harbor Comic Con'; // demo event: 4x6 $5, 5x7 $10, 8x10 $20, prefix HCC

let harness: WebHarness;
let server: WebServer;
let browser: Browser;

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  harness = await startWebHarness();
  ({ server, browser } = harness);
  // Harbor sells digital files too ($8).
  const res = await server.app.inject({
    method: 'PUT',
    url: '/api/event-config',
    headers: admin,
    payload: { eventSlug: HARBOR, prices: { '4x6': 5, '5x7': 10, '8x10': 20, digital: 8 } },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
}, SET_UP_TIMEOUT_MS);

afterAll(() => harness?.close());

describe('the attendee', () => {
  test('a photo has a link (back closes it, a shared link opens it); a digital-only purchase has no delivery, says how to pay, and gives download links once paid', async () => {
    const customer = await openPage(browser, PHONE);
    const page = customer.page;
    const eventUrl = `${server.url}/event/${encodeURIComponent(HARBOR)}`;
    await page.goto(eventUrl);
    await page.locator('.tile-open[data-number="2"]').click();
    const viewer = page.getByRole('dialog', { name: 'Photo #2' });
    await viewer.waitFor();
    await page.waitForURL(`${eventUrl}/photo/2`);
    // The next photo replaces the link; "back" closes the viewer and leaves the event's page.
    await viewer.getByRole('button', { name: 'Next photo' }).click();
    await page.waitForURL(`${eventUrl}/photo/3`);
    await page.goBack();
    await page.waitForURL(eventUrl);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // A shared link opens the photo over its event; closing it leaves the event page.
    await page.goto(`${eventUrl}/photo/1`);
    const shared = page.getByRole('dialog', { name: 'Photo #1' });
    await shared.waitFor();
    await expectGoodLayout(page, 'a shared photo link');
    // As a digital file, into the cart.
    await shared.getByRole('radio', { name: /Digital file/ }).check();
    await shared.getByRole('button', { name: /^Add to cart · \$8\.00$/ }).click();
    await shared.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(eventUrl);

    await page.goto(`${server.url}/checkout`);
    await page.getByRole('button', { name: 'Place order · $8.00' }).waitFor();
    // Nothing to deliver: no choice, no address, no shipping or pickup line.
    expect(await page.getByRole('group', { name: 'Delivery' }).count()).toBe(0);
    expect(await page.locator('.totals').textContent()).not.toMatch(/Pickup at the booth|Shipping/);
    expect(await page.getByText('the download links come once the order is paid').count()).toBe(1);
    // The phone is required by the server, and the form says so.
    expect(await page.locator('label[for="c-phone"]').textContent()).toBe('Phone (required)');
    await page.fill('#c-name', 'Ada Lovelace');
    await page.fill('#c-email', 'ada@example.com');
    await page.fill('#c-phone', '+1 555 010 3030');
    await expectGoodLayout(page, 'checkout of a digital file');
    await page.getByRole('button', { name: 'Place order · $8.00' }).click();
    await page.waitForURL(/\/order\//, { timeout: 30_000 });
    const orderNumber = (await page.getByTestId('order-number').textContent())?.trim() ?? '';
    const stored = await server.app.store.orders.get(orderNumber);
    expect(stored).toMatchObject({ fulfillmentType: 'digital', pickupStatus: null, shippingFeeCents: 0 });

    // The order page: download links once paid, how to pay now; no QR code for the booth.
    const card = page.locator('.order-card');
    expect(await card.textContent()).toContain('digital files: download links');
    expect(await card.textContent()).not.toMatch(/shipped|pickup/);
    const instructions = page.getByTestId('payment-instructions');
    await instructions.waitFor();
    expect(await instructions.textContent()).toMatch(/How to pay.*booth/);
    expect(await page.getByTestId('order-status').textContent()).toContain('download links');
    expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    await expectGoodLayout(page, 'order page of an unpaid digital order');

    // The photographer: nothing to hand over, label or print; mark it paid.
    const owner = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = owner.page;
    await a.goto(`${server.url}/admin/orders/${orderNumber}`);
    await a.getByRole('button', { name: 'Mark paid' }).click();
    await a.getByRole('button', { name: 'Confirm: $8.00 received' }).click();
    await expect.poll(async () => (await server.app.store.orders.get(orderNumber))?.status).toBe('paid');
    await a.getByRole('heading', { name: 'Digital files' }).waitFor();
    for (const name of ['Ready for pickup', 'Collected', 'Label (PNG)', 'Label (DOCX)', 'Print files (ZIP)']) {
      expect(await a.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await a.locator('.badge', { hasText: 'digital files' }).count()).toBe(1);
    expectClean(owner);
    await owner.close();

    // Paid: the links, and nothing more to pay.
    await page.reload();
    const downloads = page.getByTestId('downloads');
    await downloads.waitFor();
    expect(await downloads.getByRole('link', { name: 'Download photo #1' }).count()).toBe(1);
    expect(await page.getByTestId('payment-instructions').count()).toBe(0);
    expectClean(customer);
    await customer.close();
  }, 180_000);
});

describe('the photographer', () => {
  test('the placeholder banner until the business is set; a helper’s token made, used as staff (what staff may not do is not shown) and revoked; code cards at their default count; booth lines at the default size', async () => {
    const owner = await openPage(browser, DESKTOP, { init: adminInit() });
    const a = owner.page;
    await a.goto(`${server.url}/admin`);
    const banner = a.getByRole('status').filter({ hasText: 'Before you sell' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('123 Main St');
    await banner.getByRole('link', { name: 'Set them in Settings' }).click();
    await a.waitForURL(`${server.url}/admin/settings`);
    await a.fill('#settings-returnAddress', 'Jane Doe Photography\n9 Elm St\nPortland, OR 97201');
    await a.fill('#settings-businessName', 'Jane Doe Photography');
    await a.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await server.app.businessSettings.get()).returnAddress).toContain('9 Elm St');
    await a.goto(`${server.url}/admin`);
    await a.getByRole('heading', { name: 'Orders' }).waitFor();
    expect(await a.getByText('Before you sell').count()).toBe(0);

    // A helper's token: shown once.
    await a.goto(`${server.url}/admin/settings`);
    await a.fill('#token-label', 'Ana at the booth');
    await a.getByRole('button', { name: 'Make a token' }).click();
    const token = ((await a.getByTestId('new-token').textContent()) ?? '').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expectGoodLayout(a, 'settings with a new token');

    // Ana signs in: staff sees neither the CSV export nor the settings, nor void or cancel.
    const pending = (
      await server.app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: admin,
        payload: { eventSlug: HARBOR, photos: ['4'], customerInfo: { name: 'Walk-in' } },
      })
    ).json().orderNumber as string;
    const staff = await openPage(browser, DESKTOP, { init: adminInit(token) });
    const s = staff.page;
    await s.goto(`${server.url}/admin?event=${encodeURIComponent(HARBOR)}`);
    await s.getByText('Role: staff').waitFor();
    await s.getByText('Labels and export').click();
    await s.getByRole('button', { name: 'Labels to ship (PDF)' }).waitFor();
    expect(await s.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    for (const tab of ['Settings', 'Coupons', 'Takedowns']) {
      expect(await s.getByRole('link', { name: tab, exact: true }).count(), tab).toBe(0);
    }
    expect(await s.getByText('Before you sell').count()).toBe(0);
    await s.goto(`${server.url}/admin/orders/${pending}`);
    await s.getByRole('button', { name: 'Mark paid' }).waitFor();
    for (const name of ['Cancel order', 'Void', 'Void (refund)']) {
      expect(await s.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    // The owner sees cancel explained, and no second, unexplained "Void" for an unpaid order.
    await a.goto(`${server.url}/admin/orders/${pending}`);
    await a.getByRole('button', { name: 'Cancel order' }).waitFor();
    expect(await a.getByRole('button', { name: 'Void', exact: true }).count()).toBe(0);
    expect(await a.getByText('Cancel an order that will not be paid').count()).toBe(1);
    expect(await a.getByRole('button', { name: 'Label (PNG)' }).count()).toBe(1);
    // Paid and then voided (refunded): it no longer goes out, so no labels and no print files.
    for (const status of ['paid', 'void']) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/orders/${pending}/update-status`,
        headers: admin,
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await a.reload();
    await a.locator('.badges', { hasText: 'void' }).waitFor();
    for (const name of ['Label (PNG)', 'Label (DOCX)', 'Print files (ZIP)', 'Void (refund)']) {
      expect(await a.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }

    // Revoked: Ana's next request is refused, and the dashboard says so.
    await a.goto(`${server.url}/admin/settings`);
    const row = a.locator('.token-list li', { hasText: 'Ana at the booth' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke Ana at the booth?' }).click();
    await expect.poll(() => a.locator('.token-list li', { hasText: 'Ana at the booth' }).count()).toBe(0);
    await s.goto(`${server.url}/admin`);
    await s.getByRole('heading', { name: 'Photographer sign-in' }).waitFor({ timeout: 30_000 });
    staff.errors.length = 0; // the refused requests' 401s are logged by the browser
    await staff.close();

    // Photo code cards: the form's default count (two sheets) is valid and prints.
    await a.goto(`${server.url}/admin/events`);
    const count = a.locator('#cards-count');
    expect(await count.inputValue()).toBe('20');
    expect(await count.evaluate((el) => (el as unknown as { checkValidity(): boolean }).checkValidity())).toBe(true);
    const [cards] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: 'Print photo code cards (PDF)' }).click(),
    ]);
    expect(cards.suggestedFilename()).toBe('photo-code-cards-20.pdf');
    expect((await readFile((await cards.path()) as string)).subarray(0, 5).toString()).toBe('%PDF-');

    // A booth line added after an 8x10 starts at the event's default size, 4x6.
    await a.goto(`${server.url}/admin/booth`);
    const sizes = a.locator('.booth-line select');
    await sizes.first().selectOption('8x10');
    await a.getByRole('button', { name: '+ Add a photo' }).click();
    await expect.poll(() => sizes.count()).toBe(2);
    expect(await sizes.nth(1).inputValue()).toBe('4x6');
    expect(await sizes.first().inputValue()).toBe('8x10');
    expectClean(owner);
    await owner.close();
  }, 180_000);
});
