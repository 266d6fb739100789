/** The photo codes port's conformance suite (src/services/store/ports/photo-codes.ts), on both engines. */
import { createECDH, randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { newPhotoCode } from '../../../../src/domain/photo-code.js';
import type {
  NewPhotoCodeSubscription,
  PhotoCodeRecord,
  PhotoCodesPort,
} from '../../../../src/services/store/ports/photo-codes.js';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const record = (code: string, issuedVia: PhotoCodeRecord['issuedVia'] = 'app'): PhotoCodeRecord => ({
  code,
  issuedVia,
  createdAt: new Date().toISOString(),
});

/** A subscribe under a cap of 10 that must not hit it. */
async function subscribed(port: PhotoCodesPort, sub: NewPhotoCodeSubscription) {
  const result = await port.subscribe(sub, 10);
  if (result.outcome === 'full') throw new Error('unexpected: full');
  return result;
}

/** A confirmation token's hash, unique per subscription (the record keeps only the hash). */
const tokenHash = () => randomBytes(16).toString('base64url');

function pushKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describeOnEngines('photo codes port', (open) => {
  test('codes are issued once; a code issued before is left out of the answer', async (t) => {
    const { photoCodes } = await open(t);
    expect(await photoCodes.isIssued('K7M2Q9TX')).toBe(false);
    expect(await photoCodes.issue([record('K7M2Q9TX'), record('AB12CD34', 'card')])).toEqual(['K7M2Q9TX', 'AB12CD34']);
    expect(await photoCodes.issue([record('K7M2Q9TX', 'admin'), record('ZZ99ZZ99', 'admin')])).toEqual(['ZZ99ZZ99']);
    expect(await photoCodes.isIssued('K7M2Q9TX')).toBe(true);
    expect(await photoCodes.get('K7M2Q9TX')).toMatchObject({ code: 'K7M2Q9TX', issuedVia: 'app' });
    expect(await photoCodes.get('AB12CD34')).toMatchObject({ issuedVia: 'card' });
    expect(await photoCodes.get('00000000')).toBeNull();
    await expect(photoCodes.issue([record('not-a-code')])).rejects.toThrow();
  });

  test('a batch of 500 card codes in one call', async (t) => {
    const { photoCodes } = await open(t);
    const codes = Array.from({ length: 500 }, () => newPhotoCode());
    const issued = await photoCodes.issue(codes.map((c) => record(c, 'card')));
    expect(new Set(issued).size).toBe(new Set(codes).size);
    expect(await photoCodes.isIssued(codes[499] as string)).toBe(true);
  });

  test('subscriptions: one per push endpoint or email (any case) per code; keys updated, what was told kept', async (t) => {
    const { photoCodes } = await open(t);
    await photoCodes.issue([record('K7M2Q9TX'), record('AB12CD34')]);
    const keys = pushKeys();
    const endpoint = 'https://push.example.com/send/abc';
    const first = await subscribed(photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'push',
      endpoint,
      ...keys,
      notifiedCount: 2,
    });
    expect(first.outcome).toBe('created');
    expect(first.subscription).toMatchObject({ channel: 'push', endpoint, notifiedCount: 2, notifiedAt: null });
    const mail = await subscribed(photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'email',
      email: 'Ann@Example.com',
      notifiedCount: 2,
      confirmTokenHash: 'hash-of-anns-token',
    });
    expect(mail.outcome).toBe('created');
    expect(mail.subscription).toMatchObject({ channel: 'email', email: 'Ann@Example.com', confirmed: false });
    expect(first.subscription.confirmed).toBe(true);
    // The same endpoint for another code is another subscription.
    expect(
      (await subscribed(photoCodes, { code: 'AB12CD34', channel: 'push', endpoint, ...keys, notifiedCount: 0 }))
        .outcome,
    ).toBe('created');

    expect(await photoCodes.markNotified(first.subscription.id, 5, new Date())).toBe(true);
    const newKeys = pushKeys();
    const again = await subscribed(photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'push',
      endpoint,
      ...newKeys,
      notifiedCount: 9,
    });
    expect(again.outcome).toBe('existing');
    expect(again.subscription).toMatchObject({ id: first.subscription.id, p256dh: newKeys.p256dh, notifiedCount: 5 });
    const mailAgain = await subscribed(photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'email',
      email: 'ann@example.COM',
      notifiedCount: 0,
      confirmTokenHash: tokenHash(),
    });
    expect(mailAgain.outcome).toBe('existing');
    // Asking again keeps the first link: the new token is not taken.
    expect((await photoCodes.byConfirmToken('hash-of-anns-token'))?.id).toBe(mail.subscription.id);

    // Not confirmed: its code is watched for the push subscription only.
    expect(await photoCodes.watchedCodes()).toEqual([
      { code: 'AB12CD34', leastNotified: 0 },
      { code: 'K7M2Q9TX', leastNotified: 5 },
    ]);
    const confirmed = await photoCodes.confirm('hash-of-anns-token', new Date());
    expect(confirmed).toMatchObject({
      outcome: 'confirmed',
      subscription: { id: mail.subscription.id, confirmed: true },
    });
    expect((await photoCodes.confirm('hash-of-anns-token', new Date()))?.outcome).toBe('already');
    expect(await photoCodes.confirm('no-such-hash', new Date())).toBeNull();
    expect(await photoCodes.byConfirmToken('no-such-hash')).toBeNull();

    const subs = await photoCodes.subscriptions('K7M2Q9TX');
    expect(subs.map((s) => s.channel).sort()).toEqual(['email', 'push']);
    expect(await photoCodes.watchedCodes()).toEqual([
      { code: 'AB12CD34', leastNotified: 0 },
      { code: 'K7M2Q9TX', leastNotified: 2 },
    ]);

    // A push service that says the endpoint is gone: every code's subscription of it goes.
    await photoCodes.removeEndpoint(endpoint);
    expect((await photoCodes.subscriptions('K7M2Q9TX')).map((s) => s.channel)).toEqual(['email']);
    expect(await photoCodes.subscriptions('AB12CD34')).toEqual([]);
  });

  test('a subscription to a code never issued is refused', async (t) => {
    const { photoCodes } = await open(t);
    await expect(
      photoCodes.subscribe(
        { code: 'K7M2Q9TX', channel: 'email', email: 'a@example.com', notifiedCount: 0, confirmTokenHash: tokenHash() },
        10,
      ),
    ).rejects.toThrow();
  });

  test('at most maxPerCode subscriptions per code, also when they race; again for one already there is fine', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    await a.photoCodes.issue([record('K7M2Q9TX')]);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).photoCodes.subscribe(
          {
            code: 'K7M2Q9TX',
            channel: 'email',
            email: `p${i}@example.com`,
            notifiedCount: 0,
            confirmTokenHash: tokenHash(),
          },
          3,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o.outcome === 'full')).toHaveLength(5);
    expect(await a.photoCodes.subscriptions('K7M2Q9TX')).toHaveLength(3);
    const kept = outcomes.find((o) => o.outcome === 'created')?.subscription;
    if (kept?.channel !== 'email') throw new Error('expected an email subscription');
    expect(
      (await a.photoCodes.subscribe({ ...kept, channel: 'email', confirmTokenHash: tokenHash() }, 3)).outcome,
    ).toBe('existing');
  });

  test('round 2: a new email subscription queues its confirmation request with it; asking again queues nothing', async (t) => {
    const store = await open(t);
    await store.photoCodes.issue([record('K7M2Q9TX')]);
    const ask = () =>
      store.photoCodes.subscribe(
        { code: 'K7M2Q9TX', channel: 'email', email: 'a@example.com', notifiedCount: 0, confirmTokenHash: tokenHash() },
        10,
        {
          mail: (sub) => ({
            kind: 'code-confirm',
            orderId: null,
            payload: { to: sub.channel === 'email' ? sub.email : '' },
          }),
        },
      );
    expect((await ask()).outcome).toBe('created');
    expect((await ask()).outcome).toBe('existing');
    const jobs = await store.outbox.claimDue(new Date(Date.now() + 1000), 10, 60_000);
    expect(jobs.map((j) => [j.kind, j.payload.to])).toEqual([['code-confirm', 'a@example.com']]);
  });

  test('markNotified moves forward only, and enqueues its mail in the same transaction', async (t) => {
    const store = await open(t);
    const { photoCodes, outbox } = store;
    await photoCodes.issue([record('K7M2Q9TX')]);
    const { subscription } = await subscribed(photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'email',
      email: 'a@example.com',
      notifiedCount: 0,
      confirmTokenHash: tokenHash(),
    });
    const mail = { kind: 'photos' as const, orderId: null, payload: { code: 'K7M2Q9TX', to: 'a@example.com' } };
    expect(await photoCodes.markNotified(subscription.id, 3, new Date(), mail)).toBe(true);
    expect(await outbox.pendingCount()).toBe(1);
    // Told about 3 already: 3 again or fewer moves nothing and queues nothing.
    expect(await photoCodes.markNotified(subscription.id, 3, new Date(), mail)).toBe(false);
    expect(await photoCodes.markNotified(subscription.id, 2, new Date(), mail)).toBe(false);
    expect(await outbox.pendingCount()).toBe(1);
    const [now] = await photoCodes.subscriptions('K7M2Q9TX');
    expect(now).toMatchObject({ notifiedCount: 3 });
    expect(now?.notifiedAt).not.toBeNull();
  });

  test('two stores on one database (two processes) racing to tell one arrival: one wins, one mail', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    await a.photoCodes.issue([record('K7M2Q9TX')]);
    expect(await b.photoCodes.isIssued('K7M2Q9TX')).toBe(true);
    const { subscription } = await subscribed(b.photoCodes, {
      code: 'K7M2Q9TX',
      channel: 'email',
      email: 'a@example.com',
      notifiedCount: 0,
      confirmTokenHash: tokenHash(),
    });
    const mail = { kind: 'photos' as const, orderId: null, payload: { code: 'K7M2Q9TX' } };
    const race = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).photoCodes.markNotified(subscription.id, 4, new Date(), mail),
      ),
    );
    expect(race.filter(Boolean)).toHaveLength(1);
    expect(await a.outbox.pendingCount()).toBe(1);
  });
});
