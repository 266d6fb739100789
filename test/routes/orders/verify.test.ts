/**
 * High-value confirmation (docs/contract.md, "Notifications"), end to end: a held order, the
 * mail with the signed link, the page the link shows (the order and a button; opening it
 * confirms nothing), the button's POST that releases it into the pending list with the
 * receipt and the admin push, single use, forged and expired links, and the expiry job.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { appError } from '../../../src/errors/catalogue.js';
import { VERIFY_SECRET_FILE } from '../../../src/services/orders/plugin.js';
import { adminHeaders, build, type TestApp } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import {
  bodyA,
  bodyB,
  expectError,
  ORDER_TEST_ENV,
  ordersApp,
  outbox,
  PREFIX,
  solvedCaptcha,
} from '../../support/orders-fixtures.js';

const VERIFY = '/api/orders/verify';
/** Six 8x10 prints: $120.00, above the default $100.00 threshold. */
const bigPhotos = ['1', '2', '3', '4', '5', '6'].map((number) => ({ number, size: '8x10' }));

async function verificationLink(app: TestApp, orderNumber: string): Promise<string> {
  await app.notifier.flush();
  const mail = (await outbox(app.dataDir)).find((m) => m.name.includes(`-verification-${orderNumber}-`));
  const link = mail?.text.match(/http:\/\/photos\.test\/api\/orders\/verify\?token=[A-Za-z0-9._-]+/)?.[0];
  if (!link) throw new Error(`no confirmation link for ${orderNumber}`);
  return link;
}

/** The path and query of an absolute link, for inject. */
const local = (link: string) => link.replace('http://photos.test', '');

function page(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  const code = /<main data-code="([A-Z_]+)">/.exec(res.body)?.[1];
  return { status: res.statusCode, code, html: res.body };
}

/** Opens the link (GET): what a person, or a mail scanner, gets. */
async function open(app: TestApp, url: string) {
  const res = await app.inject({ url });
  expectMatchesOpenApi('GET', url, res);
  return page(res);
}

/** Presses the page's button: the form POST with the link's token. */
async function confirm(app: TestApp, url: string) {
  const token = new URL(url, 'http://x').searchParams.get('token') ?? '';
  const res = await app.inject({
    method: 'POST',
    url: VERIFY,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
  expectMatchesOpenApi('POST', VERIFY, res);
  return page(res);
}

async function pendingNumbers(app: TestApp): Promise<string[]> {
  const res = await app.inject({ url: '/api/orders/pending', headers: adminHeaders });
  return res.json().map((o: { orderNumber: string }) => o.orderNumber);
}

describe('high-value orders', () => {
  test('held until the mailed link is followed; then pending, receipt and admin push; the link works once', async (t) => {
    const app = await ordersApp(t);
    const pushed = vi.spyOn(app.push, 'notifyOrder');
    const before = Date.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      payload: bodyA({ photos: bigPhotos, captchaToken: await solvedCaptcha(app) }),
    });
    expect(res.statusCode).toBe(201);
    expectMatchesOpenApi('POST', '/api/orders/create', res);
    const number = `${PREFIX}-0001`;
    expect(res.json()).toMatchObject({
      orderNumber: number,
      status: 'pending',
      total: '$120.00',
      verificationRequired: true,
      message: expect.stringContaining('follow the link'),
    });

    const held = await app.store.orders.get(number);
    expect(held).toMatchObject({ held: true, status: 'pending', channel: 'web' });
    const expires = Date.parse(held?.holdExpiresAt ?? '');
    expect(expires % 1000).toBe(0);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 48 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 48 * 3_600_000);
    // Not in the admin lists, no receipt, no admin push.
    expect(await pendingNumbers(app)).toEqual([]);
    expect(pushed).not.toHaveBeenCalled();

    const link = await verificationLink(app, number);
    const mailed = await outbox(app.dataDir);
    expect(mailed.map((m) => [m.subject.includes(number), m.to, m.name.includes('-verification-')])).toEqual([
      [true, ['ada@example.com'], true],
    ]);
    expect(link).toMatch(/^http:\/\/photos\.test\/api\/orders\/verify\?token=[0-9a-f-]{36}\.\d+\.[\w-]{43}$/);

    // Opening the link shows the order and a button, and changes nothing.
    const shown = await open(app, local(link));
    expect(shown).toMatchObject({ status: 200, code: 'AWAITING_CONFIRMATION' });
    expect(shown.html).toContain(number);
    expect(shown.html).toContain('$120.00');
    expect(shown.html).toContain('Photo #6 (8x10) x1');
    expect(shown.html).toContain(`<form method="post" action="${VERIFY}">`);
    expect(shown.html).toContain(`name="token" value="${new URL(link).searchParams.get('token')}"`);
    // A way on: the shop's name leads home, the order page and the event's photos are linked.
    expect(shown.html).toContain('<header><a href="/">Convention Photos</a></header>');
    expect(shown.html).toContain(`href="/order/${number}"`);
    expect(shown.html).toContain(`href="/event/${encodeURIComponent((held?.eventSlug ?? '') as string)}"`);
    expect((await app.store.orders.get(number))?.held).toBe(true);
    expect(await pendingNumbers(app)).toEqual([]);

    const confirmed = await confirm(app, local(link));
    expect(confirmed).toMatchObject({ status: 200, code: 'CONFIRMED' });
    expect(confirmed.html).toContain(`href="/order/${number}"`);
    expect(confirmed.html).toContain(number);
    expect(confirmed.html).toContain('$120.00');
    expect(await pendingNumbers(app)).toEqual([number]);
    expect(await app.store.orders.get(number)).toMatchObject({ held: false, holdExpiresAt: null, status: 'pending' });
    expect(pushed).toHaveBeenCalledTimes(1);
    expect(pushed).toHaveBeenCalledWith('created', expect.objectContaining({ orderNumber: number, held: false }));
    await app.notifier.flush();
    const receipts = () => outbox(app.dataDir).then((m) => m.filter((x) => x.name.includes('-receipt-')));
    expect((await receipts()).map((m) => m.attachments)).toEqual([[`label-${number}.png`, `label-${number}.docx`]]);

    // Single use: the second click finds it confirmed; nothing is sent again.
    const again = await confirm(app, local(link));
    expect(again).toMatchObject({ status: 200, code: 'ALREADY_CONFIRMED' });
    expect(again.html).toContain(number);
    expect(await open(app, local(link))).toMatchObject({ status: 200, code: 'ALREADY_CONFIRMED' });
    await app.notifier.flush();
    expect(await receipts()).toHaveLength(1);
    expect(pushed).toHaveBeenCalledTimes(1);
  });

  test('forged, altered or incomplete links: 403 page VERIFICATION_FAILED, nothing released', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    const link = local(await verificationLink(app, res.json().orderNumber));
    const token = link.split('token=')[1] as string;
    const [id, exp, mac] = token.split('.') as [string, string, string];
    const later = String(Number(exp) + 7 * 86_400);
    const forgedMac = `${mac.slice(0, 5)}${mac[5] === 'x' ? 'y' : 'x'}${mac.slice(6)}`;
    const someoneElse = app.orderIntake.links.token(
      '0a9b1ad8-7d11-43f1-8ec3-9c9883b1bf79',
      new Date(Number(exp) * 1000),
    );
    for (const url of [
      `${VERIFY}?token=${id}.${exp}.${forgedMac}`,
      `${VERIFY}?token=${id}.${later}.${mac}`,
      `${VERIFY}?token=${token.slice(0, -3)}`,
      `${VERIFY}?token=`,
      VERIFY,
      `${VERIFY}?token=%3Cscript%3E`,
    ]) {
      const shown = await open(app, url);
      expect(shown, url).toMatchObject({ status: 403, code: 'VERIFICATION_FAILED' });
      expect(shown.html).not.toContain('<script>');
      expect(await confirm(app, url), url).toMatchObject({ status: 403, code: 'VERIFICATION_FAILED' });
    }
    // Validly signed for an order that does not exist: it cannot be confirmed.
    expect(await open(app, `${VERIFY}?token=${someoneElse}`)).toMatchObject({ status: 410 });
    expect(await confirm(app, `${VERIFY}?token=${someoneElse}`)).toMatchObject({ status: 410 });
    expect((await app.store.orders.get(res.json().orderNumber))?.held).toBe(true);
    // A HEAD (link checkers, previews) confirms nothing.
    expect((await app.inject({ method: 'HEAD', url: link })).statusCode).not.toBe(200);
    expect((await app.store.orders.get(res.json().orderNumber))?.held).toBe(true);
  });

  test('an expired link: 410 page, and the expiry job cancels the order', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: bodyB({ items: 'Photo #1 (8x10) x5', subtotal: '$100.00', total: '$105.00' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ verificationRequired: true, total: '$105.00' });
    const number = res.json().orderNumber;
    const link = local(await verificationLink(app, number));

    // The job leaves a hold that has not lapsed alone.
    expect(await app.orderIntake.expireHolds()).toEqual([]);

    vi.useFakeTimers({ toFake: ['Date'] });
    t.onTestFinished(() => {
      vi.useRealTimers();
    });
    vi.setSystemTime(Date.now() + 48 * 3_600_000 + 1000);
    const expired = await confirm(app, local(link));
    expect(expired).toMatchObject({ status: 410, code: 'VERIFICATION_EXPIRED' });
    expect(await open(app, local(link))).toMatchObject({ status: 410, code: 'VERIFICATION_EXPIRED' });
    // The page alone changes nothing; the job cancels it.
    expect((await app.store.orders.get(number))?.held).toBe(true);
    const cancelled = await app.orderIntake.expireHolds();
    expect(cancelled.map((o) => [o.orderNumber, o.status])).toEqual([[number, 'cancelled']]);
    const list = await app.inject({ url: '/api/orders/cancelled', headers: adminHeaders });
    expect(list.json().map((o: { orderNumber: string }) => o.orderNumber)).toEqual([number]);
    const after = await open(app, local(link));
    expect(after).toMatchObject({ status: 410, code: 'VERIFICATION_EXPIRED' });
    expect(after.html).toContain(number);
    expect(await pendingNumbers(app)).toEqual([]);
  });

  test('a held order cancelled before confirmation cannot be confirmed (409 page)', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    const number = res.json().orderNumber;
    const link = local(await verificationLink(app, number));
    await app.store.orders.update(number, { status: 'cancelled' }, { by: 'admin' });
    expect(await open(app, link)).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
    expect(await confirm(app, link)).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
    expect((await app.store.orders.get(number))?.held).toBe(true);
  });

  test('concurrent clicks confirm once: one CONFIRMED, the rest ALREADY_CONFIRMED, one receipt', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    const link = local(await verificationLink(app, res.json().orderNumber));
    const pages = await Promise.all(Array.from({ length: 5 }, () => confirm(app, link)));
    const codes = pages.map((p) => p.code).sort();
    expect(codes).toEqual([
      'ALREADY_CONFIRMED',
      'ALREADY_CONFIRMED',
      'ALREADY_CONFIRMED',
      'ALREADY_CONFIRMED',
      'CONFIRMED',
    ]);
    await app.notifier.flush();
    expect((await outbox(app.dataDir)).filter((m) => m.name.includes('-receipt-'))).toHaveLength(1);
  });

  test('opening the link any number of times (a mail scanner, a preview) confirms nothing', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    const number = res.json().orderNumber;
    const link = local(await verificationLink(app, number));
    for (let i = 0; i < 3; i++) {
      expect(await open(app, link)).toMatchObject({ status: 200, code: 'AWAITING_CONFIRMATION' });
    }
    expect((await app.store.orders.get(number))?.held).toBe(true);
    await app.notifier.flush();
    expect((await outbox(app.dataDir)).filter((m) => m.name.includes('-receipt-'))).toEqual([]);
    // The button's POST with no token, or another content type, is refused without a change.
    const refused = [
      ['application/x-www-form-urlencoded', '', 400, 'VALIDATION_FAILED'],
      ['text/plain', 'x', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ] as const;
    for (const [type, payload, status, code] of refused) {
      const res = await app.inject({ method: 'POST', url: VERIFY, headers: { 'content-type': type }, payload });
      expectError(res, 'POST', VERIFY, status, code);
    }
    expect((await app.store.orders.get(number))?.held).toBe(true);
  });

  test('the held order and its confirmation mail are stored together: the mail names the order and signs its id', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const createOrder = vi.spyOn(app.store.orders, 'create');
    const enqueueMail = vi.spyOn(app.store.outbox, 'enqueue');
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    expect(res.json()).toMatchObject({ orderNumber: `${PREFIX}-0001`, verificationRequired: true });
    const order = await app.store.orders.get(`${PREFIX}-0001`);
    // One store call, with the mail; nothing enqueued on its own.
    expect(createOrder).toHaveBeenCalledTimes(1);
    expect(enqueueMail).not.toHaveBeenCalled();
    const [input, opts] = createOrder.mock.calls[0] ?? [];
    expect(input?.id).toBe(order?.id);
    expect(opts?.mail).toEqual([
      {
        kind: 'verification',
        orderId: order?.id,
        payload: { verifyUrl: expect.stringContaining(`token=${order?.id}.`) },
      },
    ]);
    expect(await app.store.outbox.pendingCount()).toBe(1);
    expect(await verificationLink(app, `${PREFIX}-0001`)).toContain(`token=${order?.id}.`);
  });

  test('when the order cannot be stored, neither it nor its mail exists and the retry succeeds', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const createOrder = vi
      .spyOn(app.store.orders, 'create')
      .mockRejectedValueOnce(appError('STORE_UNAVAILABLE', { details: 'disk on fire' }));
    const headers = { 'idempotency-key': 'held-order-1' };
    const payload = bodyA({ photos: bigPhotos });
    const failed = await app.inject({ method: 'POST', url: '/api/orders/create', headers, payload });
    expectError(failed, 'POST', '/api/orders/create', 503, 'STORE_UNAVAILABLE');
    expect(await app.store.orders.list({ includeHeld: true })).toEqual([]);
    expect(await app.store.outbox.pendingCount()).toBe(0);

    // The key was released: the retry makes the order, with a new id (and the first number).
    const retry = await app.inject({ method: 'POST', url: '/api/orders/create', headers, payload });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ orderNumber: `${PREFIX}-0001`, verificationRequired: true });
    expect(createOrder.mock.calls[1]?.[0].id).not.toBe(createOrder.mock.calls[0]?.[0].id);
    expect(await verificationLink(app, `${PREFIX}-0001`)).toContain('token=');
  });

  test('the threshold is inclusive and configurable; booth orders are never held', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off', HIGH_VALUE_THRESHOLD: '50.00' } });
    const at = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA() }); // $50.00
    expect(at.json()).toMatchObject({ total: '$50.00', verificationRequired: true });
    const below = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      payload: bodyA({ photos: ['1', '2', { number: '3', size: '8x10' }, { number: '4', size: '5x7' }] }), // $40
    });
    expect(below.json()).toMatchObject({ total: '$40.00', verificationRequired: false });
    const booth = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      headers: adminHeaders,
      payload: bodyA({ photos: bigPhotos }),
    });
    expect(booth.json()).toMatchObject({ total: '$120.00', verificationRequired: false });
    expect(await pendingNumbers(app)).toEqual([booth.json().orderNumber, below.json().orderNumber]);
  });

  test('the confirmation page escapes what the customer typed', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({
      method: 'POST',
      url: '/api/orders/create',
      payload: bodyA({
        photos: bigPhotos,
        customerInfo: { name: '<img src=x onerror=alert(1)> & "Bobby"', email: 'bobby@example.com' },
      }),
    });
    const link = local(await verificationLink(app, res.json().orderNumber));
    expect((await open(app, link)).html).not.toContain('<img');
    const page = await confirm(app, link);
    expect(page.code).toBe('CONFIRMED');
    expect(page.html).not.toContain('<img');
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Bobby&quot;');
  });

  test('round 2: a held order takes no coupon use until confirmed; used up meanwhile: 409 COUPON_INVALID, still held', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const created = await app.inject({
      method: 'POST',
      url: '/api/coupons',
      headers: adminHeaders,
      payload: { code: 'TWOUSES', kind: 'amount', value: 1, maxUses: 2 },
    });
    expect(created.statusCode).toBe(201);
    const uses = async () =>
      (await app.inject({ url: '/api/coupons', headers: adminHeaders }))
        .json()
        .coupons.find((c: { code: string }) => c.code === 'TWOUSES').uses as number;
    const held = async (email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        payload: bodyA({ photos: bigPhotos, couponCode: 'twouses', customerInfo: { name: 'Throwaway', email } }),
      });
      expect(res.json()).toMatchObject({ verificationRequired: true, total: '$119.00' });
      return res.json().orderNumber as string;
    };
    // Two unconfirmed $119 orders from throwaway addresses: the coupon is not used up by them.
    const first = await held('x1@example.com');
    const second = await held('x2@example.com');
    expect(await uses()).toBe(0);
    // Two real orders take both uses meanwhile.
    const booth = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders/create',
        headers: adminHeaders,
        payload: bodyA({ couponCode: 'TWOUSES' }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().orderNumber as string;
    };
    const a = await booth();
    await booth();
    expect(await uses()).toBe(2);

    // Confirming now: the use can't be claimed. 409 COUPON_INVALID, the order stays held, and
    // the page offers to try again with the same link.
    const link = local(await verificationLink(app, first));
    const refused = await confirm(app, link);
    expect(refused).toMatchObject({ status: 409, code: 'COUPON_INVALID' });
    expect(refused.html).toContain('TWOUSES');
    expect(refused.html).toContain(`name="token" value="${new URL(link, 'http://x').searchParams.get('token')}"`);
    expect(await app.store.orders.get(first)).toMatchObject({ held: true, status: 'pending' });
    expect(await pendingNumbers(app)).not.toContain(first);
    expect(await uses()).toBe(2);

    // A use comes back (an order cancelled): the same link confirms, and takes it.
    await app.inject({
      method: 'PUT',
      url: `/api/orders/${a}`,
      headers: adminHeaders,
      payload: { status: 'cancelled' },
    });
    expect(await uses()).toBe(1);
    expect(await confirm(app, link)).toMatchObject({ status: 200, code: 'CONFIRMED' });
    expect(await uses()).toBe(2);
    expect(await pendingNumbers(app)).toContain(first);
    // Cancelling a confirmed order gives its use back, as for any order.
    await app.inject({
      method: 'PUT',
      url: `/api/orders/${first}`,
      headers: adminHeaders,
      payload: { status: 'cancelled' },
    });
    expect(await uses()).toBe(1);

    // A hold that lapses gives nothing back: it never took anything.
    vi.useFakeTimers({ toFake: ['Date'] });
    t.onTestFinished(() => {
      vi.useRealTimers();
    });
    vi.setSystemTime(Date.now() + 48 * 3_600_000 + 1000);
    expect((await app.orderIntake.expireHolds()).map((o) => o.orderNumber)).toEqual([second]);
    expect(await uses()).toBe(1);
  });

  test('a generated link secret is kept under DATA_DIR (0600): links survive a restart', async (t) => {
    const app = await ordersApp(t, { env: { CAPTCHA_PROVIDER: 'off' } });
    const res = await app.inject({ method: 'POST', url: '/api/orders/create', payload: bodyA({ photos: bigPhotos }) });
    const link = local(await verificationLink(app, res.json().orderNumber));
    const file = path.join(app.dataDir, VERIFY_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await app.close();
    const again = await build(t, { dataDir: app.dataDir, env: { ...ORDER_TEST_ENV, CAPTCHA_PROVIDER: 'off' } });
    expect(await confirm(again, link)).toMatchObject({ status: 200, code: 'CONFIRMED' });
    await again.close();

    // With VERIFY_LINK_SECRET set, that secret signs (the stored one is not used).
    const configured = await build(t, {
      dataDir: app.dataDir,
      env: { ...ORDER_TEST_ENV, VERIFY_LINK_SECRET: 'configured-link-secret-0123456789' },
    });
    expect(await open(configured, link)).toMatchObject({ status: 403, code: 'VERIFICATION_FAILED' });
  });
});
