/**
 * Admin token brute force against the app listening on loopback, with the default limits
 * (30 wrong tokens per address per 15 minutes): guesses fired in parallel across every
 * operation that takes admin credentials (from the OpenAPI document), each with a forged
 * `X-Forwarded-For` to look like another client. The 31st guess is 429 with Retry-After,
 * and from then on even the right token is refused from that address; the public gallery
 * still answers it, and another address is not affected.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { ADMIN_TOKEN, build } from '../helpers/build.js';
import { operations } from '../support/abuse-openapi.js';
import { bodyA, ErrorBody } from '../support/orders-fixtures.js';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request from a chosen loopback source address (127.0.0.0/8 is all ours on Linux). */
function call(
  port: number,
  opts: {
    method: string;
    path: string;
    token?: string;
    from?: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method,
        path: opts.path,
        localAddress: opts.from ?? '127.0.0.1',
        agent: false,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.body ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const fill = (template: string) => template.replace(/\{[^}]+\}/g, 'AX26-0001');

test('30 wrong tokens from one address, then 429 for every admin request from it, even with the right token', async (t) => {
  const app = await build(t);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  const adminOps = operations().filter((op) => op.adminOnly);
  expect(adminOps.length).toBeGreaterThan(12);
  const guess = (i: number) => {
    const op = adminOps[i % adminOps.length] as (typeof adminOps)[number];
    return call(port, {
      method: op.method,
      path: fill(op.path),
      token: `guess-${String(i).padStart(4, '0')}-${'x'.repeat(24)}`,
      // Forged: TRUST_PROXY is off, so this is not the client's address.
      headers: { 'x-forwarded-for': `198.51.100.${i % 250}` },
      body: op.body ? '{}' : undefined,
    });
  };

  // 30 guesses at once: every one is judged, none slips past the count.
  const first = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(i)));
  expect(first.map((r) => r.status)).toEqual(Array(30).fill(401));
  for (const r of first) {
    expect(ErrorBody.parse(JSON.parse(r.body)).code).toBe('UNAUTHORIZED');
    expect(r.headers['www-authenticate']).toBe('Bearer realm="admin"');
  }

  const locked = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(30 + i)));
  for (const r of locked) {
    expect(r.status).toBe(429);
    expect(ErrorBody.parse(JSON.parse(r.body)).code).toBe('RATE_LIMITED');
    // The whole window: 15 minutes.
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(900);
  }

  // The right token, on every admin operation: still 429 from this address.
  for (const op of adminOps) {
    const r = await call(port, {
      method: op.method,
      path: fill(op.path),
      token: ADMIN_TOKEN,
      body: op.body ? '{}' : undefined,
    });
    expect(r.status, `${op.method} ${op.path}`).toBe(429);
  }
  // Order submission with admin credentials (a booth order) too; without, it is a customer's.
  const booth = await call(port, {
    method: 'POST',
    path: '/api/orders/create',
    token: ADMIN_TOKEN,
    body: JSON.stringify(bodyA()),
  });
  expect(booth.status).toBe(429);
  const customer = await call(port, { method: 'POST', path: '/api/orders/create', body: JSON.stringify(bodyA()) });
  expect(ErrorBody.parse(JSON.parse(customer.body)).code).toBe('CAPTCHA_REQUIRED');
  // The public side still answers this address.
  expect((await call(port, { method: 'GET', path: '/event' })).status).toBe(200);
  expect((await call(port, { method: 'GET', path: '/healthz' })).status).toBe(200);
  // Another address is not locked out.
  const other = await call(port, { method: 'GET', path: '/api/orders/pending', token: ADMIN_TOKEN, from: '127.0.0.2' });
  expect(other.status).toBe(200);
  const otherWrong = await call(port, {
    method: 'GET',
    path: '/api/orders/pending',
    token: 'w'.repeat(32),
    from: '127.0.0.2',
  });
  expect(otherWrong.status).toBe(401);
});

test('a valid token of any role between guesses never resets the count (round 2)', async (t) => {
  // The attacker holds a viewer token and guesses at the owner's, using the viewer token in
  // between: before round 2 each accepted token forgave the guesses before it.
  const viewer = 'viewer-token-of-a-partner-0123456789';
  const app = await build(t, { env: { ADMIN_TOKENS: `${ADMIN_TOKEN},viewer:${viewer}` } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const asViewer = () => call(port, { method: 'GET', path: '/api/orders/summary', token: viewer });
  const guess = (i: number) =>
    call(port, { method: 'GET', path: '/api/orders/summary', token: `owner-guess-${i}-${'g'.repeat(24)}` });

  for (let i = 0; i < 30; i++) {
    expect((await guess(i)).status).toBe(401);
    expect((await asViewer()).status).toBe(200);
  }
  const locked = await guess(30);
  expect(locked.status).toBe(429);
  expect(ErrorBody.parse(JSON.parse(locked.body)).code).toBe('RATE_LIMITED');
  // From now on nothing admin goes through from that address, the viewer's token included.
  expect((await asViewer()).status).toBe(429);
  expect((await call(port, { method: 'GET', path: '/api/orders/summary', token: ADMIN_TOKEN })).status).toBe(429);
});
