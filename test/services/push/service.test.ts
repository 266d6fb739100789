import pino from 'pino';
import type { TestContext } from 'vitest';
import { describe, expect, test } from 'vitest';
import webpush from 'web-push';
import type { OrderRecord } from '../../../src/domain/order.js';
import { createPushNotifier, type PushOutcome } from '../../../src/services/push/service.js';
import { sqliteStore } from '../../support/mail-env.js';
import { saveSubscriber, startPushService } from '../../support/push-service.js';
import { newOrder } from '../../support/store-fixtures.js';

async function setup(t: TestContext, opts: { retryBaseMs?: number; maxAttempts?: number } = {}) {
  const store = await sqliteStore(t);
  const service = await startPushService(t);
  const vapid = webpush.generateVAPIDKeys();
  const notifier = createPushNotifier({
    store: store.pushSubscriptions,
    vapid,
    subject: 'mailto:photos@example.com',
    publicBaseUrl: 'https://photos.example.com',
    log: pino({ level: 'silent' }),
    egress: service.egress,
    retryBaseMs: opts.retryBaseMs ?? 10,
    maxAttempts: opts.maxAttempts ?? 3,
  });
  t.onTestFinished(() => notifier.close());
  const outcomes: PushOutcome[] = [];
  notifier.onOutcome((o) => outcomes.push(o));
  return { store, service, notifier, vapid, outcomes };
}

describe('push delivery', () => {
  test('a new order reaches admin subscriptions only: encrypted, VAPID-signed, decrypted by the service', async (t) => {
    const { store, service, notifier, vapid } = await setup(t);
    const admin = service.subscriber();
    const customer = service.subscriber();
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    await saveSubscriber(store, admin, 'admin');
    await saveSubscriber(store, customer, 'order', order.id);

    notifier.notifyOrder('created', order);
    await notifier.drain();

    expect(service.to(customer.endpoint)).toEqual([]);
    const [push] = service.to(admin.endpoint);
    expect(push?.decryptError).toBeUndefined();
    expect(push?.contentEncoding).toBe('aes128gcm');
    expect(push?.vapid).toMatchObject({ valid: true, publicKey: vapid.publicKey });
    expect(push?.vapid.claims?.sub).toBe('mailto:photos@example.com');
    expect(push?.ttl).toBe(String(24 * 3600));
    expect(push?.payload).toEqual({
      title: `New order ${order.orderNumber}`,
      body: 'Ada Lovelace · $35.00 · to ship',
      orderNumber: order.orderNumber,
      url: `https://photos.example.com/admin?order=${order.orderNumber}`,
      event: 'created',
      status: 'pending',
      shippingStatus: 'ship',
      tag: `order-${order.orderNumber}`,
    });
  });

  test("status and shipping changes reach admins and that order's subscriptions, not other orders'", async (t) => {
    const { store, service, notifier } = await setup(t);
    const admin = service.subscriber();
    const mine = service.subscriber();
    const other = service.subscriber();
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    const otherOrder = await store.orders.create(newOrder(), { by: 'customer' });
    await saveSubscriber(store, admin, 'admin');
    await saveSubscriber(store, mine, 'order', order.id);
    await saveSubscriber(store, other, 'order', otherOrder.id);

    const paid = (await store.orders.update(order.id, { status: 'paid' }, { by: 'admin' })).order;
    notifier.notifyOrder('status', paid);
    const shipped = (
      await store.orders.setShipping(
        order.id,
        { shipped: true, trackingNumber: '1Z999', printAll: true },
        { by: 'admin' },
      )
    ).order;
    notifier.notifyOrder('shipping', shipped);
    await notifier.drain();

    expect(service.to(other.endpoint)).toEqual([]);
    expect(service.to(admin.endpoint).map((p) => (p.payload as { title: string }).title)).toEqual([
      `Order ${order.orderNumber} is paid`,
      `Order ${order.orderNumber} shipped`,
    ]);
    const customerPushes = service.to(mine.endpoint).map((p) => p.payload as Record<string, string>);
    expect(customerPushes).toEqual([
      expect.objectContaining({ title: `Your order ${order.orderNumber} is paid`, event: 'status' }),
      expect.objectContaining({
        title: `Your order ${order.orderNumber} has shipped`,
        body: 'Tracking number: 1Z999',
        url: `https://photos.example.com/?order=${order.orderNumber}`,
      }),
    ]);
    // the customer's payload does not carry the admin view
    expect(JSON.stringify(customerPushes)).not.toContain('Ada Lovelace');
    expect(service.received.every((p) => p.vapid.valid && !p.decryptError)).toBe(true);
  });

  test('410 Gone removes the subscription; 404 too', async (t) => {
    const { store, service, notifier, outcomes } = await setup(t);
    const gone = service.subscriber();
    const missing = service.subscriber();
    const alive = service.subscriber();
    for (const s of [gone, missing, alive]) await saveSubscriber(store, s, 'admin');
    service.respond(gone.endpoint, [410]);
    service.respond(missing.endpoint, [404]);
    const order = await store.orders.create(newOrder(), { by: 'customer' });

    notifier.notifyOrder('created', order);
    await notifier.drain();
    const left = await store.pushSubscriptions.list({ scope: 'admin' });
    expect(left.map((s) => s.endpoint)).toEqual([alive.endpoint]);
    expect(
      outcomes
        .filter((o) => o.result === 'removed')
        .map((o) => o.statusCode)
        .sort(),
    ).toEqual([404, 410]);

    notifier.notifyOrder('created', order);
    await notifier.drain();
    expect(service.to(gone.endpoint)).toHaveLength(1);
    expect(service.to(alive.endpoint)).toHaveLength(2);
  });

  test('500 is retried, then delivered; the subscription stays', async (t) => {
    const { store, service, notifier, outcomes } = await setup(t);
    const flaky = service.subscriber();
    await saveSubscriber(store, flaky, 'admin');
    service.respond(flaky.endpoint, [500, 503, 201]);
    notifier.notifyOrder('created', await store.orders.create(newOrder(), { by: 'customer' }));
    await notifier.drain();
    expect(service.to(flaky.endpoint).map((p) => p.status)).toEqual([500, 503, 201]);
    expect(outcomes).toEqual([{ endpoint: flaky.endpoint, result: 'delivered', attempts: 3 }]);
  });

  test('500 for ever: given up after the attempts, subscription kept, nothing thrown', async (t) => {
    const { store, service, notifier, outcomes } = await setup(t, { maxAttempts: 3 });
    const down = service.subscriber();
    await saveSubscriber(store, down, 'admin');
    service.respond(down.endpoint, [500]);
    notifier.notifyOrder('created', await store.orders.create(newOrder(), { by: 'customer' }));
    await notifier.drain();
    expect(service.to(down.endpoint)).toHaveLength(3);
    expect(outcomes).toEqual([{ endpoint: down.endpoint, result: 'gave-up', attempts: 3, statusCode: 500 }]);
    expect(await store.pushSubscriptions.list({ scope: 'admin' })).toHaveLength(1);
  });

  test('429 honours Retry-After; 400 is not retried', async (t) => {
    // A backoff of an hour: were Retry-After ignored, drain() would never end and the test
    // would fail on its timeout (no clock read here, so a slow machine can't fail it).
    const { store, service, notifier, outcomes } = await setup(t, { retryBaseMs: 3_600_000 });
    const limited = service.subscriber();
    const refused = service.subscriber();
    await saveSubscriber(store, limited, 'admin');
    await saveSubscriber(store, refused, 'admin');
    service.respond(limited.endpoint, [429, 201], { 'retry-after': '0' });
    service.respond(refused.endpoint, [400]);
    notifier.notifyOrder('created', await store.orders.create(newOrder(), { by: 'customer' }));
    await notifier.drain();
    expect(service.to(limited.endpoint).map((p) => p.status)).toEqual([429, 201]);
    expect(service.to(refused.endpoint)).toHaveLength(1);
    expect(outcomes.find((o) => o.endpoint === refused.endpoint)).toMatchObject({ result: 'gave-up', attempts: 1 });
  });

  test('notifyOrder returns at once and never throws, even when the store fails', async (t) => {
    const { store, service, notifier } = await setup(t);
    await saveSubscriber(store, service.subscriber(), 'admin');
    const order = await store.orders.create(newOrder(), { by: 'customer' });
    await store.close();
    // "At once": it hands back nothing to wait on, and nothing has been sent when it returns.
    let returned: unknown = 'not called';
    expect(() => {
      returned = notifier.notifyOrder('created', order);
    }).not.toThrow();
    expect(returned).toBeUndefined();
    expect(service.received).toEqual([]);
    await notifier.drain();
    expect(service.received).toEqual([]);
  });

  test('close() cuts retry waits short so drain() ends quickly', async (t) => {
    // Waits of an hour: were they not cut short, drain() would never end and the test would
    // fail on its timeout (no clock read here, so a slow machine can't fail it).
    const { store, service, notifier } = await setup(t, { retryBaseMs: 3_600_000, maxAttempts: 5 });
    const down = service.subscriber();
    await saveSubscriber(store, down, 'admin');
    service.respond(down.endpoint, [503]);
    notifier.notifyOrder('created', (await store.orders.create(newOrder(), { by: 'customer' })) as OrderRecord);
    // let the first attempt fail and the long wait begin
    await expect.poll(() => service.to(down.endpoint).length).toBe(1);
    notifier.close();
    await notifier.drain();
    expect(service.to(down.endpoint)).toHaveLength(1);
  });
});
