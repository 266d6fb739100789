/**
 * The photo codes port (docs/contract.md, "Finding one's photos, and intake"): the codes handed
 * out, and who asked to be told when photos join a code (push or email), with how many photos
 * each was last told about. An email subscription is told nothing until its owner confirms it
 * (docs/contract.md, "Hardening, round 2"). Codes are never deleted nor reused.
 */
import { z } from 'zod';
import type { MailJobInput } from './mail-outbox.js';

/** The canonical form (src/domain/photo-code.ts): 8 characters of Crockford base32. */
const Code = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{8}$/);

export const PhotoCodeRecord = z.object({
  code: Code,
  /** Who asked: an attendee through the app (CAPTCHA), an admin, or a printed card sheet. */
  issuedVia: z.enum(['app', 'admin', 'card']),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PhotoCodeRecord = z.infer<typeof PhotoCodeRecord>;

const Base = z.object({
  id: z.string().min(1),
  code: Code,
  /** Photos of the code the subscriber knows of: at subscribing, then at each notice. */
  notifiedCount: z.number().int().min(0),
  notifiedAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  /** A push subscription is confirmed when made; an email one when its link's button is pressed. */
  confirmed: z.boolean(),
});

export const PhotoCodeSubscription = z.discriminatedUnion('channel', [
  Base.extend({
    channel: z.literal('push'),
    endpoint: z.url(),
    p256dh: z.string().min(1),
    auth: z.string().min(1),
  }),
  Base.extend({ channel: z.literal('email'), email: z.string().min(3).max(254) }),
]);
export type PhotoCodeSubscription = z.infer<typeof PhotoCodeSubscription>;

/**
 * A subscription as its table holds it: both channels' fields side by side (null for the other
 * channel's), and when it was confirmed. PhotoCodeSubscription's parse of it keeps its channel's.
 */
export const StoredSubscription = Base.extend({
  channel: z.enum(['push', 'email']),
  endpoint: z.url().nullable(),
  p256dh: z.string().min(1).nullable(),
  auth: z.string().min(1).nullable(),
  email: z.string().min(3).max(254).nullable(),
  confirmedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type StoredSubscription = z.infer<typeof StoredSubscription>;

export type NewPhotoCodeSubscription =
  | { code: string; channel: 'push'; endpoint: string; p256dh: string; auth: string; notifiedCount: number }
  | {
      code: string;
      channel: 'email';
      email: string;
      notifiedCount: number;
      /** The hash of the token its confirmation link carries (the record keeps no usable link). */
      confirmTokenHash: string;
    };

export type SubscribeOutcome =
  | { outcome: 'created' | 'existing'; subscription: PhotoCodeSubscription }
  | { outcome: 'full'; subscription?: undefined };

export interface PhotoCodesPort {
  /**
   * Records new codes in one durable transaction; resolves with those that were new (a code
   * issued before, a 1 in 2^40 collision, is left out: the caller draws another).
   */
  issue(codes: readonly PhotoCodeRecord[]): Promise<string[]>;
  isIssued(code: string): Promise<boolean>;
  get(code: string): Promise<PhotoCodeRecord | null>;
  /**
   * One subscription per code and push endpoint, or code and email address (compared
   * case-insensitively). Again for the same one: its keys are updated, and what it was told
   * stays (`existing`). A new one when the code has `maxPerCode` already: `full`, nothing
   * written (decided under the code's lock, so concurrent subscribes never pass the cap).
   * `mail(subscription)` is enqueued in the same transaction when the subscription is new (an
   * email one's confirmation request).
   */
  subscribe(
    sub: NewPhotoCodeSubscription,
    maxPerCode: number,
    opts?: { mail?: (sub: PhotoCodeSubscription) => MailJobInput | undefined },
  ): Promise<SubscribeOutcome>;
  subscriptions(code: string): Promise<PhotoCodeSubscription[]>;
  /** The subscription whose confirmation token hashes to `tokenHash`; null when none does. */
  byConfirmToken(tokenHash: string): Promise<PhotoCodeSubscription | null>;
  /**
   * Confirms the subscription whose token hashes to `tokenHash`: `confirmed` for the one caller
   * that did it, `already` after; null when no subscription has that token.
   */
  confirm(
    tokenHash: string,
    at: Date,
  ): Promise<{ outcome: 'confirmed' | 'already'; subscription: PhotoCodeSubscription } | null>;
  /** Each code with confirmed subscribers, with the fewest photos any of them was told about. */
  watchedCodes(): Promise<{ code: string; leastNotified: number }[]>;
  /**
   * Marks a subscriber told about `count` photos, if it knew of fewer: true for the one caller
   * (in any process) that moved it, which then tells the subscriber. `mail`, when given, is
   * enqueued in the same transaction, so an email notice is queued exactly once.
   */
  markNotified(id: string, count: number, at: Date, mail?: MailJobInput): Promise<boolean>;
  /** Every subscription of that push endpoint (the push service said it is gone). */
  removeEndpoint(endpoint: string): Promise<void>;
}
