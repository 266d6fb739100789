/**
 * Finding one's photos by photo code (docs/contract.md, "Finding one's photos, and intake"),
 * answered from memory, and subscribing to a code. Only issued codes are known: one whose
 * frame has not been shot yet is known with no photos, so the attendee's page is right at once
 * and fills in; a QR of a code never issued (made elsewhere, or guessed) finds nothing.
 */
import { parsePhotoCode } from '../../domain/photo-code.js';
import { appError } from '../../errors/catalogue.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';
import type { PhotoCodeSubscription } from '../store/ports/photo-codes.js';
import { type CodeSubscriptions, MAX_PER_CODE } from './subscriptions.js';

/** The codes handed out (POST /api/finder, card sheets), kept in the store. */
export interface PhotoCodeRegistry {
  isIssued(code: string): Promise<boolean>;
}

export type FinderResult =
  | { ok: true; code: string; photos: readonly Photo[] }
  | { ok: false; reason: 'malformed' | 'unknown' };

/** A browser's push subscription (as `PushSubscription.toJSON()` gives it), or an email address. */
export type Subscriber = { email: string } | { endpoint: string; keys: { p256dh: string; auth: string } };

export type Subscribed = {
  code: string;
  created: boolean;
  channel: PhotoCodeSubscription['channel'];
  confirmed: boolean;
};

export interface Finder {
  lookup(text: string): Promise<FinderResult>;
  /**
   * Subscribes to the code in `text`, told from the photos it has now on. Throws
   * VALIDATION_FAILED (not a code, a push endpoint refused), CODE_NOT_FOUND (never issued),
   * SUBSCRIPTION_LIMIT (MAX_PER_CODE subscriptions already).
   */
  subscribe(text: string, subscriber: Subscriber): Promise<Subscribed>;
}

const NONE: readonly Photo[] = Object.freeze([]);

const notACode = () => appError('VALIDATION_FAILED', { details: 'a photo code is 8 characters of Crockford base32' });
// No code in the details: they are logged (src/lib/photo-code-log.ts says why).
const notIssued = () => appError('CODE_NOT_FOUND', { details: 'No photo code like that has been issued' });

export function createFinder(deps: {
  library: Pick<PhotoLibrary, 'photosForCode'>;
  registry: PhotoCodeRegistry;
  subscriptions: Pick<CodeSubscriptions, 'subscribe'>;
  /** Why the server would not send to a push endpoint (the push service's own check), or undefined. */
  endpointRefusal(endpoint: string): string | undefined;
}): Finder {
  const { library, registry } = deps;
  return {
    async lookup(text) {
      const code = parsePhotoCode(text);
      if (!code) return { ok: false, reason: 'malformed' };
      if (!(await registry.isIssued(code))) return { ok: false, reason: 'unknown' };
      return { ok: true, code, photos: library.photosForCode(code) ?? NONE };
    },

    async subscribe(text, subscriber) {
      const code = parsePhotoCode(text);
      if (!code) throw notACode();
      if ('endpoint' in subscriber) {
        const refusal = deps.endpointRefusal(subscriber.endpoint);
        if (refusal !== undefined) {
          throw appError('VALIDATION_FAILED', { details: [{ in: 'body', field: 'endpoint', message: refusal }] });
        }
      }
      if (!(await registry.isIssued(code))) throw notIssued();
      // Told from now on: the photos the code has already are on the page the subscriber is looking at.
      const notifiedCount = library.photosForCode(code)?.length ?? 0;
      const result = await deps.subscriptions.subscribe(
        code,
        'email' in subscriber
          ? { channel: 'email', email: subscriber.email }
          : {
              channel: 'push',
              endpoint: subscriber.endpoint,
              p256dh: subscriber.keys.p256dh.replace(/=+$/, ''),
              auth: subscriber.keys.auth.replace(/=+$/, ''),
            },
        notifiedCount,
      );
      if (result.outcome === 'full') {
        throw appError('SUBSCRIPTION_LIMIT', { details: `A photo code takes at most ${MAX_PER_CODE} subscriptions` });
      }
      const { channel, confirmed } = result.subscription;
      return { code, created: result.outcome === 'created', channel, confirmed };
    },
  };
}
