/**
 * The confirmation link of a held high-value order (docs/contract.md, "Notifications").
 * Opening the link (GET) only looks (`inspect`): mail scanners and link previews follow
 * links, so a GET never confirms. The page it shows has a button that POSTs the token, and
 * that (`confirm`) releases the hold.
 *
 * - signature wrong or token malformed: `invalid` (403 VERIFICATION_FAILED); nothing is read;
 * - the order was confirmed already (second click): `already` (200);
 * - the hold lapsed (link past its expiry, or the expiry job cancelled the order): `expired`
 *   (410 VERIFICATION_EXPIRED); confirming it is no longer possible;
 * - the order was cancelled some other way while held: `cancelled` (409 INVALID_TRANSITION);
 * - else `inspect` answers `confirmable` (200, the page with the button), and `confirm`
 *   releases the hold with the receipt job in the same store write, sends the admins the
 *   `created` push, wakes the mail worker, and answers `confirmed` (200);
 * - the order's coupon has no use left any more (a held order takes its use only now,
 *   docs/contract.md, "Hardening, round 2"): `couponUnavailable` (409 COUPON_INVALID), and
 *   the order stays held; confirming again works once a use comes back.
 * Single use follows from the release working once: the store's write is atomic, so two
 * concurrent confirmations give one `confirmed` and one `already`, and one receipt.
 */

import type { OrderRecord } from '../../domain/order.js';
import { isAppError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { Notifier } from '../notifier/types.js';
import type { PushNotifier } from '../push/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { LinkSigner } from './verify-link.js';

export type ConfirmOutcome =
  | { kind: 'confirmable'; order: OrderRecord }
  | { kind: 'confirmed'; order: OrderRecord }
  | { kind: 'already'; order: OrderRecord }
  | { kind: 'expired'; order: OrderRecord | null }
  | { kind: 'cancelled'; order: OrderRecord }
  | { kind: 'couponUnavailable'; order: OrderRecord }
  | { kind: 'invalid' };

export type ConfirmDeps = {
  orders: Pick<OrdersPort, 'get' | 'releaseHold'>;
  notifier: Pick<Notifier, 'jobsForNewOrder' | 'kick'>;
  push: Pick<PushNotifier, 'notifyOrder'>;
  links: LinkSigner;
  log: Logger;
  now?: () => Date;
};

export function createConfirmer(deps: ConfirmDeps) {
  const now = deps.now ?? (() => new Date());

  /**
   * An order no longer held: confirmed before, or cancelled. A cancelled order whose link has
   * expired was cancelled by the expiry job (link and hold expire at the same instant); one
   * whose link is still good was cancelled by an admin.
   */
  function settled(order: OrderRecord, linkExpired: boolean): ConfirmOutcome {
    if (order.status !== 'cancelled') return { kind: 'already', order };
    return linkExpired ? { kind: 'expired', order } : { kind: 'cancelled', order };
  }

  /** What the link would do now, without doing it. */
  async function inspect(token: string | undefined): Promise<ConfirmOutcome> {
    const check = deps.links.check(token);
    if (!check.ok) return { kind: 'invalid' };
    const order = await deps.orders.get(check.orderId);
    // Signed by us for an order that no longer exists (a store restored from a backup).
    if (!order) return { kind: 'expired', order: null };

    const at = now().getTime();
    const holdEnd = Math.min(
      check.expiresAt.getTime(),
      order.holdExpiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(order.holdExpiresAt),
    );
    const linkExpired = at >= holdEnd;
    if (!order.held) return settled(order, linkExpired);
    if (order.status !== 'pending') return { kind: 'cancelled', order };
    if (linkExpired) return { kind: 'expired', order };
    return { kind: 'confirmable', order };
  }

  async function confirm(token: string | undefined): Promise<ConfirmOutcome> {
    const seen = await inspect(token);
    if (seen.kind !== 'confirmable') return seen;
    let result: Awaited<ReturnType<typeof deps.orders.releaseHold>>;
    try {
      result = await deps.orders.releaseHold(seen.order.id, {
        by: 'customer',
        mail: deps.notifier.jobsForNewOrder({ id: seen.order.id, held: false }),
      });
    } catch (err) {
      if (isAppError(err) && err.code === 'COUPON_INVALID') return { kind: 'couponUnavailable', order: seen.order };
      throw err;
    }
    if (!result.changed) return settled(result.order, false);
    try {
      deps.push.notifyOrder('created', result.order);
      deps.notifier.kick();
    } catch (err) {
      deps.log.warn({ err, orderNumber: result.order.orderNumber }, 'could not announce a confirmed order');
    }
    return { kind: 'confirmed', order: result.order };
  }

  return { inspect, confirm };
}
