/**
 * Who is told when photos join a photo code (docs/contract.md, "Finding one's photos, and
 * intake"): a push subscription or an email address, at most MAX_PER_CODE per code.
 * Email is double opt-in ("Hardening, round 2"): anyone may type any address. The confirming
 * GET changes nothing (mail scanners follow links); its page's button POSTs. The request goes
 * out once per address and code, so the form can't mail someone over and over. The record
 * keeps only the token's SHA-256, so a copy of the database confirms nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { MailJobInput } from '../store/ports/mail-outbox.js';
import type { PhotoCodeSubscription, PhotoCodesPort, SubscribeOutcome } from '../store/ports/photo-codes.js';

/** Subscriptions one code may have: an attendee's phone, tablet and an email or two. */
export const MAX_PER_CODE = 10;

/** Where the confirmation link points (GET: the page; POST: the button). */
export const CONFIRM_EMAIL_PATH = '/api/finder/confirm-email';

export type SubscribeTarget =
  | { channel: 'push'; endpoint: string; p256dh: string; auth: string }
  | { channel: 'email'; email: string };

export type OptInOutcome =
  | { kind: 'confirmable' | 'confirmed' | 'already'; subscription: PhotoCodeSubscription & { channel: 'email' } }
  | { kind: 'invalid' };

export interface CodeSubscriptions {
  /** Subscribes `target` to `code`, told from `notifiedCount` photos on; an email waits for its confirmation. */
  subscribe(code: string, target: SubscribeTarget, notifiedCount: number): Promise<SubscribeOutcome>;
  /** What a confirmation link (its `token`) would do, without doing it. */
  inspect(token: string | undefined): Promise<OptInOutcome>;
  /** Confirms the email subscription a link names (the page's button). */
  confirm(token: string | undefined): Promise<OptInOutcome>;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createCodeSubscriptions(deps: {
  port: Pick<PhotoCodesPort, 'subscribe' | 'byConfirmToken' | 'confirm'>;
  publicBaseUrl: string;
  /** Wakes the mail worker after a confirmation request was queued. */
  kickMail: () => void;
}): CodeSubscriptions {
  const { port } = deps;
  const base = deps.publicBaseUrl.replace(/\/+$/, '');

  return {
    async subscribe(code, target, notifiedCount) {
      if (target.channel === 'push') return port.subscribe({ code, notifiedCount, ...target }, MAX_PER_CODE);
      const token = randomBytes(32).toString('base64url');
      const confirmUrl = `${base}${CONFIRM_EMAIL_PATH}?token=${token}`;
      const mail = (sub: PhotoCodeSubscription): MailJobInput | undefined =>
        sub.channel === 'email'
          ? { kind: 'code-confirm', orderId: null, payload: { code, to: sub.email, confirmUrl } }
          : undefined;
      const result = await port.subscribe(
        { code, channel: 'email', email: target.email, notifiedCount, confirmTokenHash: hashOf(token) },
        MAX_PER_CODE,
        { mail },
      );
      if (result.outcome === 'created') deps.kickMail();
      return result;
    },

    async inspect(token) {
      if (token === undefined || !TOKEN.test(token)) return { kind: 'invalid' };
      const sub = await port.byConfirmToken(hashOf(token));
      if (sub?.channel !== 'email') return { kind: 'invalid' };
      return { kind: sub.confirmed ? 'already' : 'confirmable', subscription: sub };
    },

    async confirm(token) {
      if (token === undefined || !TOKEN.test(token)) return { kind: 'invalid' };
      const result = await port.confirm(hashOf(token), new Date());
      const sub = result?.subscription;
      if (!result || sub?.channel !== 'email') return { kind: 'invalid' };
      return { kind: result.outcome, subscription: sub };
    },
  };
}
