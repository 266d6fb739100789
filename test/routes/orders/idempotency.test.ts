/**
 * `Idempotency-Key` on both submission routes (docs/contract.md, "Orders"): the same key with the same body
 * replays the first response and creates nothing; another body is 409; a failed request
 * leaves the key free.
 */
import { describe, expect, test } from 'vitest';
import { adminHeaders } from '../../helpers/build.js';
import { expectMatchesOpenApi } from '../../helpers/openapi-response.js';
import { bodyA, bodyB, expectError, ordersApp, outbox, solvedCaptcha } from '../../support/orders-fixtures.js';

const routes = [
  { url: '/api/orders/create', body: bodyA },
  { url: '/api/orders', body: bodyB },
] as const;

describe('Idempotency-Key', () => {
  for (const { url, body } of routes) {
    test(`${url}: same key + same body → the first response, one order; another body → 409`, async (t) => {
      const app = await ordersApp(t);
      const key = 'c0ffee00-0000-4000-8000-000000000001';
      const headers = { 'idempotency-key': key };
      const first = await app.inject({
        method: 'POST',
        url,
        headers,
        payload: body({ captchaToken: await solvedCaptcha(app) }),
      });
      expect(first.statusCode).toBe(201);

      // The retry carries a spent token, or a fresh one: either way it is the same order.
      for (const captchaToken of [undefined, await solvedCaptcha(app)]) {
        const again = await app.inject({
          method: 'POST',
          url,
          headers,
          payload: body(captchaToken ? { captchaToken } : { captchaToken: 'spent' }),
        });
        expect(again.statusCode).toBe(201);
        expect(again.body).toBe(first.body);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expectMatchesOpenApi('POST', url, again);
      }
      expect(await app.store.orders.list({ includeHeld: true })).toHaveLength(1);
      await app.notifier.flush();
      expect((await outbox(app.dataDir)).map((m) => m.name)).toEqual([expect.stringContaining('-receipt-')]);

      const other = await app.inject({
        method: 'POST',
        url,
        headers,
        payload: body({ eventSlug: 'Other Con', captchaToken: await solvedCaptcha(app) }),
      });
      expectError(other, 'POST', url, 409, 'IDEMPOTENCY_CONFLICT');
      // The same key on the other route is another request too.
      const otherRoute = routes.find((r) => r.url !== url) as (typeof routes)[number];
      const cross = await app.inject({ method: 'POST', url: otherRoute.url, headers, payload: otherRoute.body() });
      // (no CAPTCHA: 400 first, the key untouched) then with admin credentials: 409
      expectError(cross, 'POST', otherRoute.url, 400, 'CAPTCHA_REQUIRED');
      const crossAdmin = await app.inject({
        method: 'POST',
        url: otherRoute.url,
        headers: { ...headers, ...adminHeaders },
        payload: otherRoute.body(),
      });
      expectError(crossAdmin, 'POST', otherRoute.url, 409, 'IDEMPOTENCY_CONFLICT');
      expect(await app.store.orders.list({ includeHeld: true })).toHaveLength(1);
    });
  }

  test('a failed request frees its key: the corrected retry with the same key is created', async (t) => {
    const app = await ordersApp(t);
    const headers = { ...adminHeaders, 'idempotency-key': 'retry-after-fix' };
    const bad = await app.inject({ method: 'POST', url: '/api/orders', headers, payload: bodyB({ total: '$1.00' }) });
    expectError(bad, 'POST', '/api/orders', 400, 'PRICE_MISMATCH');
    const fixed = await app.inject({ method: 'POST', url: '/api/orders', headers, payload: bodyB() });
    expect(fixed.statusCode).toBe(201);
    const replay = await app.inject({ method: 'POST', url: '/api/orders', headers, payload: bodyB() });
    expect(replay.body).toBe(fixed.body);
  });

  test('the body is compared by meaning: key order and surrounding spaces do not matter', async (t) => {
    const app = await ordersApp(t);
    const headers = { ...adminHeaders, 'idempotency-key': 'same-meaning' };
    const body = bodyB();
    const first = await app.inject({ method: 'POST', url: '/api/orders', headers, payload: body });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers,
      payload: { ...reordered, customerName: `  ${body.customerName}  ` },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  test('concurrent requests with one key make one order', async (t) => {
    const app = await ordersApp(t);
    const headers = { ...adminHeaders, 'idempotency-key': 'double-click' };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => app.inject({ method: 'POST', url: '/api/orders', headers, payload: bodyB() })),
    );
    const created = results.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expectError(r, 'POST', '/api/orders', 409, 'IDEMPOTENCY_IN_PROGRESS');
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    expect(await app.store.orders.list()).toHaveLength(1);
  });

  test('a malformed key is 400', async (t) => {
    const app = await ordersApp(t);
    for (const key of ['has space', 'x'.repeat(256), 'é']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { ...adminHeaders, 'idempotency-key': key },
        payload: bodyB(),
      });
      expectError(res, 'POST', '/api/orders', 400, 'VALIDATION_FAILED');
    }
  });
});
