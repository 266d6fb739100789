/**
 * `POST /api/orders/{orderNumber}/feedback` (docs/contract.md, "Status and shipping"): appended
 * with a timestamp, limits (10 entries, then 409 FEEDBACK_LIMIT), text hygiene, unknown
 * orders, and the per-address rate limit.
 */
import { describe, expect, test } from 'vitest';
import { MAX_FEEDBACK_CHARS } from '../../../src/routes/feedback/index.js';
import { appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const url = (ref: string) => `/api/orders/${encodeURIComponent(ref)}/feedback`;
const post = (ref: string, payload: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: url(ref),
  payload,
  admin: false,
  headers,
});

/** For tests that post more than the default 10 a minute. */
const MANY = { RATE_LIMIT_FEEDBACK_PER_MIN: '1000' };

const ENTRY = /^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\] /;

describe('POST /api/orders/{orderNumber}/feedback', () => {
  test('appends with a timestamp; a second post keeps the first; no credentials needed', async (t) => {
    const app = await appWithEvents(t);
    const order = await orderIn(app, 'paid');
    const before = Date.now();
    const first = await call(app, post(order.orderNumber, { feedback: '  Great photos!  ' }));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      message: `Thank you! Your feedback on order ${order.orderNumber} was received.`,
    });
    const second = await call(app, post(order.orderNumber.toLowerCase(), { feedback: 'Line one\r\nline two\tend' }));
    expect(second.statusCode).toBe(200);
    const third = await call(app, post(order.id, { feedback: 'By id' }));
    expect(third.statusCode).toBe(200);

    const stored = (await app.store.orders.get(order.id))?.feedback ?? '';
    const entries = stored.split('\n\n');
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => e.replace(ENTRY, ''))).toEqual(['Great photos!', 'Line one\nline two\tend', 'By id']);
    for (const e of entries) {
      const at = Date.parse(ENTRY.exec(e)?.[1] ?? '');
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now());
    }
    // The admin sees it on the order.
    const admin = await call(app, { url: `/api/orders/${order.id}` });
    expect(admin.json().feedback).toBe(stored);
  });

  test('1–2000 characters after trimming (characters, not UTF-16 units)', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    expect((await call(app, post(order.id, { feedback: 'x'.repeat(2000) }))).statusCode).toBe(200);
    expect((await call(app, post(order.id, { feedback: '😀'.repeat(2000) }))).statusCode).toBe(200);
    expect((await call(app, post(order.id, { feedback: ` ${'y'.repeat(2000)}\n` }))).statusCode).toBe(200);
    for (const feedback of ['', '   ', '\n\t', 'x'.repeat(2001), '😀'.repeat(2001)]) {
      expectError(await call(app, post(order.id, { feedback })), 400, 'VALIDATION_FAILED');
    }
  });

  test('control characters (but tab and newline), lone surrogates, other fields and non-strings are refused', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    for (const payload of [
      { feedback: 'bell\u0007' },
      { feedback: 'nul\u0000' },
      { feedback: 'esc\u001b[31mred' },
      { feedback: 'c1\u0085' },
      { feedback: 'half \ud83d' },
      { feedback: 42 },
      { feedback: ['a'] },
      { feedback: null },
      { feedback: 'ok', rating: 5 },
      {},
      [],
      '"just a string"',
    ]) {
      expectError(await call(app, post(order.id, payload)), 400, 'VALIDATION_FAILED');
    }
    expect((await app.store.orders.get(order.id))?.feedback).toBe('');
  });

  test('unknown order: 404 ORDER_NOT_FOUND', async (t) => {
    const app = await appWithEvents(t);
    expectError(await call(app, post('AX25-9999', { feedback: 'Hello' })), 404, 'ORDER_NOT_FOUND');
    expectError(await call(app, post('no-such-id', { feedback: 'Hello' })), 404, 'ORDER_NOT_FOUND');
  });

  test('an order holds a bounded amount of feedback', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    const full = Math.floor(MAX_FEEDBACK_CHARS / 2030);
    for (let i = 0; i < full; i++) {
      expect((await call(app, post(order.id, { feedback: 'z'.repeat(2000) }))).statusCode).toBe(200);
    }
    const over = await call(app, post(order.id, { feedback: 'z'.repeat(2000) }));
    expectError(over, 400, 'VALIDATION_FAILED');
    expect(over.json().error).toContain('no room');
    expect((await app.store.orders.get(order.id))?.feedback.length).toBeLessThanOrEqual(MAX_FEEDBACK_CHARS);
  });

  test('at most 10 entries per order, then 409 FEEDBACK_LIMIT; concurrent posts never pass the cap', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    const posts = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(app, post(order.orderNumber, { feedback: `note ${i}` }))),
    );
    expect(posts.filter((r) => r.statusCode === 200)).toHaveLength(10);
    for (const r of posts.filter((x) => x.statusCode !== 200)) expectError(r, 409, 'FEEDBACK_LIMIT');
    expectError(await call(app, post(order.id, { feedback: 'one more' })), 409, 'FEEDBACK_LIMIT');
    const stored = await app.store.orders.get(order.id);
    expect(stored?.feedback.split('\n\n')).toHaveLength(10);
    // each is in the order's history, by the customer
    expect(stored?.history.filter((h) => h.action === 'feedback' && h.by === 'customer')).toHaveLength(10);
  });

  test('rate limited per client address: 429 RATE_LIMITED with Retry-After; admins are exempt', async (t) => {
    const app = await appWithEvents(t, { env: { RATE_LIMIT_FEEDBACK_PER_MIN: '2' } });
    const order = await orderIn(app, 'pending');
    const from = (ip: string) => ({ remoteAddress: ip });
    const send = (ip: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: url(order.id), payload: { feedback: 'hi' }, headers, ...from(ip) });
    expect((await send('203.0.113.7')).statusCode).toBe(200);
    expect((await send('203.0.113.7')).statusCode).toBe(200);
    const limited = await send('203.0.113.7');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own quota; an admin is not limited.
    expect((await send('198.51.100.9')).statusCode).toBe(200);
    const admin = await send('203.0.113.7', { authorization: 'Bearer test-admin-token-0123456789abcdef' });
    expect(admin.statusCode).toBe(200);
    // The refused post was not stored.
    expect((await app.store.orders.get(order.id))?.feedback.split('\n\n')).toHaveLength(4);
  });
});
