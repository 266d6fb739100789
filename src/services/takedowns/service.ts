/**
 * Takedown requests (docs/contract.md, "Takedown requests"): an attendee asks for a photo to
 * come down; the owner decides. The photo's catalogue row is marked hidden in the request's or
 * decision's own transaction, and the library's views leave hidden rows out, so a hidden photo
 * leaves everything that reads the library. With OPERATOR_EMAIL set the photographer's notice
 * is stored in the same transaction, so nothing asked goes unheard. This process re-reads the
 * catalogue at once, so the photo is hidden in its pages before it answers; others sharing
 * a PostgreSQL record catch up at LIBRARY_SYNC_INTERVAL_MS.
 */
import type { Actor } from '../../domain/order.js';
import { takedownReasonWords } from '../../domain/takedowns.js';
import type { Logger } from '../../lib/logger.js';
import type { DownloadFiles } from '../downloads/files.js';
import type { ImageService } from '../images/types.js';
import type { Photo, PhotoLibrary } from '../photos/types.js';
import type { PushNotifier } from '../push/types.js';
import type { MailJobInput } from '../store/ports/mail-outbox.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type {
  TakedownDecision,
  TakedownReason,
  TakedownRecord,
  TakedownStatus,
  TakedownsPort,
} from '../store/ports/takedowns.js';

export type TakedownMode = 'hide-first' | 'review-first';

export interface Takedowns {
  readonly mode: TakedownMode;
  /** Photos one client address may hide per hour in hide-first mode (HIDES_PER_HOUR). */
  readonly hidesPerHour: number;
  /**
   * Files a request for `photo` (listed, or hidden already); in hide-first mode the photo is
   * hidden before this resolves, unless `client` (the requester's address, hashed; absent for
   * the owner) has had HIDES_PER_HOUR photos hidden in the last hour: then the request is kept
   * for review (`hides: false`) and hides nothing until decided.
   */
  request(input: {
    photo: Photo;
    reason: TakedownReason;
    email: string;
    message: string;
    client?: string | undefined;
  }): Promise<TakedownRecord>;
  /** Whether the photo was taken down for good (a `remove` decision): its sold downloads end. */
  isRemoved(photo: Pick<Photo, 'eventCode' | 'id'>): Promise<boolean>;
  list(status?: TakedownStatus): Promise<TakedownRecord[]>;
  get(id: string): Promise<TakedownRecord | null>;
  /**
   * Decides the request (and every open one for the same photo), mails the requesters, and
   * applies it: `remove` deletes the photo's renders and flags unpaid orders holding it.
   */
  decide(
    id: string,
    decision: TakedownDecision,
    by: Actor,
  ): Promise<{ decided: TakedownRecord[]; changed: boolean; flaggedOrders: string[] }>;
  /** The photo a request names, wherever it is now (listed or hidden); undefined when gone from the library. */
  photoOf(request: TakedownRecord): Photo | undefined;
}

export type TakedownDeps = {
  store: TakedownsPort;
  orders: Pick<OrdersPort, 'list' | 'flagRemovedPhoto'>;
  photos: Pick<PhotoLibrary, 'findPhoto' | 'findHiddenPhoto' | 'getEvent' | 'refresh'>;
  images: Pick<ImageService, 'forget'>;
  /** Rendered full-resolution downloads of sold photos (deleted on "remove" like the renders). */
  downloads: Pick<DownloadFiles, 'forget'>;
  /** Wakes the mail worker after mail was enqueued. */
  kickMail: () => void;
  push: Pick<PushNotifier, 'notifyAdmins'>;
  /** Where the dashboard's takedown queue is (the push opens it). */
  queueUrl: string;
  mode: TakedownMode;
  /** OPERATOR_EMAIL is set: each new request mails the photographer a notice with the queue's link. */
  notifyOperator: boolean;
  log: Logger;
};

/**
 * Photos one client address may take off the gallery at once, per hour, in hide-first mode
 * (docs/contract.md, "Hardening, round 2"): a person in a few photos asks for a few; a burst
 * that would empty the gallery (16 of 30 photos hidden in one go) is someone else. Requests
 * past it are kept for the owner's review.
 */
const HIDES_PER_HOUR = 5;
const HOUR_MS = 3_600_000;

export function createTakedowns(deps: TakedownDeps): Takedowns {
  const { store, photos, log } = deps;
  /** This process's library reads what the record hides now (the other processes' within their sync period). */
  const sync = () => photos.refresh();

  const eventName = (slug: string) => photos.getEvent(slug)?.name ?? slug;

  function decisionMail(request: TakedownRecord): MailJobInput {
    return {
      kind: 'takedown',
      orderId: null,
      payload: {
        email: request.email,
        decision: request.decision,
        eventName: eventName(request.eventSlug),
        photoNumber: request.photoNumber,
      },
    };
  }

  function photoOf(request: TakedownRecord): Photo | undefined {
    return (
      photos.findPhoto(request.eventSlug, request.photoId) ?? photos.findHiddenPhoto(request.eventSlug, request.photoId)
    );
  }

  /** Unpaid orders of the event holding the photo get a `photo-removed` entry. */
  async function flagOrders(request: TakedownRecord, by: Actor): Promise<string[]> {
    const unpaid = await deps.orders.list({ statuses: ['pending'], eventSlug: request.eventSlug, includeHeld: true });
    const flagged: string[] = [];
    for (const order of unpaid) {
      if (!order.items.some((line) => line.photoNumber === request.photoNumber)) continue;
      const { changed } = await deps.orders.flagRemovedPhoto(order.id, request.photoNumber, { by });
      if (changed) flagged.push(order.orderNumber);
    }
    return flagged;
  }

  return {
    mode: deps.mode,
    hidesPerHour: HIDES_PER_HOUR,
    async request({ photo, reason, email, message, client }) {
      const hideFirst = deps.mode === 'hide-first';
      const notice = (record: TakedownRecord): MailJobInput => ({
        kind: 'operator',
        orderId: null,
        payload: {
          about: 'takedown',
          eventName: eventName(photo.eventCode),
          photoNumber: photo.number,
          reason,
          email,
          message,
          hidden: record.hides,
        },
      });
      const record = await store.create(
        {
          eventSlug: photo.eventCode,
          photoId: photo.id,
          photoNumber: photo.number,
          reason,
          email,
          message,
          hides: hideFirst,
        },
        {
          mail: (r) => (deps.notifyOperator ? [notice(r)] : []),
          ...(client === undefined
            ? {}
            : { hideLimit: { client, max: HIDES_PER_HOUR, since: new Date(Date.now() - HOUR_MS) } }),
        },
      );
      const hides = record.hides;
      if (deps.notifyOperator) deps.kickMail();
      deps.push.notifyAdmins({
        title: `Takedown request: photo #${photo.number}`,
        body: `${eventName(photo.eventCode)} · ${takedownReasonWords(reason)}${hides ? ' · hidden until you decide' : ''}`,
        url: deps.queueUrl,
        tag: `takedown-${record.id}`,
        event: 'takedown',
      });
      if (hides) await sync();
      const held = hideFirst && !hides;
      log.info(
        { takedown: record.id, event: photo.eventCode, photo: photo.number, hides, overLimit: held },
        'takedown requested',
      );
      return record;
    },
    isRemoved: (photo) => store.isRemoved(photo.eventCode, photo.id),
    list: (status) => store.list(status ? { status } : {}),
    get: (id) => store.get(id),
    photoOf,
    async decide(id, decision, by) {
      const result = await store.decide(id, decision, { by, mail: decisionMail });
      if (!result.changed) return { ...result, flaggedOrders: [] };
      deps.kickMail();
      const request = result.decided[0] as TakedownRecord;
      await sync();
      let flaggedOrders: string[] = [];
      if (decision === 'remove') {
        const photo = photoOf(request);
        if (photo) await deps.images.forget(photo);
        await deps.downloads.forget({ eventCode: request.eventSlug, id: request.photoId });
        flaggedOrders = await flagOrders(request, by);
      }
      log.info(
        { takedown: id, decision, event: request.eventSlug, photo: request.photoNumber, flaggedOrders },
        'takedown decided',
      );
      return { ...result, flaggedOrders };
    },
  };
}
