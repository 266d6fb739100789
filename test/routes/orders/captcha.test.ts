/**
 * Who may submit (docs/contract.md, "Orders" and "CAPTCHA"), on both routes: a CAPTCHA token (ALTCHA solved for real) or
 * admin credentials. Forged, expired and replayed tokens are refused; a mistake the customer
 * can correct against public information (the event, its photos and price list) never spends
 * the solved CAPTCHA; the CAPTCHA is verified before the address check and the coupon check
 * (round 2: junk tokens cost no paid look-up and tell nothing about coupons).
 */
import { describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, adminHeaders } from '../../helpers/build.js';
import { SMARTY_AUTH, startSmartyStub } from '../../support/address-stubs.js';
import { altchaToken, encodeAltcha, makeChallenge, solveAltcha } from '../../support/captcha-altcha.js';
import {
  bodyA,
  bodyB,
  EVENT,
  expectError,
  GOOD_ADDRESS,
  ordersApp,
  solvedCaptcha,
} from '../../support/orders-fixtures.js';

const HMAC_KEY = 'orders-test-altcha-hmac-key-0123456789';
const routes = [
  { url: '/api/orders/create', body: bodyA },
  { url: '/api/orders', body: bodyB },
] as const;

describe('CAPTCHA on order submission', () => {
  for (const { url, body } of routes) {
    test(`${url}: missing 400, forged/expired/replayed 403, header or body accepted once`, async (t) => {
      const app = await ordersApp(t, { env: { ALTCHA_HMAC_KEY: HMAC_KEY } });
      const post = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
        app.inject({ method: 'POST', url, payload, headers });

      expectError(await post(body()), 'POST', url, 400, 'CAPTCHA_REQUIRED');
      expectError(await post(body({ captchaToken: '' })), 'POST', url, 400, 'CAPTCHA_REQUIRED');

      // Forged: a solved challenge whose parameters were changed after signing.
      const solved = await solveAltcha((await app.inject({ url: '/api/captcha/challenge' })).json());
      const forged = encodeAltcha({
        ...solved,
        challenge: { ...solved.challenge, parameters: { ...solved.challenge.parameters, cost: 2 } },
      });
      expectError(await post(body({ captchaToken: forged })), 'POST', url, 403, 'CAPTCHA_FAILED');
      // Signed with another key.
      const foreign = await altchaToken(await makeChallenge('some-other-key-0123456789abcdef', { counter: 50 }));
      expectError(await post(body({ captchaToken: foreign })), 'POST', url, 403, 'CAPTCHA_FAILED');
      // Expired: signed with the app's key, but its time is up.
      const expired = await altchaToken(
        await makeChallenge(HMAC_KEY, { counter: 50, expiresAt: Math.floor(Date.now() / 1000) - 5 }),
      );
      expectError(await post(body({ captchaToken: expired })), 'POST', url, 403, 'CAPTCHA_FAILED');
      expectError(await post(body({ captchaToken: 'not-a-token' })), 'POST', url, 403, 'CAPTCHA_FAILED');

      // The genuine one works once, in the body...
      const token = encodeAltcha(solved);
      expect((await post(body({ captchaToken: token }))).statusCode).toBe(201);
      expectError(await post(body({ captchaToken: token })), 'POST', url, 403, 'CAPTCHA_FAILED');
      // ... or in the X-Captcha-Token header.
      const viaHeader = await solvedCaptcha(app);
      expect((await post(body(), { 'x-captcha-token': viaHeader })).statusCode).toBe(201);
      expectError(await post(body(), { 'x-captcha-token': viaHeader }), 'POST', url, 403, 'CAPTCHA_FAILED');
      expect(await app.store.orders.list()).toHaveLength(2);
    });

    test(`${url}: a mistake in what public information settles does not spend the solved CAPTCHA`, async (t) => {
      const app = await ordersApp(t);
      const captchaToken = await solvedCaptcha(app);
      const post = (over: Record<string, unknown>) =>
        app.inject({ method: 'POST', url, payload: body({ captchaToken, ...over }) });
      const isA = url === '/api/orders/create';
      const mistakes: [Record<string, unknown>, number, string][] = [
        [
          isA ? { customerInfo: { name: 'Ada', email: 'ada@example,com' } } : { customerEmail: 'grace@example,com' },
          400,
          'VALIDATION_FAILED',
        ],
        [isA ? { photos: ['1', '404'] } : { items: 'Photo #404 (4x6) x2' }, 400, 'UNKNOWN_PHOTO'],
        [
          isA ? { photos: [{ number: '1', size: '11x14', quantity: 1 }] } : { items: 'Photo #1 (11x14) x2' },
          400,
          'VALIDATION_FAILED',
        ],
        [{ eventSlug: 'Nope' }, 404, 'EVENT_NOT_FOUND'],
      ];
      if (!isA) mistakes.push([{ total: '$24.00' }, 400, 'PRICE_MISMATCH']);
      for (const [over, status, code] of mistakes) expectError(await post(over), 'POST', url, status, code);
      await app.events.update(EVENT, { orderingEnabled: false });
      expectError(await post({}), 'POST', url, 409, 'ORDERING_CLOSED');
      await app.events.update(EVENT, { orderingEnabled: true });
      // Still good.
      expect((await post({})).statusCode).toBe(201);
    });

    test(`${url}: round 2: the CAPTCHA comes before the address check and the coupon check`, async (t) => {
      const smarty = await startSmartyStub(t);
      const app = await ordersApp(t, {
        env: {
          ADDRESS_VERIFIER: 'smarty',
          SMARTY_AUTH_ID: SMARTY_AUTH.id,
          SMARTY_AUTH_TOKEN: SMARTY_AUTH.token,
          SMARTY_BASE_URL: smarty.url,
          RATE_LIMIT_ORDERS_PER_MIN: '1000',
        },
      });
      await app.inject({
        method: 'POST',
        url: '/api/coupons',
        headers: adminHeaders,
        payload: { code: 'REAL-CODE', kind: 'percent', value: 10 },
      });
      // Both ship (variant B always does): the address is checked.
      const ships = url === '/api/orders/create' ? { shippingAddress: GOOD_ADDRESS } : {};
      const post = (over: Record<string, unknown>) =>
        app.inject({ method: 'POST', url, payload: body({ ...ships, ...over }) });
      // Junk tokens: each refused before the paid look-up, which is never made.
      for (let i = 0; i < 10; i++) {
        expectError(await post({ captchaToken: `junk-${i}` }), 'POST', url, 403, 'CAPTCHA_FAILED');
      }
      expect(smarty.requests).toHaveLength(0);
      // Whether a coupon code exists is not told to a request without a solved CAPTCHA.
      const unknown = await post({ captchaToken: 'junk', couponCode: 'NO-SUCH-CODE' });
      const real = await post({ captchaToken: 'junk', couponCode: 'REAL-CODE' });
      expectError(unknown, 'POST', url, 403, 'CAPTCHA_FAILED');
      expectError(real, 'POST', url, 403, 'CAPTCHA_FAILED');
      expect(unknown.json()).toEqual(real.json());
      expect(smarty.requests).toHaveLength(0);
      // A solved CAPTCHA goes on to the check: the stub is wired, and is asked once. An
      // undeliverable address found there spends the token (the look-up was paid for).
      const captchaToken = await solvedCaptcha(app);
      expect((await post({ captchaToken })).statusCode).not.toBe(403);
      expect(smarty.requests).toHaveLength(1);
      expectError(await post({ captchaToken }), 'POST', url, 403, 'CAPTCHA_FAILED');
      expect(smarty.requests).toHaveLength(1);
    });
  }

  test('booth orders: admin credentials replace the CAPTCHA on both routes; wrong ones are 401', async (t) => {
    const app = await ordersApp(t);
    for (const { url, body } of routes) {
      const res = await app.inject({ method: 'POST', url, headers: adminHeaders, payload: body() });
      expect(res.statusCode).toBe(201);
      const order = await app.store.orders.get(res.json().orderNumber);
      expect(order?.channel).toBe('booth');

      // A wrong token is never treated as a customer, even with a valid CAPTCHA.
      const wrong = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
        payload: body({ captchaToken: await solvedCaptcha(app) }),
      });
      expectError(wrong, 'POST', url, 401, 'UNAUTHORIZED');
      expect(wrong.headers['www-authenticate']).toBe('Bearer realm="admin"');
    }
  });

  test('anonymous submissions are rate limited per address (one quota for both routes); admins are not', async (t) => {
    const app = await ordersApp(t, { env: { RATE_LIMIT_ORDERS_PER_MIN: '3', CAPTCHA_PROVIDER: 'off' } });
    for (let i = 0; i < 3; i++) {
      const { url, body } = routes[i % 2] as (typeof routes)[number];
      expect((await app.inject({ method: 'POST', url, payload: body() })).statusCode).toBe(201);
    }
    const limited = await app.inject({ method: 'POST', url: '/api/orders', payload: bodyB() });
    expectError(limited, 'POST', '/api/orders', 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const booth = await app.inject({ method: 'POST', url: '/api/orders', headers: adminHeaders, payload: bodyB() });
    expect(booth.statusCode).toBe(201);
  });
});
