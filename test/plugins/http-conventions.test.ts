import { expect, test } from 'vitest';
import { corsOptions } from '../../src/plugins/http-conventions.js';
import { adminHeaders, build } from '../helpers/build.js';
import { bodyB, ordersApp } from '../support/orders-fixtures.js';

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

test('a browser may read the headers clients act on, Idempotent-Replayed included', async (t) => {
  const app = await ordersApp(t);
  const request = () =>
    app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { ...adminHeaders, origin: 'https://gallery.example', 'idempotency-key': 'cors-replay-1' },
      payload: bodyB(),
    });
  expect((await request()).statusCode).toBe(201);
  const replay = await request();
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.headers['access-control-allow-origin']).toBe('*');
  const exposed = String(replay.headers['access-control-expose-headers'])
    .split(',')
    .map((h) => h.trim());
  expect(exposed).toEqual(corsOptions.exposedHeaders);
  expect(exposed).toEqual(
    expect.arrayContaining(['ETag', 'Retry-After', 'Content-Disposition', 'X-Request-Id', 'Idempotent-Replayed']),
  );
});
