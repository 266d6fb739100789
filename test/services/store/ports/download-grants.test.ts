/** The download grants port's conformance suite (src/services/store/ports/download-grants.ts), on both engines. */
import { expect, test } from 'vitest';
import { describeOnEngines, reopenStore } from '../../../support/store-engines.js';

const later = (ms: number) => new Date(Date.now() + ms);

describeOnEngines('download grants port', (open) => {
  test('counts downloads per line up to the maximum; the first expiry is kept', async (t) => {
    const { downloadGrants } = await open(t);
    const opts = { max: 2, expiresAt: later(60_000), now: new Date() };
    expect(await downloadGrants.used('o1', 1)).toBe(0);
    expect(await downloadGrants.take('o1', 1, opts)).toEqual({ ok: true, used: 1 });
    expect(await downloadGrants.take('o1', 2, opts)).toEqual({ ok: true, used: 1 });
    expect(await downloadGrants.take('o1', 1, opts)).toEqual({ ok: true, used: 2 });
    expect(await downloadGrants.take('o1', 1, opts)).toEqual({ ok: false, reason: 'usedUp', used: 2 });
    expect(await downloadGrants.used('o1', 1)).toBe(2);
    // A later expiry given with a later link does not stretch the first one.
    expect(await downloadGrants.take('o1', 2, { max: 5, expiresAt: later(1e9), now: later(120_000) })).toEqual({
      ok: false,
      reason: 'expired',
      used: 1,
    });
    expect(
      await downloadGrants.take('o2', 1, { max: 5, expiresAt: new Date(Date.now() - 1), now: new Date() }),
    ).toEqual({ ok: false, reason: 'expired', used: 0 });
  });

  test('20 concurrent downloads of a line with 10 allowed, from two processes: exactly 10', async (t) => {
    const a = await open(t);
    const b = await reopenStore(t, a);
    const opts = { max: 10, expiresAt: later(60_000), now: new Date() };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).downloadGrants.take('o1', 1, opts)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(await a.downloadGrants.used('o1', 1)).toBe(10);
  });
});
