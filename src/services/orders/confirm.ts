/**
 * Following the confirmation link of a held high-value order (SPEC §8).
 *
 * - signature wrong or token malformed: `invalid` (403 VERIFICATION_FAILED); nothing is read;
 * - the order was confirmed already (second click, mail client prefetch): `already` (200);
 * - the hold lapsed (link past its expiry, or the expiry job cancelled the order): `expired`
 *   (410 VERIFICATION_EXPIRED); confirming it is no longer possible;
 * - the order was cancelled some other way while held: `cancelled` (409 INVALID_TRANSITION);
 * - else the hold is released with the receipt job in the same store write, the admins get
 *   the `created` push, and the mail worker is woken: `confirmed` (200).
 * Single use follows from the release working once: the store's write is atomic, so two
 * concurrent clicks give one `confirmed` and one `already`, and one receipt.
 */
import type { OrderRecord } from '../../domain/order.js';
import type { Notifier } from '../notifier/types.js';
import type { PushNotifier } from '../push/types.js';
import type { OrdersPort } from '../store/ports/orders.js';
import type { LinkSigner } from './verify-link.js';

export type ConfirmOutcome =
  | { kind: 'confirmed'; order: OrderRecord }
  | { kind: 'already'; order: OrderRecord }
  | { kind: 'expired'; order: OrderRecord | null }
  | { kind: 'cancelled'; order: OrderRecord }
  | { kind: 'invalid' };

export type ConfirmDeps = {
  orders: Pick<OrdersPort, 'get' | 'releaseHold'>;
  notifier: Pick<Notifier, 'jobsForNewOrder' | 'kick'>;
  push: Pick<PushNotifier, 'notifyOrder'>;
  links: LinkSigner;
  log: { warn(obj: object, msg: string): void };
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

  return async function confirm(token: string | undefined): Promise<ConfirmOutcome> {
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

    const result = await deps.orders.releaseHold(order.id, {
      by: 'customer',
      mail: deps.notifier.jobsForNewOrder({ id: order.id, held: false }),
    });
    if (!result.changed) return settled(result.order, linkExpired);
    try {
      deps.push.notifyOrder('created', result.order);
      deps.notifier.kick();
    } catch (err) {
      deps.log.warn({ err, orderNumber: result.order.orderNumber }, 'could not announce a confirmed order');
    }
    return { kind: 'confirmed', order: result.order };
  };
}
