import { expect, test } from 'vitest';
import { build } from '../helpers/build.js';

test('CORS preflight allows the SPEC methods and headers', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'OPTIONS',
    url: '/api/orders',
    headers: { origin: 'https://gallery.example', 'access-control-request-method': 'POST' },
  });
  expect(res.statusCode).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(String(res.headers['access-control-allow-methods'])).toBe('GET, POST, PUT, OPTIONS');
  const allowed = String(res.headers['access-control-allow-headers']);
  for (const h of ['Content-Type', 'Authorization', 'Idempotency-Key', 'X-Captcha-Token']) expect(allowed).toContain(h);
});

test('JSON data responses carry Cache-Control: no-cache and a request id', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/healthz' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
});

test('an incoming X-Request-Id is kept', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
  expect(res.headers['x-request-id']).toBe('abc-123');
});
