import { expect, test } from 'vitest';
import { HoldExpiryJob } from '../../../src/services/orders/hold-expiry.js';
import { waitFor } from '../../support/photos-fixtures.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { sqliteStore } from '../../support/store-engines.js';
import { newOrder } from '../../support/store-fixtures.js';

test('the job cancels lapsed holds at start and on its timer, leaves live ones, and stops', async (t) => {
  const store = await sqliteStore(t);
  const lapsed = await store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() - 1000).toISOString() }),
    { by: 'customer' },
  );
  const live = await store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    { by: 'customer' },
  );

  const log = recordingLogger();
  const job = new HoldExpiryJob({ orders: store.orders, log, intervalMs: 30 });
  job.start();
  t.onTestFinished(() => job.stop());
  await waitFor(async () => (await store.orders.get(lapsed.id))?.status === 'cancelled', 2000, 'the first run');
  // The change is visible as soon as it commits; the run logs it when the store has answered.
  await job.idle();
  expect(await store.orders.get(live.id)).toMatchObject({ held: true, status: 'pending' });
  expect(log.entries).toContainEqual({
    level: 'info',
    obj: { count: 1, orders: [lapsed.orderNumber] },
    msg: expect.stringContaining('cancelled'),
  });

  // A hold that lapses later is picked up by the timer.
  const soon = await store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 100).toISOString() }),
    { by: 'customer' },
  );
  await waitFor(async () => (await store.orders.get(soon.id))?.status === 'cancelled', 3000, 'a timed run');

  job.stop();
  await job.idle();
  const afterStop = await store.orders.create(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() - 1).toISOString() }),
    { by: 'customer' },
  );
  await new Promise((r) => setTimeout(r, 150));
  expect((await store.orders.get(afterStop.id))?.status).toBe('pending');
  expect(await job.runOnce()).toEqual([expect.objectContaining({ id: afterStop.id, status: 'cancelled' })]);
});

test('a failing store is logged, not thrown, and the next run tries again', async (t) => {
  const log = recordingLogger();
  let calls = 0;
  const job = new HoldExpiryJob({
    orders: {
      expireHolds: async () => {
        calls++;
        if (calls === 1) throw new Error('database is locked');
        return [];
      },
    },
    log,
  });
  t.onTestFinished(() => job.stop());
  expect(await job.runOnce()).toEqual([]);
  expect(log.entries[0]).toMatchObject({ level: 'error', msg: expect.stringContaining('hold expiry failed') });
  expect(await job.runOnce()).toEqual([]);
  expect(calls).toBe(2);
});
