import { describe, expect, test } from 'vitest';
import { isAppError } from '../../../src/errors/catalogue.js';
import {
  canonicalJson,
  IDEMPOTENCY_TTL_MS,
  idempotent,
  type KeyReservation,
  requestFingerprint,
} from '../../../src/services/orders/idempotency.js';
import { outcomeUnknown, storeUnavailable } from '../../../src/services/store/errors.js';
import type { OpenedStore } from '../../../src/services/store/store.js';
import { sqliteStore } from '../../support/store-engines.js';

/** Work that completes its key like an order create does, with `body` as the response. */
const completing =
  (store: OpenedStore, value: unknown, body = '{}') =>
  async (r: KeyReservation) => {
    await store.idempotencyKeys.complete(r.key, r.reservedAt, { statusCode: 201, body });
    return value;
  };

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
    const keys = store.idempotencyKeys;
    const now = new Date();
    let runs = 0;
    const work = async (r: KeyReservation) => {
      runs++;
      return completing(store, runs, `{"n":${runs}}`)(r);
    };
    const opts = { key: 'k-1', fingerprint: 'fp-a', now, staleMs: STALE_MS };
    expect(await idempotent(keys, opts, work)).toEqual({ replayed: false, value: 1 });
    expect(await idempotent(keys, opts, work)).toEqual({
      replayed: true,
      response: { statusCode: 201, body: '{"n":1}' },
    });
    expect(await codeOf(idempotent(keys, { ...opts, fingerprint: 'fp-b' }, work))).toBe('IDEMPOTENCY_CONFLICT');
    expect(runs).toBe(1);
    // After 24 h the key is free again.
    const later = new Date(now.getTime() + IDEMPOTENCY_TTL_MS + 1000);
    expect(await idempotent(keys, { ...opts, fingerprint: 'fp-b', now: later }, work)).toEqual({
      replayed: false,
      value: 2,
    });
  });

  test('a request still running makes a second one 409 IN_PROGRESS with Retry-After; a failure frees the key', async (t) => {
    const store = await sqliteStore(t);
    const keys = store.idempotencyKeys;
    const opts = { key: 'k-2', fingerprint: 'fp', now: new Date(), staleMs: STALE_MS };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // The write runs only once the key is taken: its start is the event to wait for.
    let writing!: () => void;
    const keyTaken = new Promise<void>((r) => {
      writing = r;
    });
    const first = idempotent(keys, opts, async () => {
      writing();
      await gate;
      throw new Error('the store went away');
    });
    await keyTaken;
    const second = idempotent(keys, opts, completing(store, 0));
    await expect(second).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', headers: { 'Retry-After': '1' } });
    release();
    await expect(first).rejects.toThrow('the store went away');
    // Released: the client's retry runs.
    expect(await idempotent(keys, opts, completing(store, 'ok'))).toEqual({ replayed: false, value: 'ok' });
  });

  test('a write whose outcome is unknown keeps the key taken (no second order on retry) until it is stale', async (t) => {
    const store = await sqliteStore(t);
    const keys = store.idempotencyKeys;
    const now = new Date();
    const opts = { key: 'k-unknown', fingerprint: 'fp-a', now, staleMs: STALE_MS };
    const unknown = async (): Promise<never> => {
      throw outcomeUnknown('commit not confirmed on disk');
    };
    expect(await codeOf(idempotent(keys, opts, unknown))).toBe('STORE_UNAVAILABLE');
    let runs = 0;
    const work = async (r: KeyReservation) => completing(store, ++runs)(r);
    expect(await codeOf(idempotent(keys, opts, work))).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(runs).toBe(0);
    // An ordinary failure frees the key at once.
    const plain = { ...opts, key: 'k-plain' };
    const fails = async (): Promise<never> => {
      throw storeUnavailable('down');
    };
    expect(await codeOf(idempotent(keys, plain, fails))).toBe('STORE_UNAVAILABLE');
    expect(await idempotent(keys, plain, work)).toEqual({ replayed: false, value: 1 });
  });

  test('a reservation abandoned mid-request (process died) is taken over once stale; the late request then completes nothing', async (t) => {
    const store = await sqliteStore(t);
    const keys = store.idempotencyKeys;
    const at = new Date();
    await keys.reserve({
      key: 'k-3',
      fingerprint: 'fp',
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    });
    const work = completing(store, 'made', '{"ok":true}');
    const soon = new Date(at.getTime() + STALE_MS - 1000);
    expect(await codeOf(idempotent(keys, { key: 'k-3', fingerprint: 'fp', now: soon, staleMs: STALE_MS }, work))).toBe(
      'IDEMPOTENCY_IN_PROGRESS',
    );
    const stale = new Date(at.getTime() + STALE_MS + 1000);
    expect(await idempotent(keys, { key: 'k-3', fingerprint: 'fp', now: stale, staleMs: STALE_MS }, work)).toEqual({
      replayed: false,
      value: 'made',
    });
    // The first request, had it lived on, could no longer complete the key nor release it.
    await keys.complete('k-3', at.toISOString(), { statusCode: 201, body: '{"late":true}' });
    await keys.release('k-3', at.toISOString());
    expect(await idempotent(keys, { key: 'k-3', fingerprint: 'fp', now: stale, staleMs: STALE_MS }, work)).toEqual({
      replayed: true,
      response: { statusCode: 201, body: '{"ok":true}' },
    });
  });
});
