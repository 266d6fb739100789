import { Writable } from 'node:stream';
import { describe, expect, type TestContext, test } from 'vitest';
import { buildApp } from '../../src/app.js';
import { corsOptions } from '../../src/plugins/http-conventions.js';
import { adminHeaders, build, tempDir, testConfig } from '../helpers/build.js';
import { bodyB, ordersApp } from '../support/orders-fixtures.js';

test('CORS preflight allows the methods and headers of the contract', async (t) => {
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
  const id = String(res.headers['x-request-id']);
  expect(id).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
  // one process prefix, a counter after it: every request its own id
  const next = String((await app.inject({ url: '/healthz' })).headers['x-request-id']);
  expect(next).not.toBe(id);
  expect(next.slice(0, 8)).toBe(id.slice(0, 8));
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
  expect(exposed).toEqual(corsOptions.exposedHeaders.split(', '));
  expect(exposed).toEqual(
    expect.arrayContaining(['ETag', 'Retry-After', 'Content-Disposition', 'X-Request-Id', 'Idempotent-Replayed']),
  );
});

describe('request logging', () => {
  async function logged(t: TestContext, level: string) {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)));
        cb();
      },
    });
    const app = await buildApp(testConfig(await tempDir(t), { LOG_LEVEL: level }), { level, stream });
    t.onTestFinished(() => app.close());
    await app.ready();
    return { app, lines };
  }

  test('at info: a change and a failure are logged with the request id; a plain read is not', async (t) => {
    const { app, lines } = await logged(t, 'info');
    const ok = await app.inject({ url: '/healthz' });
    const bad = await app.inject({ method: 'POST', url: '/api/orders', payload: {} });
    expect(ok.statusCode).toBe(200);
    expect(bad.statusCode).toBe(400);
    const id = bad.headers['x-request-id'];
    expect(lines.filter((l) => l.reqId === ok.headers['x-request-id'])).toEqual([]);
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toContain('request completed');
    expect(mine.find((l) => l.msg === 'request completed')).toMatchObject({
      method: 'POST',
      url: '/api/orders',
      statusCode: 400,
    });
    expect(mine.some((l) => l.code === 'VALIDATION_FAILED')).toBe(true);
  });

  test('at debug: reads are logged too', async (t) => {
    const { app, lines } = await logged(t, 'debug');
    const res = await app.inject({ url: '/healthz' });
    expect(lines.find((l) => l.reqId === res.headers['x-request-id'] && l.msg === 'request completed')).toMatchObject({
      method: 'GET',
      url: '/healthz',
      statusCode: 200,
      level: 20,
    });
  });
});
