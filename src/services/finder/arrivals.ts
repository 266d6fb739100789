/**
 * Telling a photo code's subscribers that photos joined it (docs/contract.md, "Finding one's
 * photos, and intake"), once per arrival batch (quiet for `quietMs`, or `5 × quietMs` into a
 * long one); email only once confirmed ("Hardening, round 2"). A subscriber behind is marked
 * told by one conditional update, so with several processes watching one library exactly one
 * tells each; an email is queued in that same transaction. Photos that arrived while the server
 * was down are told after the first scan.
 */
import { photoCodeUrl } from '../../domain/photo-code.js';
import type { Logger } from '../../lib/logger.js';
import { RerunningPass } from '../../lib/rerun.js';
import type { PhotoLibrary } from '../photos/types.js';
import type { PushNotifier } from '../push/types.js';
import type { PhotoCodeSubscription, PhotoCodesPort } from '../store/ports/photo-codes.js';

export type ArrivalNotifierOptions = {
  library: Pick<PhotoLibrary, 'photosForCode' | 'onChange' | 'ready'>;
  codes: Pick<PhotoCodesPort, 'watchedCodes' | 'subscriptions' | 'markNotified' | 'removeEndpoint'>;
  push: Pick<PushNotifier, 'notifySubscriber'>;
  /** Wakes the mail worker after notices were queued. */
  kickMail: () => void;
  /** The public address as it is now (business settings). */
  publicBaseUrl: () => string;
  quietMs: number;
  log: Logger;
};

export interface ArrivalNotifier {
  /** Looks at every watched code now (what the timer does); resolves when its notices are out. */
  check(): Promise<void>;
  close(): Promise<void>;
}

const photosWord = (n: number) => (n === 1 ? '1 new photo' : `${n} new photos`);

export function createArrivalNotifier(o: ArrivalNotifierOptions): ArrivalNotifier {
  let timer: NodeJS.Timeout | undefined;
  let batchStarted = 0;
  let closed = false;

  async function tell(sub: PhotoCodeSubscription, count: number): Promise<void> {
    const added = count - sub.notifiedCount;
    const url = photoCodeUrl(o.publicBaseUrl(), sub.code);
    if (sub.channel === 'email') {
      const mail = { kind: 'photos' as const, orderId: null, payload: { code: sub.code, to: sub.email, added } };
      if (await o.codes.markNotified(sub.id, count, new Date(), mail)) o.kickMail();
      return;
    }
    if (!(await o.codes.markNotified(sub.id, count, new Date()))) return;
    o.push.notifySubscriber(
      sub,
      {
        title: photosWord(added),
        body: `Photo code ${sub.code}: tap to see them.`,
        url,
        tag: `photos-${sub.code}`,
        event: 'photos',
      },
      () => o.codes.removeEndpoint(sub.endpoint),
    );
  }

  async function run(): Promise<void> {
    for (const { code, leastNotified } of await o.codes.watchedCodes()) {
      if (closed) return;
      const count = o.library.photosForCode(code)?.length ?? 0;
      if (count <= leastNotified) continue;
      for (const sub of await o.codes.subscriptions(code)) {
        // An email address its owner has not confirmed hears nothing (double opt-in).
        if (sub.confirmed && sub.notifiedCount < count) await tell(sub, count);
      }
    }
  }

  const pass = new RerunningPass(
    run,
    (err) => o.log.warn({ err: (err as Error).message }, 'photo code notices: check failed; next arrival retries'),
    () => closed,
  );
  const check = () => pass.run();

  function schedule(): void {
    if (closed) return;
    const now = Date.now();
    if (timer === undefined) batchStarted = now;
    clearTimeout(timer);
    // Quiet for quietMs, but a long batch is not waited out for ever.
    const wait = Math.max(0, Math.min(o.quietMs, batchStarted + 5 * o.quietMs - now));
    timer = setTimeout(() => {
      timer = undefined;
      void check();
    }, wait);
    timer.unref();
  }

  const unsubscribe = o.library.onChange(schedule);
  void o.library.ready().then(schedule);

  return {
    check,
    async close() {
      closed = true;
      unsubscribe();
      clearTimeout(timer);
      await pass.idle();
    },
  };
}
