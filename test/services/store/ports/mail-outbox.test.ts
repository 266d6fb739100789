/** The mail outbox port's conformance suite (src/services/store/ports/mail-outbox.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';
import { newOrder } from '../../../support/store-fixtures.js';

describeOnEngines('mail outbox port', (open) => {
  test('jobs enqueued with a create belong to it, are leased on claim, retried, and sent once', async (t) => {
    const { orders, outbox } = await open(t);
    const order = await orders.create(newOrder(), {
      by: 'customer',
      mail: [
        { kind: 'receipt', orderId: null, payload: { copy: 'ops@example.com', n: 1 } },
        { kind: 'operator', orderId: null, payload: {} },
      ],
    });
    expect(await outbox.pendingCount()).toBe(2);

    const now = new Date(Date.now() + 1000);
    const lease = 60_000;
    const claimed = await outbox.claimDue(now, 10, lease);
    expect(claimed.map((j) => j.kind).sort()).toEqual(['operator', 'receipt']);
    for (const job of claimed) {
      expect(job).toMatchObject({ orderId: order.id, attempts: 0, sentAt: null, lastError: null, sentVia: null });
      expect(Date.parse(job.nextAttemptAt)).toBe(now.getTime() + lease);
    }
    expect(claimed.find((j) => j.kind === 'receipt')?.payload).toEqual({ copy: 'ops@example.com', n: 1 });

    // leased: not claimed again until the lease ends
    expect(await outbox.claimDue(now, 10, lease)).toEqual([]);
    expect(await outbox.claimDue(new Date(now.getTime() + lease - 1), 10, lease)).toEqual([]);
    const afterLease = new Date(now.getTime() + lease);
    expect(await outbox.claimDue(afterLease, 1, lease)).toHaveLength(1);
    expect(await outbox.claimDue(afterLease, 10, lease)).toHaveLength(1);

    // failure: scheduled for retry with the error kept
    const job = claimed[0];
    if (!job) throw new Error('no job');
    const retryAt = new Date(afterLease.getTime() + 10 * lease);
    await outbox.markFailed(job.id, 'smtp: 451 try later', retryAt);
    expect((await outbox.claimDue(new Date(retryAt.getTime() - 1), 10, lease)).map((j) => j.id)).not.toContain(job.id);
    const retried = await outbox.claimDue(retryAt, 10, lease);
    expect(retried.find((j) => j.id === job.id)).toMatchObject({ attempts: 1, lastError: 'smtp: 451 try later' });

    // sent: never claimed again
    await outbox.markSent(job.id, 'smtp', new Date());
    expect(await outbox.pendingCount()).toBe(1);
    const rest = await outbox.claimDue(new Date(Date.now() + 365 * 86_400_000), 10, lease);
    expect(rest.map((j) => j.id)).not.toContain(job.id);
    expect(rest).toHaveLength(1);
  });

  test('concurrent claims, also from a second store on the same database, never hand out the same job twice', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const jobs = await a.outbox.enqueue(
      Array.from({ length: 30 }, (_, i) => ({ kind: 'operator' as const, orderId: null, payload: { i } })),
    );
    expect(jobs).toHaveLength(30);
    expect(jobs[0]).toMatchObject({ kind: 'operator', orderId: null, payload: { i: 0 }, attempts: 0, sentAt: null });
    const now = new Date(Date.now() + 1000);
    const batches = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).outbox.claimDue(now, 7, 60_000)),
    );
    const ids = batches.flat().map((j) => j.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
