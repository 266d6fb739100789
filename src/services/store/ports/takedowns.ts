/**
 * The takedown requests port (docs/contract.md, "Takedown requests"): an attendee's request
 * that a photo come down, and the owner's decision. The hide-first limit is decided under the
 * client's lock, so concurrent requests never pass it in any process. A decision decides every
 * open request for the photo in one transaction, with the requesters' mail enqueued in it.
 * Deciding again the same way changes nothing; the other way is TAKEDOWN_DECIDED.
 */
import { z } from 'zod';
import { Actor } from '../../../domain/order.js';
import type { MailJobInput } from './mail-outbox.js';

export const TakedownReason = z.enum(['me', 'copyright', 'other']);
export type TakedownReason = z.infer<typeof TakedownReason>;
export const TakedownDecision = z.enum(['remove', 'restore']);
export type TakedownDecision = z.infer<typeof TakedownDecision>;
export const TakedownStatus = z.enum(['open', 'decided']);
export type TakedownStatus = z.infer<typeof TakedownStatus>;

const isoTimestamp = z.iso.datetime({ offset: true });

export const TakedownRecord = z.object({
  id: z.string().min(1),
  eventSlug: z.string().min(1),
  /** The photo's stable id (its path inside the event), and its number as the public knew it. */
  photoId: z.string().min(1),
  photoNumber: z.string().min(1),
  reason: TakedownReason,
  email: z.string().min(3),
  message: z.string(),
  /** Filed in hide-first mode: the photo is hidden while the request is open. */
  hides: z.boolean(),
  createdAt: isoTimestamp,
  status: TakedownStatus,
  decision: TakedownDecision.nullable(),
  decidedAt: isoTimestamp.nullable(),
  decidedBy: Actor.nullable().describe('`admin:<8 hex>` of the owner token that decided'),
});
export type TakedownRecord = z.infer<typeof TakedownRecord>;

export type NewTakedown = Pick<
  TakedownRecord,
  'eventSlug' | 'photoId' | 'photoNumber' | 'reason' | 'email' | 'message' | 'hides'
>;

export type HiddenPhoto = { eventSlug: string; photoId: string };

/** How many hiding requests one client may file in a window (docs/contract.md, "Hardening, round 2"). */
export type HideLimit = {
  /** The client address, as the caller keys it (a hash: the record keeps no address). */
  client: string;
  max: number;
  since: Date;
};

export interface TakedownsPort {
  /**
   * Stores a new open request (durable before it resolves), with `mail(record)` enqueued in the
   * same transaction. With `hideLimit`, `input.hides` holds only within the limit (see above).
   */
  create(
    input: NewTakedown,
    opts?: { mail?: (record: TakedownRecord) => readonly MailJobInput[]; hideLimit?: HideLimit },
  ): Promise<TakedownRecord>;
  get(id: string): Promise<TakedownRecord | null>;
  /** Newest first; all when `status` is absent. */
  list(query?: { status?: TakedownStatus }): Promise<TakedownRecord[]>;
  /**
   * Decides request `id` and every open request for the same photo. `mail(request)` makes each
   * newly decided request's message. `changed` false: it was decided so already.
   */
  decide(
    id: string,
    decision: TakedownDecision,
    opts: { by: Actor; mail: (request: TakedownRecord) => MailJobInput },
  ): Promise<{ decided: TakedownRecord[]; changed: boolean }>;
  /** Photos kept from the public: an open request filed hide-first, or a `remove` decision. */
  hiddenPhotos(): Promise<HiddenPhoto[]>;
  /** Whether the photo was taken down for good (a `remove` decision). */
  isRemoved(eventSlug: string, photoId: string): Promise<boolean>;
}
