import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { GroupStore } from '../../../src/services/rate-limit/group-store.js';
import { rateLimitConfigs } from '../../../src/services/rate-limit/plugin.js';
import { adminHeaders, build } from '../../helpers/build.js';

const errorBody = z.strictObject({ error: z.string(), code: z.string(), details: z.string() });
type T = Parameters<typeof build>[0];

/** Throwaway routes that opt in the way the order and feedback routes do. */
async function appWithLimitedRoutes(t: T) {
  const app = await build(t, {
    noReady: true,
    env: { RATE_LIMIT_ORDERS_PER_MIN: '3', RATE_LIMIT_FEEDBACK_PER_MIN: '2' },
  });
  app.post('/test/orders-a', { config: { rateLimit: app.rateLimits.orders } }, async () => ({ ok: true }));
  app.post('/test/orders-b', { config: { rateLimit: app.rateLimits.orders } }, async () => ({ ok: true }));
  app.post('/test/feedback', { config: { rateLimit: app.rateLimits.feedback } }, async () => ({ ok: true }));
  app.post('/test/unlimited', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('per-route rate limits', () => {
  test('over the limit: 429 RATE_LIMITED with Retry-After, the error body and CORS', async (t) => {
    const app = await appWithLimitedRoutes(t);
    for (let i = 0; i < 3; i++) {
      const ok = await app.inject({ method: 'POST', url: '/test/orders-a' });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const res = await app.inject({ method: 'POST', url: '/test/orders-a' });
    expect(res.statusCode).toBe(429);
    const body = errorBody.parse(res.json());
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.error).toBe('Too many requests');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('both order routes share one quota; feedback has its own; routes that do not opt in are not limited', async (t) => {
    const app = await appWithLimitedRoutes(t);
    expect((await app.inject({ method: 'POST', url: '/test/orders-a' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/test/orders-b' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/test/orders-a' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/test/orders-b' })).statusCode).toBe(429);
    expect((await app.inject({ method: 'POST', url: '/test/feedback' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/test/feedback' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/test/feedback' })).statusCode).toBe(429);
    for (let i = 0; i < 20; i++) {
      expect((await app.inject({ method: 'POST', url: '/test/unlimited' })).statusCode).toBe(200);
    }
  });

  test('limits are per client address (IPv6 per /64)', async (t) => {
    const app = await appWithLimitedRoutes(t);
    const post = (remoteAddress: string) => app.inject({ method: 'POST', url: '/test/feedback', remoteAddress });
    expect((await post('192.0.2.1')).statusCode).toBe(200);
    expect((await post('192.0.2.1')).statusCode).toBe(200);
    expect((await post('192.0.2.1')).statusCode).toBe(429);
    expect((await post('192.0.2.2')).statusCode).toBe(200);
    expect((await post('2001:db8:a:b::1')).statusCode).toBe(200);
    expect((await post('2001:db8:a:b::2')).statusCode).toBe(200);
    expect((await post('2001:db8:a:b::3')).statusCode).toBe(429);
  });

  test('requests with valid admin credentials are never limited', async (t) => {
    const app = await appWithLimitedRoutes(t);
    for (let i = 0; i < 3; i++) await app.inject({ method: 'POST', url: '/test/orders-a' });
    expect((await app.inject({ method: 'POST', url: '/test/orders-a' })).statusCode).toBe(429);
    for (let i = 0; i < 20; i++) {
      const res = await app.inject({ method: 'POST', url: '/test/orders-a', headers: adminHeaders });
      expect(res.statusCode).toBe(200);
    }
  });

  test('a wrong admin token does not bypass the limit', async (t) => {
    const app = await appWithLimitedRoutes(t);
    const headers = { authorization: 'Bearer not-the-admin-token-at-all-00' };
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await app.inject({ method: 'POST', url: '/test/orders-a', headers })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('GroupStore', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('counts per key in fixed windows, and starts afresh after the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const store = new GroupStore();
    const incr = (key: string) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr(key, (err, res) => (err || !res ? reject(err) : resolve(res)), 60_000, 10),
      );
    expect(await incr('a')).toEqual({ current: 1, ttl: 60_000 });
    vi.setSystemTime(1_010_000);
    expect(await incr('a')).toEqual({ current: 2, ttl: 50_000 });
    expect(await incr('b')).toEqual({ current: 1, ttl: 60_000 });
    vi.setSystemTime(1_060_000);
    expect(await incr('a')).toEqual({ current: 1, ttl: 60_000 });
  });

  test('routes with a groupId share the store; routes without get their own', () => {
    const store = new GroupStore();
    const asRoute = (o: object) => o as Parameters<GroupStore['child']>[0];
    expect(store.child(asRoute({ groupId: 'orders' }))).toBe(store);
    expect(store.child(asRoute({}))).not.toBe(store);
  });

  test('configurations carry the per-minute figures and distinct groups', () => {
    const c = rateLimitConfigs({
      orders: 10,
      feedback: 11,
      captcha: 30,
      lookup: 12,
      codes: 13,
      quote: 60,
      faceSearch: 14,
    });
    expect(c.orders).toMatchObject({ max: 10, timeWindow: 60_000, groupId: 'orders' });
    expect(c.feedback).toMatchObject({ max: 11, timeWindow: 60_000, groupId: 'feedback' });
    expect(c.captcha).toMatchObject({ max: 30, timeWindow: 60_000, groupId: 'captcha' });
    expect(c.lookup).toMatchObject({ max: 12, timeWindow: 60_000, groupId: 'lookup' });
    expect(c.codes).toMatchObject({ max: 13, timeWindow: 60_000, groupId: 'codes' });
    expect(c.quote).toMatchObject({ max: 60, timeWindow: 60_000, groupId: 'quote' });
    expect(c.faceSearch).toMatchObject({ max: 14, timeWindow: 60_000, groupId: 'face-search' });
  });
});
