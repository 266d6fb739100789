/**
 * The order status machine (docs/contract.md, "Status and shipping"), in one place. Stores call these inside their
 * transaction (or lock), so the check and the write are atomic.
 */
import { appError } from '../errors/catalogue.js';
import type { Actor, EditableFields, OrderRecord, OrderStatus, PickupStatus } from './order.js';

const allowed: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'void', 'cancelled'],
  paid: ['void'],
  void: [],
  cancelled: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return from === to || allowed[from].includes(to);
}

/** 'same' when nothing changes; throws 409 INVALID_TRANSITION for a move the contract forbids. */
function checkTransition(from: OrderStatus, to: OrderStatus): 'same' | 'change' {
  if (from === to) return 'same';
  if (!allowed[from].includes(to)) {
    throw appError('INVALID_TRANSITION', {
      message: `An order that is ${from} cannot become ${to}`,
      details: { from, to, allowed: allowed[from] },
    });
  }
  return 'change';
}

/** How long after "Mark paid" an admin may take it back (docs/contract.md, "Fulfilment"). */
export const UNDO_PAID_WINDOW_MS = 15 * 60_000;

/** The history entry of the order's last move to `paid`; undefined when it never was. */
function lastPaid(order: Pick<OrderRecord, 'history'>): OrderRecord['history'][number] | undefined {
  for (let i = order.history.length - 1; i >= 0; i--) {
    const h = order.history[i];
    if (h?.action === 'status' && h.to === 'paid') return h;
  }
  return undefined;
}

/** When the order was last marked paid, from its history; null when it never was. */
export function lastPaidAt(order: Pick<OrderRecord, 'history'>): string | null {
  return lastPaid(order)?.at ?? null;
}

/** Who may undo "Mark paid": the owner (any admin:), or the staff token that marked it (docs/contract.md, "Roles"). */
function mayUndo(markedBy: Actor | undefined, by: Actor): boolean {
  if (by.startsWith('admin')) return true;
  return by.startsWith('staff:') && markedBy === by;
}

/**
 * Why "Mark paid" can't be undone now, or null when it can: within UNDO_PAID_WINDOW_MS of
 * marking it paid, while nothing of it was printed, shipped or handed over, by the owner or by
 * the staff token that marked it (docs/contract.md, "Fulfilment" and "Roles"). An order the
 * customer paid online can't go back to pending (docs/contract.md, "Hardening, round 2"):
 * the money would stay with the photographer while the order looked unpaid, and cancelling it
 * then would refund nothing; voiding it refunds it.
 */
export function undoPaidRefusal(
  order: Pick<OrderRecord, 'status' | 'history' | 'printed' | 'shippingStatus' | 'pickupStatus'>,
  now: Date,
  by: Actor,
): string | null {
  if (order.status !== 'paid') return 'the order is not paid';
  const paid = lastPaid(order);
  if (paid?.by === 'stripe') return 'it was paid online; void it to refund the payment';
  if (!mayUndo(paid?.by as Actor | undefined, by)) {
    return by.startsWith('staff:')
      ? 'another admin marked it paid; only they or the owner can undo it'
      : 'only an admin can undo "Mark paid"';
  }
  if (paid === undefined || now.getTime() - Date.parse(paid.at) > UNDO_PAID_WINDOW_MS) {
    return 'it was marked paid more than 15 minutes ago';
  }
  if (order.printed.length > 0) return 'some of its prints are marked printed';
  if (order.shippingStatus === 'shipped') return 'it is marked shipped';
  if (order.pickupStatus === 'ready' || order.pickupStatus === 'collected') return `it is ${order.pickupStatus}`;
  return null;
}

/**
 * A status move, with the undo of "Mark paid" (`paid` → `pending`) on top of the table of docs/contract.md, "Status and shipping":
 * 'same' when nothing changes; 409 INVALID_TRANSITION for a move that is not allowed (now).
 */
export function checkStatusChange(
  order: Pick<OrderRecord, 'status' | 'history' | 'printed' | 'shippingStatus' | 'pickupStatus'>,
  to: OrderStatus,
  now: Date,
  by: Actor,
): 'same' | 'change' {
  // Only an admin (owner or staff) undoes "Mark paid"; to anyone else (the spreadsheet's hand
  // edits) it is a move the table forbids, refused in its words.
  if (order.status === 'paid' && to === 'pending' && (by.startsWith('admin') || by.startsWith('staff:'))) {
    const refusal = undoPaidRefusal(order, now, by);
    if (refusal !== null) {
      throw appError('INVALID_TRANSITION', {
        message: `"Mark paid" can no longer be undone: ${refusal}`,
        details: { from: order.status, to, reason: refusal },
      });
    }
    return 'change';
  }
  return checkTransition(order.status, to);
}

/** Shipping needs a paid order that ships (docs/contract.md, "Status and shipping"); else 409 ORDER_NOT_SHIPPABLE. */
export function checkShippable(order: Pick<OrderRecord, 'status' | 'fulfillmentType' | 'orderNumber'>): void {
  if (order.status !== 'paid' || order.fulfillmentType !== 'ship') {
    throw appError('ORDER_NOT_SHIPPABLE', {
      message:
        order.fulfillmentType === 'digital'
          ? `Order ${order.orderNumber} holds digital files only: they are downloaded, nothing is shipped`
          : order.fulfillmentType !== 'ship'
            ? `Order ${order.orderNumber} is for pickup and is not shipped`
            : `Order ${order.orderNumber} must be paid before it ships (it is ${order.status})`,
      details: { status: order.status, fulfillmentType: order.fulfillmentType },
    });
  }
}

/**
 * Pickup moves: forward `waiting` → `ready` → `collected` (or straight to `collected` when
 * the customer comes first), and one step back to undo a slip.
 */
const pickupMoves: Record<PickupStatus, readonly PickupStatus[]> = {
  waiting: ['ready', 'collected'],
  ready: ['collected', 'waiting'],
  collected: ['ready'],
};

/**
 * A pickup status move needs a paid pickup order: else 409 ORDER_NOT_PICKUP (it ships) or
 * INVALID_TRANSITION (not paid, or a move not in the table). 'same' when nothing changes.
 */
export function checkPickup(
  order: Pick<OrderRecord, 'status' | 'fulfillmentType' | 'pickupStatus' | 'orderNumber'>,
  to: PickupStatus,
): 'same' | 'change' {
  if (order.fulfillmentType !== 'pickup' || order.pickupStatus === null) {
    throw appError('ORDER_NOT_PICKUP', {
      message:
        order.fulfillmentType === 'digital'
          ? `Order ${order.orderNumber} holds digital files only: they are downloaded, nothing is collected`
          : `Order ${order.orderNumber} ships; it is not collected at the booth`,
      details: { fulfillmentType: order.fulfillmentType },
    });
  }
  const from = order.pickupStatus;
  if (order.status !== 'paid') {
    throw appError('INVALID_TRANSITION', {
      message: `Order ${order.orderNumber} must be paid before it is ${to} (it is ${order.status})`,
      details: { status: order.status, from, to },
    });
  }
  if (from === to) return 'same';
  if (!pickupMoves[from].includes(to)) {
    throw appError('INVALID_TRANSITION', {
      message: `A pickup order that is ${from} cannot become ${to}`,
      details: { from, to, allowed: pickupMoves[from] },
    });
  }
  return 'change';
}

/** Field edits only before fulfilment: pending or paid, not shipped, not collected (docs/contract.md, "Status and shipping"). */
export function checkEditable(
  order: Pick<OrderRecord, 'status' | 'shippingStatus' | 'pickupStatus' | 'orderNumber'>,
  fields: Partial<EditableFields>,
): void {
  if (Object.keys(fields).length === 0) return;
  const open =
    (order.status === 'pending' || order.status === 'paid') &&
    order.shippingStatus !== 'shipped' &&
    order.pickupStatus !== 'collected';
  if (!open) {
    const state =
      order.shippingStatus === 'shipped' ? 'shipped' : order.pickupStatus === 'collected' ? 'collected' : order.status;
    throw appError('ORDER_FULFILLED', {
      message: `Order ${order.orderNumber} is ${state} and can no longer be edited`,
      details: { status: order.status, shippingStatus: order.shippingStatus, pickupStatus: order.pickupStatus },
    });
  }
}
