/**
 * `POST /api/orders/{orderNumber}/feedback` (docs/contract.md, "Orders"): appended with a
 * timestamp, limits (10 entries with proof, then 409 FEEDBACK_LIMIT), text hygiene, the proof
 * of the order (its email, or a staff/owner token; round 2), and the per-address rate limit.
 */
import { describe, expect, test } from 'vitest';
import { MAX_FEEDBACK_CHARS } from '../../../src/services/orders/feedback.js';
import { appWithEvents, call, expectError, orderIn } from '../admin/fixtures.js';

const url = (ref: string) => `/api/orders/${encodeURIComponent(ref)}/feedback`;
/** The customer's post: with the order's email (the fixtures' orders are ada@example.com's). */
const post = (ref: string, payload: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: url(ref),
  payload:
    payload !== null && typeof payload === 'object' && !Array.isArray(payload) && !('email' in payload)
      ? { email: 'ada@example.com', ...payload }
      : payload,
  admin: false,
  headers,
});
const STAFF = 'staff-token-for-feedback-0123456789';
const VIEWER = 'viewer-token-for-feedback-012345678';

/** For tests that post more than the default 10 a minute. */
const MANY = { RATE_LIMIT_FEEDBACK_PER_MIN: '1000' };

const ENTRY = /^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\] /;

describe('POST /api/orders/{orderNumber}/feedback', () => {
  test("appends with a timestamp; a second post keeps the first; the order's email is the proof", async (t) => {
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
      { feedback: 'ok', email: 42 },
      {},
      [],
      '"just a string"',
    ]) {
      expectError(await call(app, post(order.id, payload)), 400, 'VALIDATION_FAILED');
    }
    expect((await app.store.orders.get(order.id))?.feedback).toBe('');
  });

  test('round 2: unknown order, wrong email and missing email answer alike: 404 ORDER_NOT_FOUND', async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    const answers = [
      await call(app, post('AX25-9999', { feedback: 'Hello' })),
      await call(app, post('no-such-id', { feedback: 'Hello' })),
      await call(app, post(order.orderNumber, { feedback: 'I moved, ship to 1 Elm St', email: 'eve@example.com' })),
      await call(app, { ...post(order.orderNumber, {}), payload: { feedback: 'I moved, ship to 1 Elm St' } }),
      await call(app, post(order.orderNumber, { feedback: 'Hello', email: '' })),
    ];
    for (const r of answers) expectError(r, 404, 'ORDER_NOT_FOUND');
    // Byte for byte: nothing tells a real order number from an unknown one.
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    const stored = await app.store.orders.get(order.id);
    expect(stored?.feedback).toBe('');
    expect(stored?.version).toBe(order.version);
    // The right email, in any case and with spaces around it, is the proof.
    const ok = await call(app, post(order.orderNumber, { feedback: 'Hello', email: '  ADA@Example.COM ' }));
    expect(ok.statusCode).toBe(200);
    expect((await app.store.orders.get(order.id))?.history.at(-1)).toMatchObject({
      action: 'feedback',
      field: 'proof',
      to: 'email',
      by: 'customer',
    });
  });

  test('round 2: a staff or owner token is proof too; a viewer token is 403; a wrong one 401', async (t) => {
    const app = await appWithEvents(t, {
      env: { ...MANY, ADMIN_TOKENS: `test-admin-token-0123456789abcdef,staff:${STAFF},viewer:${VIEWER}` },
    });
    const order = await orderIn(app, 'pending');
    const as = (token: string) => ({
      method: 'POST' as const,
      url: url(order.orderNumber),
      payload: { feedback: 'Called: she moved, the new address is on the order' },
      admin: false,
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await call(app, as(STAFF))).statusCode).toBe(200);
    expect((await call(app, as('test-admin-token-0123456789abcdef'))).statusCode).toBe(200);
    expectError(await call(app, as(VIEWER)), 403, 'FORBIDDEN');
    expectError(await call(app, as('wrong-token-wrong-token-wrong-token')), 401, 'UNAUTHORIZED');
    const history = (await app.store.orders.get(order.id))?.history.filter((h) => h.action === 'feedback');
    expect(history?.map((h) => [h.to, h.by.split(':')[0]])).toEqual([
      ['admin', 'staff'],
      ['admin', 'admin'],
    ]);
    // With admin credentials an unknown order is still 404.
    expectError(await call(app, { ...as(STAFF), url: url('AX25-9999') }), 404, 'ORDER_NOT_FOUND');
  });

  test("round 2: posts without proof never use up the order's entries", async (t) => {
    const app = await appWithEvents(t, { env: MANY });
    const order = await orderIn(app, 'pending');
    for (let i = 0; i < 12; i++) {
      expectError(
        await call(app, post(order.orderNumber, { feedback: `spam ${i}`, email: `spam${i}@example.com` })),
        404,
        'ORDER_NOT_FOUND',
      );
    }
    for (let i = 0; i < 10; i++) {
      expect((await call(app, post(order.orderNumber, { feedback: `real ${i}` }))).statusCode).toBe(200);
    }
    expectError(await call(app, post(order.orderNumber, { feedback: 'one more' })), 409, 'FEEDBACK_LIMIT');
    expect((await app.store.orders.get(order.id))?.feedback).not.toContain('spam');
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
      app.inject({
        method: 'POST',
        url: url(order.id),
        payload: { feedback: 'hi', email: 'ada@example.com' },
        headers,
        ...from(ip),
      });
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
