/**
 * Push endpoints are the one URL a request can make this server call, so they are where an
 * attacker would aim it at the inside of the network (docs/contract.md, "Hardening"):
 *
 * - at subscribe time, a local name however it is spelt (`localhost.`, `foo.localhost.`) is
 *   refused, and so is a `p256dh` key that is not a point on P-256;
 * - at send time, the address actually connected to is checked: a subscription already in
 *   the store (from an earlier version, or a name that resolves somewhere else today) never
 *   makes the server open a connection to loopback, and `PUSH_ALLOW_HOSTS` is the one way
 *   to let it (tests, an on-premises relay).
 *
 * Each "internal service" here is a TCP listener on loopback that counts the connections it
 * is offered: a connection at all is the SSRF, whatever would have been said over it.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { adminHeaders, build, type TestApp } from '../helpers/build.js';
import { countingListener } from '../support/counting-listener.js';
import { bodyA, ordersApp } from '../support/orders-fixtures.js';

function keys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** An admin subscription put straight into the store (the route would refuse these). */
function storeSubscription(app: TestApp, endpoint: string) {
  return app.store.pushSubscriptions.save({
    endpoint,
    ...keys(),
    scope: 'admin',
    orderId: null,
    createdAt: new Date().toISOString(),
  });
}

/** A booth order: it notifies every admin subscription; resolves when the pushes are done. */
async function orderAndPush(app: TestApp): Promise<void> {
  const order = await app.inject({
    method: 'POST',
    url: '/api/orders/create',
    headers: adminHeaders,
    payload: bodyA(),
  });
  expect(order.statusCode, order.body).toBe(201);
  await app.push.drain();
}

describe('push subscriptions: SSRF', () => {
  test('subscribe refuses local names however spelt, and a p256dh that is not a P-256 point', async (t) => {
    const app = await build(t);
    const subscribe = (endpoint: string, k = keys()) =>
      app.inject({ method: 'POST', url: '/api/push/subscribe', headers: adminHeaders, payload: { endpoint, keys: k } });

    for (const endpoint of [
      'https://localhost./push/x',
      'https://LocalHost.:8443/push/x',
      'https://foo.localhost./push/x',
      'https://foo.localhost../push/x',
    ]) {
      const res = await subscribe(endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().code, endpoint).toBe('VALIDATION_FAILED');
    }
    // 65 bytes starting 0x04, the shape of a point, but not on the curve.
    const offCurve = Buffer.concat([Buffer.from([4]), randomBytes(64)]);
    offCurve[64] = (offCurve[64] ?? 0) ^ 1;
    const bad = await subscribe('https://fcm.googleapis.com/fcm/send/abc', {
      ...keys(),
      p256dh: offCurve.toString('base64url'),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect(bad.json().details).toMatch(/p256dh/);
    // A public name with a trailing dot is the same name: accepted.
    expect((await subscribe('https://fcm.googleapis.com./fcm/send/abc')).statusCode).toBe(201);
    expect(await app.store.pushSubscriptions.list({ scope: 'admin' })).toHaveLength(1);
  });

  test('stored endpoints on loopback, however written, are never connected to', async (t) => {
    const app = await ordersApp(t);
    const targets = [
      (p: number) => `https://localhost:${p}/push/a`, // a name that resolves to loopback
      (p: number) => `https://localhost.:${p}/push/b`,
      (p: number) => `https://127.0.0.1:${p}/push/c`,
      (p: number) => `https://0.0.0.0:${p}/push/d`, // "this host": reaches loopback listeners
      (p: number) => `https://[::ffff:127.0.0.1]:${p}/push/e`, // IPv4-mapped IPv6
    ];
    const services: { endpoint: string; connections: () => number }[] = [];
    for (const target of targets) {
      const service = await countingListener(t);
      const endpoint = target(service.port);
      services.push({ endpoint, connections: service.connections });
      await storeSubscription(app, endpoint);
    }
    await orderAndPush(app);
    expect(services.map((s) => [s.endpoint, s.connections()])).toEqual(services.map((s) => [s.endpoint, 0]));
  });

  test('PUSH_ALLOW_HOSTS lets named hosts through, and only them', async (t) => {
    const app = await ordersApp(t, { env: { PUSH_ALLOW_HOSTS: 'relay.invalid, localhost' } });
    const allowed = await countingListener(t);
    const other = await countingListener(t);
    const subscribe = (endpoint: string) =>
      app.inject({
        method: 'POST',
        url: '/api/push/subscribe',
        headers: adminHeaders,
        payload: { endpoint, keys: keys() },
      });
    // Named: accepted at subscribe time, and contacted.
    expect((await subscribe(`https://localhost:${allowed.port}/push/relay`)).statusCode).toBe(201);
    // Not named (the same machine by address): refused, and never contacted.
    expect((await subscribe(`https://127.0.0.1:${other.port}/push/x`)).statusCode).toBe(400);
    await storeSubscription(app, `https://127.0.0.1:${other.port}/push/stored`);
    await orderAndPush(app);
    expect(allowed.connections()).toBeGreaterThan(0);
    expect(other.connections()).toBe(0);
  });
});
