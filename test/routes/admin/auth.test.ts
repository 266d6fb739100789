/**
 * Every admin route: without credentials (401 + WWW-Authenticate), with a wrong token (401),
 * with the right one (2xx); and the lockout after repeated wrong tokens (429 + Retry-After).
 */
import { describe, expect, test } from 'vitest';
import { AX, appWithEvents, call, expectError, orderIn } from './fixtures.js';

type Route = { method: 'GET' | 'POST' | 'PUT'; url: (ref: string) => string; payload?: unknown; status?: number };

const ADMIN_ROUTES: Route[] = [
  { method: 'GET', url: () => '/api/orders/pending' },
  { method: 'GET', url: () => '/api/orders/completed' },
  { method: 'GET', url: () => '/api/orders/cancelled' },
  { method: 'GET', url: () => '/api/orders/summary' },
  { method: 'GET', url: (ref) => `/api/orders/${ref}` },
  { method: 'PUT', url: (ref) => `/api/orders/${ref}`, payload: { customerName: 'Grace Hopper' } },
  { method: 'POST', url: (ref) => `/api/orders/${ref}/update-status`, payload: { status: 'paid' } },
  { method: 'POST', url: (ref) => `/api/orders/${ref}/update-shipping`, payload: { shipped: true, printAll: true } },
  { method: 'GET', url: (ref) => `/api/orders/${ref}/envelope/png` },
  { method: 'GET', url: (ref) => `/api/orders/${ref}/envelope/docx` },
  { method: 'GET', url: (ref) => `/api/envelope/png/${ref}` },
  { method: 'GET', url: (ref) => `/api/envelope/docx/${ref}` },
  { method: 'PUT', url: () => '/api/event-config', payload: { eventSlug: AX, orderingEnabled: false } },
];

describe('admin routes require the admin token', () => {
  test('no credentials: 401 with WWW-Authenticate; a wrong token: 401; the right one: 200', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid');
    for (const route of ADMIN_ROUTES) {
      const url = route.url(order.orderNumber);
      const what = `${route.method} ${url}`;
      const none = await call(app, { method: route.method, url, payload: route.payload, admin: false });
      expectError(none, 401, 'UNAUTHORIZED');
      expect(none.headers['www-authenticate'], what).toBe('Bearer realm="admin"');

      const basic = await call(app, {
        method: route.method,
        url,
        payload: route.payload,
        admin: false,
        headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
      });
      expectError(basic, 401, 'UNAUTHORIZED');

      const wrong = await call(app, {
        method: route.method,
        url,
        payload: route.payload,
        admin: false,
        headers: { authorization: 'Bearer not-the-admin-token-0000000000' },
      });
      expectError(wrong, 401, 'UNAUTHORIZED');
      expect(wrong.headers['www-authenticate'], what).toBe('Bearer realm="admin"');

      const right = await call(app, { method: route.method, url, payload: route.payload });
      expect(right.statusCode, `${what}: ${right.body.slice(0, 200)}`).toBe(200);
    }
    // Nothing was changed by the refused requests: only the authorised ones ran.
    const after = await app.store.orders.get(order.id);
    expect(after?.customerName).toBe('Grace Hopper');
  });

  test('an unauthenticated request is refused before its body is read or validated', async (t) => {
    const app = await appWithEvents(t);
    const res = await call(app, {
      method: 'PUT',
      url: '/api/orders/AX25-0001',
      payload: { nonsense: true },
      admin: false,
    });
    expectError(res, 401, 'UNAUTHORIZED');
  });

  test('repeated wrong tokens lock the address out: 429 RATE_LIMITED with Retry-After, even with the right token', async (t) => {
    const app = await appWithEvents(t, { env: { ADMIN_AUTH_MAX_FAILURES: '3' } });
    const wrong = { authorization: 'Bearer not-the-admin-token-0000000000' };
    for (let i = 0; i < 3; i++) {
      expectError(await call(app, { url: '/api/orders/pending', admin: false, headers: wrong }), 401, 'UNAUTHORIZED');
    }
    const locked = await call(app, { url: '/api/orders/summary', admin: false, headers: wrong });
    expectError(locked, 429, 'RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const evenRight = await call(app, { url: '/api/orders/pending' });
    expectError(evenRight, 429, 'RATE_LIMITED');
  });
});
