/**
 * Order intake: the one pipeline behind `POST /api/orders/create` and `POST /api/orders`.
 * The routes validate the body's shape and hand over a `Submission`.
 *
 * Order of checks: what public information settles first, so a mistake the customer can
 * correct does not spend their CAPTCHA (a token is accepted once); then the CAPTCHA, before
 * anything that costs money or tells a secret (a paid address look-up, whether a coupon
 * exists; docs/contract.md, "Hardening, round 2"):
 *   1. who: admin credentials (booth) or a CAPTCHA token; an email unless booth
 *   2. Idempotency-Key: before the CAPTCHA, since a retry carries the already-spent token
 *      and must get the first answer back
 *   3. event (body, else Referer)   4. open for orders (booth: not archived)
 *   5. lines against the photos; without a coupon also prices and client figures
 *   6. CAPTCHA verified (and spent)   7. with a coupon: coupon, prices and figures
 *   8. address check (ship only)
 *   9. order, mail job and idempotent response stored in one transaction; then push and kick.
 *
 * High-value web orders are held until the customer follows the signed mailed link. The
 * intake makes the order's id itself, so the link is signed before the order is stored and
 * its mail is stored with it: there is never a held order without its confirmation mail.
 */
import {
  type Actor,
  type FulfillmentType,
  fulfilmentOf,
  type NewOrder,
  type OrderChannel,
  type OrderRecord,
} from '../../domain/order.js';
import { closedReason, type PricingOptions } from '../../domain/pricing.js';
import { appError } from '../../errors/catalogue.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { AddressVerifier, PostalAddress } from '../address/types.js';
import type { Captcha } from '../captcha/types.js';
import type { EffectiveEvent, EventCatalog } from '../events/catalog.js';
import { eventCodeFromReferer } from '../events/referer.js';
import type { Notifier } from '../notifier/types.js';
import type { PhotoLibrary } from '../photos/types.js';
import type { PushNotifier } from '../push/types.js';
import type { CouponsPort } from '../store/ports/coupons.js';
import type { IdempotencyKeysPort } from '../store/ports/idempotency-keys.js';
import type { OrdersPort } from '../store/ports/orders.js';
import { idempotent, type KeyReservation, requestFingerprint, type StoredResponse } from './idempotency.js';
import { priceResolved, type RequestedLines, resolveLines } from './lines.js';
import type { LinkSigner } from './verify-link.js';

type CustomerInput = {
  name: string;
  email: string;
  /** '' when not given (variant A). */
  phone: string;
  fulfillmentType: FulfillmentType;
  /** Empty strings for a pickup order without an address. */
  address: PostalAddress;
};

export type Submission = {
  /** The route, part of the idempotency fingerprint. */
  route: string;
  /** The validated body, fingerprinted for Idempotency-Key (without captchaToken). */
  body: unknown;
  idempotencyKey?: string | undefined;
  /** Valid admin credentials were sent (the route judged them; wrong ones never get here). */
  admin: boolean;
  /** Who submits, for the order's history: `customer`, or the admin (booth). */
  by: Actor;
  captchaToken?: string | undefined;
  ip: string;
  eventSlug?: string | undefined;
  /** Variant B: the event is taken from the gallery page the customer came from. */
  referer?: string | undefined;
  lines: RequestedLines;
  /** The coupon code the customer gave, if any. */
  couponCode?: string | undefined;
  customer: CustomerInput;
  /** The request's name of the email field, for its VALIDATION_FAILED details. */
  emailField: string;
  /** The request's names of the address fields, for ADDRESS_INVALID details. */
  addressFields: Record<keyof PostalAddress, string>;
  /** The 201 body for the created order (variant A confirmation, variant B Order). */
  respond: (order: OrderRecord) => unknown;
};

export type SubmissionResult = {
  statusCode: number;
  /** The JSON body, serialised once (and stored as is for Idempotency-Key replays). */
  body: string;
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
  /** The created order (absent for a replay). */
  order?: OrderRecord;
};

export type IntakeDeps = {
  orders: Pick<OrdersPort, 'create'>;
  idempotencyKeys: Pick<IdempotencyKeysPort, 'reserve' | 'release'>;
  events: Pick<EventCatalog, 'get'>;
  photos: Pick<PhotoLibrary, 'findPhoto'>;
  /** Where a code given with the order is looked up; its use is taken with the order (ports/orders.ts). */
  coupons: Pick<CouponsPort, 'get'>;
  /**
   * Opens the online checkout of a new order (fastify.payments; the order as it was when there
   * is no provider or it can't be reached). The answer then carries its `paymentUrl`; a replay
   * under an Idempotency-Key answers the first response, and the order page shows the link.
   */
  checkout?: (order: OrderRecord) => Promise<OrderRecord>;
  captcha: Pick<Captcha, 'verify' | 'provider'>;
  addressVerifier: Pick<AddressVerifier, 'verify' | 'name'>;
  notifier: Pick<Notifier, 'jobsForNewOrder' | 'kick'>;
  push: Pick<PushNotifier, 'notifyOrder'>;
  links: LinkSigner;
  settings: {
    highValueThresholdCents: number;
    holdTtlMs: number;
    /** A pending Idempotency-Key reservation older than this was abandoned. */
    staleReservationMs: number;
  };
  log: Logger;
  now?: () => Date;
};

export interface OrderIntake {
  submit(submission: Submission): Promise<SubmissionResult>;
}

export function createOrderIntake(deps: IntakeDeps): OrderIntake {
  const now = deps.now ?? (() => new Date());

  /** Only an order taken at the booth (admin credentials) may leave the email out. */
  function requireEmail(s: Submission): void {
    if (s.admin || s.customer.email !== '') return;
    throw appError('VALIDATION_FAILED', {
      message: 'An email address is required',
      details: [
        { in: 'body', field: s.emailField, message: 'required (only orders taken at the booth may leave it out)' },
      ],
    });
  }

  function requireWho(s: Submission): void {
    if (s.admin || deps.captcha.provider === 'off') return;
    if (s.captchaToken === undefined || s.captchaToken.trim() === '') {
      throw appError('CAPTCHA_REQUIRED', { details: 'Send the CAPTCHA solution as captchaToken or X-Captcha-Token' });
    }
  }

  /** The event the order is for: the body's `eventSlug`, else the Referer's gallery URL. */
  async function resolveEvent(s: Submission): Promise<EffectiveEvent> {
    const code = s.eventSlug ?? eventCodeFromReferer(s.referer);
    if (code === undefined) {
      throw appError('EVENT_REQUIRED', {
        details: 'Send eventSlug, or submit from a gallery page (Referer: .../event/<eventSlug>/...)',
      });
    }
    const event = await deps.events.get(code);
    if (!event) throw appError('EVENT_NOT_FOUND', { details: code.slice(0, 200) });
    const reason = closedReason(event, now());
    // At the booth the photographer sells for any event that is not archived, also when
    // online ordering is off or past its deadline.
    if (reason !== null && !(s.admin && reason !== 'archived')) {
      const why = {
        archived: 'the event is archived',
        disabled: 'ordering is disabled for this event',
        deadline: `the ordering deadline (${event.deadline}) has passed`,
      }[reason];
      throw appError('ORDERING_CLOSED', {
        message: `Ordering is closed for ${event.name}: ${why}`,
        details: { eventSlug: event.code, reason, deadline: event.deadline },
      });
    }
    return event;
  }

  /** `addressVerified` and the address to store: the standardised one when the check found it. */
  async function checkAddress(
    s: Submission,
    fulfillmentType: FulfillmentType,
  ): Promise<{ address: PostalAddress; verified: boolean | null }> {
    const given = s.customer.address;
    if (fulfillmentType !== 'ship') return { address: given, verified: null };
    const check = await deps.addressVerifier.verify(given);
    if (check.status === 'invalid') {
      const field = check.field ? s.addressFields[check.field] : undefined;
      throw appError('ADDRESS_INVALID', {
        message: `The shipping address is not deliverable: ${check.reason}`,
        details: { field: field ?? null, reason: check.reason },
      });
    }
    if (check.status === 'valid') return { address: check.address, verified: true };
    // Unverified: let the order through, flagged; `off` means not checked at all.
    return { address: given, verified: deps.addressVerifier.name === 'off' ? null : false };
  }

  async function create(
    s: Submission,
    key?: KeyReservation,
  ): Promise<{ order: OrderRecord; response: StoredResponse }> {
    const event = await resolveEvent(s);
    const find = (ref: string) => deps.photos.findPhoto(event.code, ref);
    const lines = resolveLines(event.code, s.lines, find);
    // The event's rules as they are now: packages and the early bird come with the event.
    const price = (coupon: PricingOptions['coupon']) =>
      priceResolved(event, lines, s.customer.fulfillmentType, { now: now(), eventSlug: event.code, coupon });
    // Without a coupon the price list settles everything, and it is public: priced before the CAPTCHA.
    let priced = s.couponCode === undefined ? price(undefined) : undefined;
    if (!s.admin) await deps.captcha.verify(s.captchaToken, s.ip);
    if (priced === undefined) {
      const code = s.couponCode as string;
      priced = price({ code, record: (await deps.coupons.get(code)) ?? undefined });
    }
    // Digital files alone are neither shipped nor collected, whatever was asked (docs/contract.md, "Selling").
    const fulfillmentType = fulfilmentOf(priced.lines, s.customer.fulfillmentType);
    const { address, verified } = await checkAddress(s, fulfillmentType);

    const channel: OrderChannel = s.admin ? 'booth' : 'web';
    const held = channel === 'web' && priced.totalCents >= deps.settings.highValueThresholdCents;
    // Whole seconds, so the link's expiry and the order's are the same instant.
    const holdExpiresAt = held ? new Date(Math.floor((now().getTime() + deps.settings.holdTtlMs) / 1000) * 1000) : null;
    const id = newId();
    const input: NewOrder = {
      id,
      prefix: event.prefix,
      eventSlug: event.code,
      customerName: s.customer.name,
      customerEmail: s.customer.email,
      customerPhone: s.customer.phone,
      fulfillmentType,
      shippingAddress: address.line1,
      city: address.city,
      state: address.state,
      zipCode: address.zip,
      items: priced.lines,
      subtotalCents: priced.subtotalCents,
      shippingFeeCents: priced.shippingFeeCents,
      discountCents: priced.discountCents,
      // Only a coupon that beat the early bird is used (and counted); one it beat is not.
      couponCode: priced.coupon?.applied ? priced.coupon.code : null,
      totalCents: priced.totalCents,
      held,
      holdExpiresAt: holdExpiresAt?.toISOString() ?? null,
      addressVerified: verified,
      channel,
    };

    // The receipt, or for a held order the confirmation carrying the link signed with its id,
    // is stored in the order's own transaction: both are there, or neither.
    // So is the Idempotency-Key's response: made from the order inside its transaction, and
    // answered byte for byte.
    const verifyUrl = holdExpiresAt ? deps.links.url(id, holdExpiresAt) : undefined;
    let response: StoredResponse | undefined;
    const respond = (order: OrderRecord): StoredResponse => {
      response = { statusCode: 201, body: JSON.stringify(s.respond(order)) };
      return response;
    };
    const order = await deps.orders.create(input, {
      by: s.by,
      mail: deps.notifier.jobsForNewOrder({ id, held }, verifyUrl),
      idempotency: key && { key: key.key, reservedAt: key.reservedAt, respond },
    });
    return { order, response: response ?? respond(order) };
  }

  /** Mail and push never block or fail the request: the order is stored already. */
  function announce(order: OrderRecord): void {
    try {
      if (!order.held) deps.push.notifyOrder('created', order);
      deps.notifier.kick();
    } catch (err) {
      deps.log.warn({ err, orderNumber: order.orderNumber }, 'could not announce a new order');
    }
  }

  return {
    async submit(s) {
      requireWho(s);
      requireEmail(s);
      let result: { order: OrderRecord; response: StoredResponse };
      if (s.idempotencyKey !== undefined) {
        const eventKey = s.eventSlug ?? eventCodeFromReferer(s.referer) ?? '';
        const outcome = await idempotent(
          deps.idempotencyKeys,
          {
            key: s.idempotencyKey,
            fingerprint: requestFingerprint(s.route, eventKey, s.body),
            now: now(),
            staleMs: deps.settings.staleReservationMs,
          },
          (reservation) => create(s, reservation),
        );
        if (outcome.replayed)
          return { statusCode: outcome.response.statusCode, body: outcome.response.body, replayed: true };
        result = outcome.value;
      } else {
        result = await create(s);
      }
      if (deps.checkout && !result.order.held) {
        const order = await deps.checkout(result.order);
        if (order !== result.order) {
          result = {
            order,
            response: { statusCode: result.response.statusCode, body: JSON.stringify(s.respond(order)) },
          };
        }
      }
      announce(result.order);
      // Field by field: a spread followed by more properties is slow on Node 20 (routes/orders).
      return {
        statusCode: result.response.statusCode,
        body: result.response.body,
        replayed: false,
        order: result.order,
      };
    },
  };
}
