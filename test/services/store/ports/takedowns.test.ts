/** The takedown requests port's conformance suite (src/services/store/ports/takedowns.ts), on both engines. */
import { expect, test } from 'vitest';
import type { MailJobInput } from '../../../../src/services/store/ports/mail-outbox.js';
import type { NewTakedown, TakedownRecord } from '../../../../src/services/store/ports/takedowns.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const request = (over: Partial<NewTakedown> = {}): NewTakedown => ({
  eventSlug: 'Anime Expo',
  photoId: 'p1',
  photoNumber: '1',
  reason: 'me',
  email: 'cos@example.com',
  message: 'Please take it down',
  hides: true,
  ...over,
});

const mail = (r: TakedownRecord): MailJobInput => ({
  kind: 'takedown',
  orderId: null,
  payload: { email: r.email, decision: r.decision, photoNumber: r.photoNumber },
});
const by = 'admin:0123abcd' as const;

describeOnEngines('takedowns port', (open) => {
  test('a request is stored open, read back, listed newest first and filtered by status', async (t) => {
    const { takedowns } = await open(t);
    const a = await takedowns.create(request());
    const b = await takedowns.create(request({ photoId: 'p2', photoNumber: '2', reason: 'copyright', message: '' }));
    expect(a).toMatchObject({ status: 'open', decision: null, decidedAt: null, decidedBy: null, hides: true });
    expect(await takedowns.get(a.id)).toEqual(a);
    expect(await takedowns.get('nope')).toBeNull();
    expect((await takedowns.list()).map((r) => r.id)).toEqual([b.id, a.id]);
    await takedowns.decide(b.id, 'restore', { by, mail });
    expect((await takedowns.list({ status: 'open' })).map((r) => r.id)).toEqual([a.id]);
    expect((await takedowns.list({ status: 'decided' })).map((r) => r.id)).toEqual([b.id]);
  });

  test('hidden: open hide-first requests and removals; not review-first ones nor restored ones', async (t) => {
    const { takedowns } = await open(t);
    const hiding = await takedowns.create(request({ photoId: 'p1' }));
    await takedowns.create(request({ photoId: 'p2', hides: false }));
    const restored = await takedowns.create(request({ photoId: 'p3' }));
    const reviewed = await takedowns.create(request({ photoId: 'p4', hides: false }));
    await takedowns.decide(restored.id, 'restore', { by, mail });
    await takedowns.decide(reviewed.id, 'remove', { by, mail });
    const hidden = (await takedowns.hiddenPhotos()).map((h) => h.photoId).sort();
    expect(hidden).toEqual(['p1', 'p4']);
    await takedowns.decide(hiding.id, 'restore', { by, mail });
    expect((await takedowns.hiddenPhotos()).map((h) => h.photoId)).toEqual(['p4']);
  });

  test('a decision decides every open request for the photo, with one mail each in the same commit', async (t) => {
    const store = await open(t);
    const first = await store.takedowns.create(request({ email: 'a@example.com' }));
    const second = await store.takedowns.create(request({ email: 'b@example.com' }));
    const other = await store.takedowns.create(request({ photoId: 'p9', photoNumber: '9' }));
    const result = await store.takedowns.decide(second.id, 'remove', { by, mail });
    expect(result.changed).toBe(true);
    expect(result.decided.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    for (const r of result.decided) expect(r).toMatchObject({ status: 'decided', decision: 'remove', decidedBy: by });
    expect((await store.takedowns.get(first.id))?.decision).toBe('remove');
    expect((await store.takedowns.get(other.id))?.status).toBe('open');
    const jobs = await store.outbox.claimDue(new Date(Date.now() + 1000), 10, 60_000);
    expect(jobs.map((j) => j.payload.email).sort()).toEqual(['a@example.com', 'b@example.com']);
    expect(jobs.every((j) => j.kind === 'takedown')).toBe(true);
  });

  test('the same decision again changes nothing; the other is TAKEDOWN_DECIDED; unknown is TAKEDOWN_NOT_FOUND', async (t) => {
    const { takedowns } = await open(t);
    const r = await takedowns.create(request());
    await takedowns.decide(r.id, 'remove', { by, mail });
    const again = await takedowns.decide(r.id, 'remove', { by, mail });
    expect(again.changed).toBe(false);
    await expect(takedowns.decide(r.id, 'restore', { by, mail })).rejects.toMatchObject({ code: 'TAKEDOWN_DECIDED' });
    await expect(takedowns.decide('missing', 'remove', { by, mail })).rejects.toMatchObject({
      code: 'TAKEDOWN_NOT_FOUND',
    });
  });

  test('mail given with a new request commits with it, made from the record as stored', async (t) => {
    const store = await open(t);
    await store.takedowns.create(request(), {
      mail: (r) => [{ kind: 'operator', orderId: null, payload: { subject: 'Takedown', hidden: r.hides } }],
    });
    const [job] = await store.outbox.claimDue(new Date(Date.now() + 1000), 10, 60_000);
    expect(job?.payload).toEqual({ subject: 'Takedown', hidden: true });
  });

  test('round 2: hiding requests per client within the limit, never passed under concurrency; the rest kept for review', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const limit = (client: string) => ({ hideLimit: { client, max: 5, since: new Date(Date.now() - 3_600_000) } });
    // Eight at once from one client, from two processes: five hide.
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).takedowns.create(request({ photoId: `p${i}`, photoNumber: String(i) }), limit('client-x')),
      ),
    );
    expect(made.filter((r) => r.hides)).toHaveLength(5);
    expect((await a.takedowns.hiddenPhotos()).length).toBe(5);
    const kept = made.filter((r) => !r.hides);
    for (const r of kept) expect(await a.takedowns.get(r.id)).toMatchObject({ status: 'open', hides: false });
    // Another client has its own five; without a limit (the owner) nothing is counted.
    expect((await a.takedowns.create(request({ photoId: 'q1' }), limit('client-y'))).hides).toBe(true);
    expect((await a.takedowns.create(request({ photoId: 'q2' }))).hides).toBe(true);
    // Requests older than the window don't count.
    const later = { hideLimit: { client: 'client-x', max: 5, since: new Date(Date.now() + 1000) } };
    expect((await a.takedowns.create(request({ photoId: 'p9' }), later)).hides).toBe(true);
    // A request kept for review is decided like any other: removed, it hides the photo for good.
    await a.takedowns.decide((kept[0] as TakedownRecord).id, 'remove', { by, mail });
    expect(await a.takedowns.isRemoved('Anime Expo', (kept[0] as TakedownRecord).photoId)).toBe(true);
    expect(await a.takedowns.isRemoved('Anime Expo', 'q1')).toBe(false);
  });

  test('two stores on one database: concurrent opposite decisions, exactly one wins', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const r = await a.takedowns.create(request());
    expect((await b.takedowns.hiddenPhotos()).map((h) => h.photoId)).toEqual(['p1']);
    const outcomes = await Promise.allSettled([
      a.takedowns.decide(r.id, 'remove', { by, mail }),
      b.takedowns.decide(r.id, 'restore', { by, mail }),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).toBe('TAKEDOWN_DECIDED');
    expect(await a.outbox.pendingCount()).toBe(1);
  });
});
