import { expect, test } from 'vitest';
import { build } from '../../helpers/build.js';

test('GET /healthz is 200 ok', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/healthz' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
});

test('GET /readyz reports every check and answers 503 when one fails', async (t) => {
  const app = await build(t, { noReady: true });
  let healthy = true;
  app.readiness.add('probe', async () => ({ ok: healthy, details: { healthy } }));
  await app.ready();
  const ok = await app.inject({ url: '/readyz' });
  expect(ok.statusCode).toBe(200);
  expect(ok.json().checks.probe).toEqual({ ok: true, details: { healthy: true } });
  healthy = false;
  const down = await app.inject({ url: '/readyz' });
  expect(down.statusCode).toBe(503);
  expect(down.json().status).toBe('unavailable');
});

test('GET /openapi.json serves the 3.1.0 document and /docs renders it', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.json().openapi).toBe('3.1.0');
  expect(res.json().info.version).toBe('1.0.0');
  const docs = await app.inject({ url: '/docs/' });
  expect(docs.statusCode).toBe(200);
  expect(docs.headers['content-type']).toMatch(/text\/html/);
});
