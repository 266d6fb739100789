import path from 'node:path';
import { expect, test } from 'vitest';
import { HoldExpiryJob } from '../../../src/services/orders/hold-expiry.js';
import { createSqliteStore } from '../../../src/services/store/sqlite/index.js';
import { tempDir } from '../../helpers/build.js';
import { waitFor } from '../../support/photos-fixtures.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { newOrder } from '../../support/store-fixtures.js';

test('the job cancels lapsed holds at start and on its timer, leaves live ones, and stops', async (t) => {
  const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
  await store.init();
  t.onTestFinished(() => store.close());
  const lapsed = await store.createOrder(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() - 1000).toISOString() }),
  );
  const live = await store.createOrder(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
  );

  const log = recordingLogger();
  const job = new HoldExpiryJob({ store, log, intervalMs: 30 });
  job.start();
  t.onTestFinished(() => job.stop());
  await waitFor(async () => (await store.getOrder(lapsed.id))?.status === 'cancelled', 2000, 'the first run');
  expect(await store.getOrder(live.id)).toMatchObject({ held: true, status: 'pending' });
  expect(log.entries).toContainEqual({
    level: 'info',
    obj: { count: 1, orders: [lapsed.orderNumber] },
    msg: expect.stringContaining('cancelled'),
  });

  // A hold that lapses later is picked up by the timer.
  const soon = await store.createOrder(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() + 100).toISOString() }),
  );
  await waitFor(async () => (await store.getOrder(soon.id))?.status === 'cancelled', 3000, 'a timed run');

  job.stop();
  await job.idle();
  const afterStop = await store.createOrder(
    newOrder({ held: true, holdExpiresAt: new Date(Date.now() - 1).toISOString() }),
  );
  await new Promise((r) => setTimeout(r, 150));
  expect((await store.getOrder(afterStop.id))?.status).toBe('pending');
  expect(await job.runOnce()).toEqual([expect.objectContaining({ id: afterStop.id, status: 'cancelled' })]);
});

test('a failing store is logged, not thrown, and the next run tries again', async (t) => {
  const log = recordingLogger();
  let calls = 0;
  const job = new HoldExpiryJob({
    store: {
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
