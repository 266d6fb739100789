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
