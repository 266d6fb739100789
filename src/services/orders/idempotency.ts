/**
 * `Idempotency-Key` on order submission (docs/contract.md, "Orders" and "Hardening").
 * The fingerprint leaves out `captchaToken`: a retry with a freshly solved CAPTCHA is still
 * the same order. A failed request releases its reservation, so the client may retry.
 * A reservation `pending` longer than `staleMs` belonged to a request that died before its
 * commit (a committed order completes its key in the same transaction), so the next request
 * takes it over; a takeover never makes a second order, since a create checks in its
 * transaction that the reservation is still its own.
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
