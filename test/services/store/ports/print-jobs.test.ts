/** The print jobs port's conformance suite (src/services/store/ports/print-jobs.ts), on both engines. */
import { expect, test } from 'vitest';
import type { NewPrintJob } from '../../../../src/services/store/ports/print-jobs.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const job = (over: Partial<NewPrintJob> = {}): NewPrintJob => ({
  itemId: 'AX25-0001.1',
  orderId: 'order-1',
  line: 0,
  orderNumber: 'AX25-0001',
  eventSlug: 'AX2025',
  printer: 'booth',
  size: '4x6',
  copies: 2,
  auto: false,
  by: 'staff:0123abcd',
  runId: 'run-a',
  ...over,
});

describeOnEngines('print jobs port', (open) => {
  test('a job is begun sending with a unique job name, accepted, observed and finished once', async (t) => {
    const { printJobs } = await open(t);
    const { begun, busy } = await printJobs.begin([job(), job({ itemId: 'AX25-0001.2', line: 1 })]);
    expect(busy).toEqual([]);
    expect(begun).toHaveLength(2);
    const [a, b] = begun as [(typeof begun)[0], (typeof begun)[0]];
    expect(a).toMatchObject({ state: 'sending', jobId: null, copies: 2, by: 'staff:0123abcd', finishedAt: null });
    expect(a.jobName).toMatch(/^AX25-0001\.1#[0-9a-f]{8}$/);
    expect(a.jobName).not.toBe(b.jobName);
    expect(await printJobs.get(a.id)).toEqual(a);

    const queued = await printJobs.accepted(a.id, 17, 'pending');
    expect(queued).toMatchObject({ state: 'queued', jobId: 17, printerState: 'pending' });
    expect(await printJobs.accepted(a.id, 18, 'pending')).toBeNull();
    await printJobs.observe(a.id, 'processing', 'processing: Printing.');
    expect(await printJobs.get(a.id)).toMatchObject({ printerState: 'processing', reason: 'processing: Printing.' });
    expect((await printJobs.inFlight()).map((j) => j.id)).toEqual([a.id, b.id]);

    const done = await printJobs.finish(a.id, 'completed', null);
    expect(done).toMatchObject({ state: 'completed', finishedAt: expect.any(String) });
    expect(await printJobs.finish(a.id, 'canceled', 'too late')).toBeNull();
    await printJobs.observe(a.id, 'processing', null);
    expect((await printJobs.get(a.id))?.state).toBe('completed');
    expect((await printJobs.inFlight()).map((j) => j.id)).toEqual([b.id]);
    expect((await printJobs.recent(5)).map((j) => j.id)).toEqual([a.id]);
    expect(await printJobs.get('nope')).toBeNull();
  });

  test('one job in flight per line, also from a second process; an ended line can be sent again', async (t) => {
    const store = await open(t);
    const other = await reopenStore(t, store);
    const [first, second] = await Promise.all([store.printJobs.begin([job()]), other.printJobs.begin([job()])]);
    expect([first.begun.length, second.begun.length].sort()).toEqual([0, 1]);
    expect([...first.busy, ...second.busy]).toEqual(['AX25-0001.1']);
    const running = (first.begun[0] ?? second.begun[0]) as NonNullable<(typeof first.begun)[0]>;
    await store.printJobs.finish(running.id, 'canceled', 'job-canceled-by-user');
    const again = await other.printJobs.begin([job()]);
    expect(again.begun).toHaveLength(1);
    const all = await store.printJobs.forItems(['AX25-0001.1', 'AX25-0009.1']);
    expect(all.map((j) => j.state)).toEqual(['canceled', 'sending']);
    expect(await store.printJobs.forItems([])).toEqual([]);
  });

  test('a sending job of a stopped process is claimed by one process only', async (t) => {
    const store = await open(t);
    const other = await reopenStore(t, store);
    const { begun } = await store.printJobs.begin([job({ runId: 'stopped' })]);
    const id = begun[0]?.id as string;
    const claims = await Promise.all([
      store.printJobs.claim(id, 'stopped', 'run-b'),
      other.printJobs.claim(id, 'stopped', 'run-c'),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(['run-b', 'run-c']).toContain((await store.printJobs.get(id))?.runId);
    await store.printJobs.accepted(id, 3, 'pending');
    expect(await store.printJobs.claim(id, (await store.printJobs.get(id))?.runId as string, 'run-d')).toBe(false);
  });
});
