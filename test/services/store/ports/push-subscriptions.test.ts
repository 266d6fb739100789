/** The push subscriptions port's conformance suite (src/services/store/ports/push-subscriptions.ts), on both engines. */
import { expect, test } from 'vitest';
import type { PushSubscriptionRecord } from '../../../../src/services/store/ports/push-subscriptions.js';
import { describeOnEngines } from '../../../support/store-engines.js';

const base: PushSubscriptionRecord = {
  endpoint: 'https://push.example.net/send/abc?x=1',
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
  scope: 'admin',
  orderId: null,
  createdAt: '2026-07-04T10:00:00.000Z',
};

describeOnEngines('push subscriptions port', (open) => {
  test('upsert by endpoint and order (new keys kept, first time kept), list by scope or order, delete by endpoint', async (t) => {
    const { pushSubscriptions: subs } = await open(t);
    const orderId = '00000000-0000-4000-8000-00000000000a';
    expect(await subs.save(base)).toEqual({ created: true });
    const rekeyed = { ...base, auth: 'newAuthSecret', createdAt: '2026-07-05T10:00:00.000Z' };
    expect(await subs.save(rekeyed)).toEqual({ created: false });
    expect(await subs.list({ scope: 'admin' })).toEqual([{ ...base, auth: 'newAuthSecret' }]);

    const forOrder = { ...base, scope: 'order' as const, orderId };
    expect(await subs.save(forOrder)).toEqual({ created: true });
    const other = { ...forOrder, endpoint: 'https://push.example.net/send/def', createdAt: '2026-07-06T10:00:00.000Z' };
    expect(await subs.save(other)).toEqual({ created: true });
    expect(await subs.list({ orderId })).toEqual([forOrder, other]);
    expect(await subs.list({ scope: 'admin' })).toHaveLength(1);
    expect(await subs.list({ orderId: 'someone-else' })).toEqual([]);

    await subs.delete(base.endpoint);
    expect(await subs.list({ scope: 'admin' })).toEqual([]);
    expect(await subs.list({ orderId })).toEqual([other]);
    await subs.delete('https://push.example.net/unknown');
  });

  test('the same endpoint saved twice at once: one is created, the other finds it', async (t) => {
    const { pushSubscriptions: subs } = await open(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => subs.save(base)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await subs.list({ scope: 'admin' })).toHaveLength(1);
  });
});

describeOnEngines('push subscriptions port: the cap per order', (open) => {
  test('maxPerOrder: never passed under concurrency; a known endpoint still updates; admin ones are not capped', async (t) => {
    const { pushSubscriptions: subs } = await open(t);
    const orderId = '00000000-0000-4000-8000-00000000000b';
    const sub = (i: number): PushSubscriptionRecord => ({
      ...base,
      scope: 'order',
      orderId,
      endpoint: `https://push.example.net/send/${i}`,
    });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => subs.save(sub(i), { maxPerOrder: 5 })));
    expect(results.filter((r) => r.created)).toHaveLength(5);
    expect(results.filter((r) => r.full)).toHaveLength(3);
    expect(await subs.list({ orderId })).toHaveLength(5);
    const kept = (await subs.list({ orderId }))[0] as PushSubscriptionRecord;
    // Already one of the five: updated, not refused.
    expect(await subs.save({ ...kept, auth: 'rotated' }, { maxPerOrder: 5 })).toEqual({ created: false });
    // Another order has its own five; admin subscriptions have no cap.
    expect(await subs.save({ ...sub(9), orderId: 'another-order' }, { maxPerOrder: 5 })).toEqual({ created: true });
    for (let i = 0; i < 7; i++) {
      expect(await subs.save({ ...base, endpoint: `https://push.example.net/admin/${i}` }, { maxPerOrder: 5 })).toEqual(
        {
          created: true,
        },
      );
    }
  });
});
