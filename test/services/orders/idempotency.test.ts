import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { isAppError } from '../../../src/errors/catalogue.js';
import {
  canonicalJson,
  IDEMPOTENCY_TTL_MS,
  idempotent,
  requestFingerprint,
} from '../../../src/services/orders/idempotency.js';
import { outcomeUnknown, storeUnavailable } from '../../../src/services/store/rules.js';
import { createSqliteStore } from '../../../src/services/store/sqlite/index.js';
import { tempDir } from '../../helpers/build.js';

async function sqliteStore(t: TestContext) {
  const store = createSqliteStore({ file: path.join(await tempDir(t), 'orders.db') });
  await store.init();
  t.onTestFinished(() => store.close());
  return store;
}

const STALE_MS = 90_000;

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
}

describe('canonical JSON and fingerprints', () => {
  test('key order does not matter at any depth; arrays keep their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson([undefined, 'é'])).toBe('[null,"é"]');
  });

  test('the fingerprint covers route, event and body, but not the CAPTCHA token', () => {
    const fp = requestFingerprint('POST /api/orders', 'AX', { a: 1, b: [1, 2], captchaToken: 'one' });
    expect(requestFingerprint('POST /api/orders', 'AX', { b: [1, 2], a: 1, captchaToken: 'two' })).toBe(fp);
    expect(requestFingerprint('POST /api/orders', 'AX', { b: [1, 2], a: 1 })).toBe(fp);
    expect(requestFingerprint('POST /api/orders/create', 'AX', { a: 1, b: [1, 2] })).not.toBe(fp);
    expect(requestFingerprint('POST /api/orders', 'OC', { a: 1, b: [1, 2] })).not.toBe(fp);
    expect(requestFingerprint('POST /api/orders', 'AX', { a: 1, b: [2, 1] })).not.toBe(fp);
  });
});

describe('idempotent()', () => {
  test('first run is stored; a repeat replays it without running; another body conflicts', async (t) => {
    const store = await sqliteStore(t);
    const now = new Date();
    let runs = 0;
    const work = async () => {
      runs++;
      return { value: runs, response: { statusCode: 201, body: `{"n":${runs}}` } };
    };
    const opts = { key: 'k-1', fingerprint: 'fp-a', now, staleMs: STALE_MS };
    expect(await idempotent(store, opts, work)).toEqual({ replayed: false, value: 1 });
    expect(await idempotent(store, opts, work)).toEqual({
      replayed: true,
      response: { statusCode: 201, body: '{"n":1}' },
    });
    expect(await codeOf(idempotent(store, { ...opts, fingerprint: 'fp-b' }, work))).toBe('IDEMPOTENCY_CONFLICT');
    expect(runs).toBe(1);
    // After 24 h the key is free again.
    const later = new Date(now.getTime() + IDEMPOTENCY_TTL_MS + 1000);
    expect(await idempotent(store, { ...opts, fingerprint: 'fp-b', now: later }, work)).toEqual({
      replayed: false,
      value: 2,
    });
  });

  test('a request still running makes a second one 409 IN_PROGRESS with Retry-After; a failure frees the key', async (t) => {
    const store = await sqliteStore(t);
    const opts = { key: 'k-2', fingerprint: 'fp', now: new Date(), staleMs: STALE_MS };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const first = idempotent(store, opts, async () => {
      await gate;
      throw new Error('the store went away');
    });
    await new Promise((r) => setTimeout(r, 20));
    const second = idempotent(store, opts, async () => ({ value: 0, response: { statusCode: 201, body: '{}' } }));
    await expect(second).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', headers: { 'Retry-After': '1' } });
    release();
    await expect(first).rejects.toThrow('the store went away');
    // Released: the client's retry runs.
    const retry = await idempotent(store, opts, async () => ({
      value: 'ok',
      response: { statusCode: 201, body: '{}' },
    }));
    expect(retry).toEqual({ replayed: false, value: 'ok' });
  });

  test('a write whose outcome is unknown keeps the key taken (no second order on retry) until it is stale', async (t) => {
    const store = await sqliteStore(t);
    const now = new Date();
    const opts = { key: 'k-unknown', fingerprint: 'fp-a', now, staleMs: STALE_MS };
    const unknown = async (): Promise<never> => {
      throw outcomeUnknown('commit not confirmed on disk');
    };
    expect(await codeOf(idempotent(store, opts, unknown))).toBe('STORE_UNAVAILABLE');
    let runs = 0;
    const work = async () => {
      runs++;
      return { value: runs, response: { statusCode: 201, body: '{}' } };
    };
    expect(await codeOf(idempotent(store, opts, work))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(runs).toBe(0);
    // An ordinary failure frees the key at once.
    const plain = { ...opts, key: 'k-plain' };
    const fails = async (): Promise<never> => {
      throw storeUnavailable('down');
    };
    expect(await codeOf(idempotent(store, plain, fails))).toBe('STORE_UNAVAILABLE');
    expect(await idempotent(store, plain, work)).toEqual({ replayed: false, value: 1 });
  });

  test('a reservation abandoned mid-request (process died) is taken over once stale', async (t) => {
    const store = await sqliteStore(t);
    const at = new Date();
    await store.reserveIdempotencyKey({
      key: 'k-3',
      fingerprint: 'fp',
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    });
    const work = async () => ({ value: 'made', response: { statusCode: 201, body: '{"ok":true}' } });
    const soon = new Date(at.getTime() + STALE_MS - 1000);
    expect(await codeOf(idempotent(store, { key: 'k-3', fingerprint: 'fp', now: soon, staleMs: STALE_MS }, work))).toBe(
      'IDEMPOTENCY_IN_PROGRESS',
    );
    const stale = new Date(at.getTime() + STALE_MS + 1000);
    expect(await idempotent(store, { key: 'k-3', fingerprint: 'fp', now: stale, staleMs: STALE_MS }, work)).toEqual({
      replayed: false,
      value: 'made',
    });
  });

  test('when the response cannot be stored, the made order is still answered (and the error reported)', async (t) => {
    const store = await sqliteStore(t);
    const failing = {
      ...store,
      reserveIdempotencyKey: store.reserveIdempotencyKey,
      releaseIdempotencyKey: store.releaseIdempotencyKey,
      completeIdempotencyKey: async () => {
        throw new Error('disk full');
      },
    };
    const reported: unknown[] = [];
    const out = await idempotent(
      failing,
      { key: 'k-4', fingerprint: 'fp', now: new Date(), staleMs: STALE_MS, onCompleteError: (e) => reported.push(e) },
      async () => ({ value: 'order', response: { statusCode: 201, body: '{}' } }),
    );
    expect(out).toEqual({ replayed: false, value: 'order' });
    expect(String(reported[0])).toMatch(/disk full/);
  });
});
