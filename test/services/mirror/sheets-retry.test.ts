/** Retry policy of the Sheets client the mirror uses (src/services/mirror/sheets/retry.ts). */
import { describe, expect, test } from 'vitest';
import { backoffMs, isRetryable, withRetry } from '../../../src/services/mirror/sheets/retry.js';

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
