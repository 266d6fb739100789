/** Retry policy and locks of the Sheets adapter (src/services/store/sheets/retry.ts, locks.ts). */
import { describe, expect, test } from 'vitest';
import { KeyedMutex, ReadWriteLock } from '../../../src/services/store/sheets/locks.js';
import { backoffMs, isRetryable, withRetry } from '../../../src/services/store/sheets/retry.js';

const httpError = (status: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP ${status}`), {
    status,
    config: {},
    response: { status, headers: new Headers(headers) },
  });

describe('Sheets retry policy', () => {
  test('429, 5xx and answers that never came are retried; other errors are not', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryable(httpError(s))).toBe(true);
    for (const s of [400, 401, 403, 404]) expect(isRetryable(httpError(s))).toBe(false);
    expect(isRetryable(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', config: {} }))).toBe(true);
    expect(isRetryable(new TypeError('a bug'))).toBe(false);
  });

  test('backoff: full jitter under an exponential ceiling, never below Retry-After', () => {
    const policy = { attempts: 6, baseMs: 100, maxMs: 1000 };
    expect(backoffMs(0, policy, undefined, () => 0.999)).toBeLessThanOrEqual(100);
    expect(backoffMs(3, policy, undefined, () => 0.999)).toBe(799);
    expect(backoffMs(10, policy, undefined, () => 1)).toBe(1000);
    expect(backoffMs(0, policy, undefined, () => 0)).toBe(0);
    expect(backoffMs(0, policy, httpError(429, { 'retry-after': '2' }), () => 0)).toBe(2000);
  });

  test('withRetry retries until success, and gives up with the last error', async () => {
    const policy = { attempts: 4, baseMs: 1, maxMs: 2 };
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls += 1;
        if (calls < 3) throw httpError(503);
        return 'ok';
      }, policy),
    ).resolves.toBe('ok');
    expect(calls).toBe(3);

    calls = 0;
    await expect(
      withRetry(async () => {
        calls += 1;
        throw httpError(500);
      }, policy),
    ).rejects.toMatchObject({ status: 500 });
    expect(calls).toBe(4);

    calls = 0;
    await expect(
      withRetry(async () => {
        calls += 1;
        throw httpError(404);
      }, policy),
    ).rejects.toMatchObject({ status: 404 });
    expect(calls).toBe(1);
  });
});

describe('Sheets adapter locks', () => {
  const tick = () => new Promise((r) => setTimeout(r, 2));

  test('KeyedMutex: one holder per key, in order; other keys run alongside', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const job = (key: string, name: string) =>
      m.run(key, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      });
    await Promise.all([job('a', 'a1'), job('a', 'a2'), job('b', 'b1')]);
    expect(log.indexOf('a1-')).toBeLessThan(log.indexOf('a2+'));
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  test('ReadWriteLock: shared holders overlap, an exclusive one runs alone, in arrival order', async () => {
    const lock = new ReadWriteLock();
    let shared = 0;
    let maxShared = 0;
    let exclusiveSawShared = false;
    const reader = () =>
      lock.runShared(async () => {
        shared += 1;
        maxShared = Math.max(maxShared, shared);
        await tick();
        shared -= 1;
      });
    const writer = () =>
      lock.runExclusive(async () => {
        if (shared > 0) exclusiveSawShared = true;
        await tick();
        if (shared > 0) exclusiveSawShared = true;
      });
    await Promise.all([reader(), reader(), writer(), reader(), writer()]);
    expect(maxShared).toBe(2);
    expect(exclusiveSawShared).toBe(false);
  });
});
