/**
 * `Idempotency-Key` on order submission (docs/contract.md, "Orders" and "Hardening"), on top
 * of the store's key records (src/services/store/ports/idempotency-keys.ts).
 *
 * - The fingerprint is SHA-256 over the route, the event the request names (body or
 *   `Referer`) and the canonical JSON of the validated body without `captchaToken`: a retry
 *   that carries a freshly solved CAPTCHA is still the same order.
 * - First use: the key is reserved (`pending`), then the work runs; an order create stores
 *   the order and the key's response in one transaction. Same key + same fingerprint: that
 *   response, byte for byte, and nothing is created. Same key + another fingerprint: 409
 *   IDEMPOTENCY_CONFLICT. Same key while the first request is still running: 409
 *   IDEMPOTENCY_IN_PROGRESS (`Retry-After: 1`).
 * - A request that fails releases its reservation, so the client may retry with the key.
 * - A reservation left `pending` longer than `staleMs` belonged to a request that died before
 *   its order was committed (a committed order completes its key in the same transaction):
 *   the next request with the key takes it over. A takeover can never make a second order:
 *   a create checks, in its transaction, that the reservation is still its own.
 */
import { createHash } from 'node:crypto';
import { appError } from '../../errors/catalogue.js';
import { isOutcomeUnknown } from '../store/errors.js';
import type { IdempotencyKeysPort, StoredResponse } from '../store/ports/idempotency-keys.js';

export type { StoredResponse };

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

/** The reservation a piece of work runs under: what it completes the key with. */
export type KeyReservation = { key: string; reservedAt: string };

export type IdempotencyOutcome<T> = { replayed: true; response: StoredResponse } | { replayed: false; value: T };

const inProgress = () =>
  appError('IDEMPOTENCY_IN_PROGRESS', {
    details: 'A request with this Idempotency-Key is still being processed; retry in a moment',
    headers: { 'Retry-After': '1' },
  });

/**
 * Runs `work` once per key. `work` completes the key itself, in the transaction of what it
 * makes (orders: the `idempotency` option of `orders.create`).
 */
export async function idempotent<T>(
  keys: Pick<IdempotencyKeysPort, 'reserve' | 'release'>,
  opts: { key: string; fingerprint: string; now: Date; staleMs: number },
  work: (reservation: KeyReservation) => Promise<T>,
): Promise<IdempotencyOutcome<T>> {
  const reservedAt = opts.now.toISOString();
  const reservation = await keys.reserve(
    {
      key: opts.key,
      fingerprint: opts.fingerprint,
      createdAt: reservedAt,
      expiresAt: new Date(opts.now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    },
    { staleBefore: new Date(opts.now.getTime() - opts.staleMs) },
  );
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
    throw inProgress();
  }
  try {
    return { replayed: false, value: await work({ key: opts.key, reservedAt }) };
  } catch (err) {
    // A write whose outcome is unknown keeps the key pending (until stale): if its order
    // survived, the key was completed with it and a retry replays it.
    if (!isOutcomeUnknown(err)) await keys.release(opts.key, reservedAt).catch(() => {});
    throw err;
  }
}
