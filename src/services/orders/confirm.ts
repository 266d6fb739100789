/**
 * The confirmation link of a held high-value order (docs/contract.md, "Notifications").
 * A GET only looks (`inspect`): mail scanners and link previews follow links, so only the
 * page's button (a POST, `confirm`) releases the hold, with the receipt job in the same write.
 * A held order takes its coupon use only now ("Hardening, round 2"): with none left it stays
 * held, and confirming works again once a use comes back.
 * Single use follows from the release being atomic: two concurrent confirmations give one
 * `confirmed`, one `already`, and one receipt.
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
