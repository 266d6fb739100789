/** The Idempotency-Key port's conformance suite (src/services/store/ports/idempotency-keys.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const t0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms).toISOString();
const day = 24 * 3_600_000;
const rec = (key: string, fingerprint: string, createdMs: number, ttl = day) => ({
  key,
  fingerprint,
  createdAt: at(createdMs),
  expiresAt: at(createdMs + ttl),
});

describeOnEngines('idempotency keys port', (open) => {
  test('reserve once; the completed response is what later reservations find; a failed attempt releases the key; expired keys are replaced', async (t) => {
    const { idempotencyKeys: keys } = await open(t);
    expect(await keys.reserve(rec('k1', 'f1', 0))).toEqual({ reserved: true });
    expect(await keys.reserve(rec('k1', 'f2', 1000))).toEqual({
      reserved: false,
      existing: {
        ...rec('k1', 'f1', 0),
        state: 'pending',
        statusCode: null,
        responseBody: null,
        orderId: null,
      },
    });
    const body = JSON.stringify({ success: true, orderNumber: 'AX25-0001', note: 'é 😀' });
    await keys.complete('k1', at(0), { statusCode: 201, body });
    expect(await keys.reserve(rec('k1', 'f1', 2000))).toMatchObject({
      reserved: false,
      existing: { state: 'done', statusCode: 201, responseBody: body, fingerprint: 'f1' },
    });
    // a completed record is not released
    await keys.release('k1', at(0));
    expect((await keys.reserve(rec('k1', 'f1', 3000))).reserved).toBe(false);

    expect((await keys.reserve(rec('k2', 'f', 0))).reserved).toBe(true);
    await keys.release('k2', at(0));
    expect((await keys.reserve(rec('k2', 'g', 1))).reserved).toBe(true);

    // past its expiry a key is free again
    expect((await keys.reserve(rec('k1', 'f9', day))).reserved).toBe(true);
    expect(await keys.reserve(rec('k1', 'x', day + 1))).toMatchObject({
      reserved: false,
      existing: { fingerprint: 'f9', state: 'pending' },
    });
    await keys.release('never-reserved', at(0));
  });

  test('a pending reservation older than staleBefore is taken over; the old one can then neither complete nor release it', async (t) => {
    const { idempotencyKeys: keys } = await open(t);
    await keys.reserve(rec('k', 'f', 0));
    expect(await keys.reserve(rec('k', 'f', 60_000), { staleBefore: new Date(t0 - 1) })).toMatchObject({
      reserved: false,
    });
    expect(await keys.reserve(rec('k', 'f', 60_000), { staleBefore: new Date(t0 + 1) })).toEqual({ reserved: true });
    await keys.complete('k', at(0), { statusCode: 201, body: '{"old":true}' });
    await keys.release('k', at(0));
    expect(await keys.reserve(rec('k', 'f', 70_000))).toMatchObject({
      reserved: false,
      existing: { state: 'pending', createdAt: at(60_000) },
    });
    // a done key is never stale
    await keys.complete('k', at(60_000), { statusCode: 201, body: '{"new":true}' });
    expect(await keys.reserve(rec('k', 'f', 80_000), { staleBefore: new Date(t0 + 79_000) })).toMatchObject({
      reserved: false,
      existing: { state: 'done', responseBody: '{"new":true}' },
    });
  });

  test('concurrent reservations of one key, also from a second store on the same database: exactly one wins', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const now = Date.now() - t0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).idempotencyKeys.reserve(rec('same', `f${i}`, now))),
    );
    expect(results.filter((r) => r.reserved)).toHaveLength(1);
  });
});
