/**
 * The Idempotency-Key port (docs/contract.md, "Orders" and "Hardening"): a key is `pending`
 * while its request runs, then holds the first response for 24 h. An order create completes
 * its key in the order's own transaction (docs/store.md, "Idempotency-Keys and crashes").
 */
import { z } from 'zod';

export const IdempotencyRecord = z.object({
  key: z.string().min(1),
  /** Hash of the route and the request body: same key + other body is a conflict. */
  fingerprint: z.string().min(1),
  state: z.enum(['pending', 'done']),
  statusCode: z.number().int().nullable(),
  /** The first response's JSON body, replayed for a repeat. */
  responseBody: z.string().nullable(),
  /** The order the request created, once done (null for other work). */
  orderId: z.string().nullable(),
  /** When the reservation was made: it also tells one reservation of the key from a later one. */
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type IdempotencyRecord = z.infer<typeof IdempotencyRecord>;

export type Reservation = Pick<IdempotencyRecord, 'key' | 'fingerprint' | 'createdAt' | 'expiresAt'>;

export type StoredResponse = { statusCode: number; body: string };

export interface IdempotencyKeysPort {
  /**
   * Reserves the key (pending) unless a live record exists; then returns that record.
   * Expired records are replaced, and so are pending ones created before `staleBefore` (their
   * request died): in one atomic step, so of several callers one reserves.
   */
  reserve(
    rec: Reservation,
    opts?: { staleBefore?: Date },
  ): Promise<{ reserved: true } | { reserved: false; existing: IdempotencyRecord }>;
  /** Stores the response of the reservation made at `reservedAt` (no-op if the key was taken over since). */
  complete(key: string, reservedAt: string, response: StoredResponse): Promise<void>;
  /** Drops the reservation made at `reservedAt` if still pending, so the client may retry. */
  release(key: string, reservedAt: string): Promise<void>;
}
