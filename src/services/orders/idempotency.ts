/**
 * `Idempotency-Key` on order submission (docs/contract.md, "Orders"), on top of the store's reservation records.
 *
 * - The fingerprint is SHA-256 over the route, the event the request names (body or
 *   `Referer`) and the canonical JSON of the validated body without `captchaToken`: a retry
 *   that carries a freshly solved CAPTCHA is still the same order.
 * - First use: the key is reserved (`pending`), the order is made, and the 201 response is
 *   stored with it for 24 h. Same key + same fingerprint: that response, byte for byte, and
 *   nothing is created. Same key + another fingerprint: 409 IDEMPOTENCY_CONFLICT. Same key
 *   while the first request is still running: 409 IDEMPOTENCY_IN_PROGRESS (`Retry-After: 1`).
 * - A request that fails releases its reservation, so the client may retry with the key.
 * - A reservation left `pending` longer than `staleMs` (its process died mid-request) is
 *   taken over by the next request with the key.
 */
import { createHash } from 'node:crypto';
import { appError } from '../../errors/catalogue.js';
import type { OrderStore } from '../store/port.js';
import { isOutcomeUnknown } from '../store/rules.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function requestFingerprint(route: string, eventKey: string, body: unknown): string {
  const rest =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'captchaToken'))
      : body;
  return createHash('sha256')
    .update(`${route}\n${eventKey}\n${canonicalJson(rest)}`)
    .digest('hex');
}

export type StoredResponse = { statusCode: number; body: string };

type KeyStore = Pick<OrderStore, 'reserveIdempotencyKey' | 'completeIdempotencyKey' | 'releaseIdempotencyKey'>;

export type IdempotencyOutcome<T> = { replayed: true; response: StoredResponse } | { replayed: false; value: T };

/**
 * Runs `work` once per key. `work` returns the value and the response to remember for
 * replays; the response is stored before `idempotent` resolves.
 */
export async function idempotent<T>(
  store: KeyStore,
  opts: { key: string; fingerprint: string; now: Date; staleMs: number; onCompleteError?: (err: unknown) => void },
  work: () => Promise<{ value: T; response: StoredResponse }>,
): Promise<IdempotencyOutcome<T>> {
  const rec = {
    key: opts.key,
    fingerprint: opts.fingerprint,
    createdAt: opts.now.toISOString(),
    expiresAt: new Date(opts.now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  let reservation = await store.reserveIdempotencyKey(rec);
  if (!reservation.reserved) {
    const existing = reservation.existing;
    if (existing.fingerprint !== opts.fingerprint) {
      throw appError('IDEMPOTENCY_CONFLICT', {
        details: 'This Idempotency-Key was used with another request body; use a new key for a new order',
      });
    }
    if (existing.state === 'done' && existing.statusCode !== null && existing.responseBody !== null) {
      return { replayed: true, response: { statusCode: existing.statusCode, body: existing.responseBody } };
    }
    const age = opts.now.getTime() - Date.parse(existing.createdAt);
    if (age < opts.staleMs) {
      throw appError('IDEMPOTENCY_IN_PROGRESS', {
        details: 'A request with this Idempotency-Key is still being processed; retry in a moment',
        headers: { 'Retry-After': '1' },
      });
    }
    // Abandoned by a process that stopped mid-request: take it over.
    await store.releaseIdempotencyKey(opts.key);
    reservation = await store.reserveIdempotencyKey(rec);
    if (!reservation.reserved) {
      throw appError('IDEMPOTENCY_IN_PROGRESS', {
        details: 'A request with this Idempotency-Key is still being processed; retry in a moment',
        headers: { 'Retry-After': '1' },
      });
    }
  }

  let result: { value: T; response: StoredResponse };
  try {
    result = await work();
  } catch (err) {
    // A write whose outcome is unknown keeps the key pending (until stale): a retry must not
    // make a second order while the first may exist.
    if (!isOutcomeUnknown(err)) await store.releaseIdempotencyKey(opts.key).catch(() => {});
    throw err;
  }
  try {
    await store.completeIdempotencyKey(opts.key, result.response.statusCode, result.response.body);
  } catch (err) {
    // The order is durable: answering with an error now would invite a retry that makes a
    // second one. The client gets its 201; the key stays pending until it is stale.
    opts.onCompleteError?.(err);
  }
  return { replayed: false, value: result.value };
}
