import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { adminHeaders, build } from '../../helpers/build.js';
import { newOrder } from '../../support/store-fixtures.js';

/** A browser's PushSubscription.toJSON(): a fresh P-256 key and auth secret. */
function subscription(endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** POST /api/push/subscribe with the admin token. */
const adminSubscribe = (app: Awaited<ReturnType<typeof build>>, payload: object = subscription()) =>
  app.inject({ method: 'POST', url: '/api/push/subscribe', headers: adminHeaders, payload });

const errorShape = { error: expect.any(String), code: expect.any(String), details: expect.any(String) };

describe('GET /api/push/public-key', () => {
  test('returns the VAPID public key, the same after a restart', async (t) => {
    const app = await build(t);
    const res = await app.inject({ url: '/api/push/public-key' });
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(publicKey).toBe(app.push.publicKey);
    expect(res.headers['cache-control']).toBe('no-cache');
    await app.close();

    const again = await build(t, { dataDir: app.dataDir });
    expect((await again.inject({ url: '/api/push/public-key' })).json().publicKey).toBe(publicKey);
  });
});

describe('POST /api/push/subscribe', () => {
  test('admin credentials: scope admin, 201 then 200 for the same endpoint', async (t) => {
    const app = await build(t);
    const sub = subscription();
    const first = await app.inject({ method: 'POST', url: '/api/push/subscribe', headers: adminHeaders, payload: sub });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ success: true, message: 'Subscribed to every order event', scope: 'admin' });
    const second = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: adminHeaders,
      payload: sub,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ success: true, scope: 'admin' });

    const stored = await app.store.pushSubscriptions.list({ scope: 'admin' });
    expect(stored).toEqual([
      expect.objectContaining({ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, orderId: null }),
    ]);
  });

  test("order number + the order's email (any case): scope order", async (t) => {
    const app = await build(t);
    const order = await app.store.orders.create(newOrder({ customerEmail: 'Ada@Example.com' }), { by: 'customer' });
    const sub = subscription();
    const payload = { ...sub, orderNumber: order.orderNumber.toLowerCase(), email: '  ADA@example.COM ' };
    const res = await app.inject({ method: 'POST', url: '/api/push/subscribe', payload });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: `Subscribed to order ${order.orderNumber}`, scope: 'order' });
    expect((await app.inject({ method: 'POST', url: '/api/push/subscribe', payload })).statusCode).toBe(200);
    expect(await app.store.pushSubscriptions.list({ orderId: order.id })).toEqual([
      expect.objectContaining({ endpoint: sub.endpoint, scope: 'order', orderId: order.id }),
    ]);
    expect(await app.store.pushSubscriptions.list({ scope: 'admin' })).toEqual([]);
  });

  test('wrong email and unknown order are the same 404', async (t) => {
    const app = await build(t);
    const order = await app.store.orders.create(newOrder(), { by: 'customer' });
    const wrongEmail = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      payload: { ...subscription(), orderNumber: order.orderNumber, email: 'eve@example.com' },
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      payload: { ...subscription(), orderNumber: 'AX25-9999', email: 'ada@example.com' },
    });
    expect(wrongEmail.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongEmail.json()).toEqual({ ...errorShape, code: 'ORDER_NOT_FOUND' });
    expect(wrongEmail.json()).toEqual(unknown.json());
    expect(await app.store.pushSubscriptions.list({ orderId: order.id })).toEqual([]);
  });

  test('no credentials and no order: 401; half an order: 400; a wrong admin token: 401', async (t) => {
    const app = await build(t);
    const order = await app.store.orders.create(newOrder(), { by: 'customer' });
    const none = await app.inject({ method: 'POST', url: '/api/push/subscribe', payload: subscription() });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ ...errorShape, code: 'UNAUTHORIZED' });
    expect(none.headers['www-authenticate']).toBe('Bearer realm="admin"');

    const half = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      payload: { ...subscription(), orderNumber: order.orderNumber },
    });
    expect(half.statusCode).toBe(400);
    expect(half.json().code).toBe('VALIDATION_FAILED');
    expect(JSON.parse(half.json().details)).toEqual([{ in: 'body', field: 'email', message: 'required' }]);

    const wrongToken = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: { authorization: 'Bearer wrong-token-wrong-token-wrong' },
      payload: { ...subscription(), orderNumber: order.orderNumber, email: 'ada@example.com' },
    });
    expect(wrongToken.statusCode).toBe(401);
    expect(await app.store.pushSubscriptions.list({ orderId: order.id })).toEqual([]);
  });

  test('subscriptions that are not valid Push API subscriptions are 400', async (t) => {
    const app = await build(t);
    const good = subscription();
    const compressed = createECDH('prime256v1');
    compressed.generateKeys();
    const bad: [string, Record<string, unknown>][] = [
      ['http endpoint', { ...good, endpoint: 'http://fcm.googleapis.com/fcm/send/x' }],
      ['not a URL', { ...good, endpoint: 'fcm.googleapis.com/x' }],
      ['IP literal', { ...good, endpoint: 'https://10.0.0.5/push/x' }],
      ['IPv6 literal', { ...good, endpoint: 'https://[::1]:8443/push/x' }],
      ['localhost', { ...good, endpoint: 'https://localhost:8443/push/x' }],
      ['single-label host', { ...good, endpoint: 'https://intranet/push/x' }],
      ['no keys', { endpoint: good.endpoint }],
      ['p256dh too short', { ...good, keys: { ...good.keys, p256dh: randomBytes(64).toString('base64url') } }],
      [
        'p256dh compressed',
        { ...good, keys: { ...good.keys, p256dh: compressed.getPublicKey(null, 'compressed').toString('base64url') } },
      ],
      ['p256dh not a point', { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 7).toString('base64url') } }],
      ['auth 15 bytes', { ...good, keys: { ...good.keys, auth: randomBytes(15).toString('base64url') } }],
      ['auth standard base64', { ...good, keys: { ...good.keys, auth: '+/+/+/+/+/+/+/+/+/+/+A' } }],
      ['keys not strings', { ...good, keys: { p256dh: 1, auth: 2 } }],
    ];
    for (const [what, payload] of bad) {
      const res = await app.inject({ method: 'POST', url: '/api/push/subscribe', headers: adminHeaders, payload });
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toEqual({ ...errorShape, code: 'VALIDATION_FAILED' });
    }
    expect(await app.store.pushSubscriptions.list({ scope: 'admin' })).toEqual([]);

    // padded base64url is accepted and stored unpadded
    const padded = { ...good, keys: { p256dh: `${good.keys.p256dh}=`, auth: `${good.keys.auth}==` } };
    const ok = await app.inject({ method: 'POST', url: '/api/push/subscribe', headers: adminHeaders, payload: padded });
    expect(ok.statusCode).toBe(201);
    expect((await app.store.pushSubscriptions.list({ scope: 'admin' }))[0]).toMatchObject(good.keys);
  });

  test('round 2: an order takes at most 10 subscriptions: 409 SUBSCRIPTION_LIMIT beyond; a known endpoint is still 200', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_PUSH_PER_MIN: '1000' } });
    const order = await app.store.orders.create(newOrder({ customerEmail: 'ada@example.com' }), { by: 'customer' });
    const post = (sub: ReturnType<typeof subscription>) =>
      app.inject({
        method: 'POST',
        url: '/api/push/subscribe',
        payload: { ...sub, orderNumber: order.orderNumber, email: 'ada@example.com' },
      });
    const subs = Array.from({ length: 16 }, () => subscription());
    const answers = await Promise.all(subs.map(post));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(10);
    for (const r of answers.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ ...errorShape, code: 'SUBSCRIPTION_LIMIT' });
    }
    expect(await app.store.pushSubscriptions.list({ orderId: order.id })).toHaveLength(10);
    const kept = subs[answers.findIndex((r) => r.statusCode === 201)] as ReturnType<typeof subscription>;
    expect((await post(kept)).statusCode).toBe(200);
    // Admin subscriptions are not an order's.
    expect((await adminSubscribe(app)).statusCode).toBe(201);
  });

  test('round 2: endpoints must be https on port 443; hosts in PUSH_ALLOW_HOSTS keep their port', async (t) => {
    const app = await build(t, { env: { PUSH_ALLOW_HOSTS: 'relay.booth.example' } });
    for (const endpoint of [
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://fcm.googleapis.com:25/fcm/send/x',
      'https://updates.push.services.mozilla.com:80/wpush/v2/x',
    ]) {
      const res = await adminSubscribe(app, subscription(endpoint));
      expect(res.statusCode, endpoint).toBe(400);
      expect(JSON.parse(res.json().details)).toEqual([
        { in: 'body', field: 'endpoint', message: 'endpoint must be on the https port (443)' },
      ]);
    }
    expect(await app.store.pushSubscriptions.list({ scope: 'admin' })).toEqual([]);
    for (const endpoint of ['https://fcm.googleapis.com:443/fcm/send/y', 'https://relay.booth.example:8443/push/z']) {
      expect((await adminSubscribe(app, subscription(endpoint))).statusCode, endpoint).toBe(201);
    }
  });

  test('customers are rate limited per address; admins are not', async (t) => {
    const app = await build(t, { env: { RATE_LIMIT_PUSH_PER_MIN: '3' } });
    const order = await app.store.orders.create(newOrder(), { by: 'customer' });
    const customer = () =>
      app.inject({
        method: 'POST',
        url: '/api/push/subscribe',
        payload: { ...subscription(), orderNumber: order.orderNumber, email: 'nobody@example.com' },
      });
    for (let i = 0; i < 3; i++) expect((await customer()).statusCode).toBe(404);
    const limited = await customer();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const admin = await app.inject({
      method: 'POST',
      url: '/api/push/subscribe',
      headers: adminHeaders,
      payload: subscription(),
    });
    expect(admin.statusCode).toBe(201);
  });
});
