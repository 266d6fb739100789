/**
 * Credentials never reach the logs: the real server at LOG_LEVEL=trace (everything it
 * logs), asked with the right admin token, wrong ones (up to the lockout), a CAPTCHA token
 * in the header and in the body, and a malformed Authorization header. Neither stdout nor
 * stderr contains any of those secrets.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, tempDir } from '../helpers/build.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { bodyA, writeLibrary } from '../support/orders-fixtures.js';

test('admin and CAPTCHA tokens never appear in the logs, even at trace level', { timeout: 180_000 }, async (t) => {
  const dataDir = await tempDir(t);
  await writeLibrary(path.join(dataDir, 'photos'));
  const server = await startServer(t, {
    env: serverEnv(dataDir, { LOG_LEVEL: 'trace', ADMIN_AUTH_MAX_FAILURES: '5' }),
  });
  const wrong = Array.from({ length: 8 }, (_, i) => `wrong-token-${i}-${'z'.repeat(24)}`);
  const captcha = `captcha-secret-${'q'.repeat(40)}`;
  const call = (p: string, init: RequestInit = {}) => fetch(`${server.url}${p}`, init).then((r) => r.status);

  expect(await call('/api/orders/pending', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).toBe(200);
  for (const token of wrong) {
    expect([401, 429]).toContain(await call('/api/orders/summary', { headers: { authorization: `Bearer ${token}` } }));
  }
  const json = { 'content-type': 'application/json' };
  expect(
    await call('/api/orders/create', {
      method: 'POST',
      headers: { ...json, 'x-captcha-token': captcha },
      body: JSON.stringify(bodyA()),
    }),
  ).toBe(403);
  expect(
    await call('/api/orders/create', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(bodyA({ captchaToken: captcha })),
    }),
  ).toBe(403);
  // (after the lockout above: 429, but the header still goes through the logger)
  expect(
    await call('/api/orders/pending', {
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
    }),
  ).toBe(429);
  await server.kill('SIGTERM');

  const everything = `${JSON.stringify(server.logs)}\n${server.stderr()}`;
  expect(server.logs.length).toBeGreaterThan(10); // it did log, at length
  for (const secret of [ADMIN_TOKEN, ...wrong, captcha, Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')]) {
    expect(everything.includes(secret), secret).toBe(false);
  }
});
