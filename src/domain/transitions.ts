/**
 * The order status machine (docs/contract.md, "Status and shipping"), in one place. Stores call these inside their
 * transaction (or lock), so the check and the write are atomic.
 */
import { appError } from '../errors/catalogue.js';
import type { EditableFields, OrderRecord, OrderStatus } from './order.js';

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
export function checkTransition(from: OrderStatus, to: OrderStatus): 'same' | 'change' {
  if (from === to) return 'same';
  if (!allowed[from].includes(to)) {
    throw appError('INVALID_TRANSITION', {
      message: `An order that is ${from} cannot become ${to}`,
      details: { from, to, allowed: allowed[from] },
    });
  }
  return 'change';
}

/** Shipping needs a paid order that ships (docs/contract.md, "Status and shipping"); else 409 ORDER_NOT_SHIPPABLE. */
export function checkShippable(order: Pick<OrderRecord, 'status' | 'fulfillmentType' | 'orderNumber'>): void {
  if (order.status !== 'paid' || order.fulfillmentType !== 'ship') {
    throw appError('ORDER_NOT_SHIPPABLE', {
      message:
        order.fulfillmentType !== 'ship'
          ? `Order ${order.orderNumber} is for pickup and is not shipped`
          : `Order ${order.orderNumber} must be paid before it ships (it is ${order.status})`,
      details: { status: order.status, fulfillmentType: order.fulfillmentType },
    });
  }
}

/** Field edits only before fulfilment: pending or paid, and not shipped (docs/contract.md, "Status and shipping"). */
export function checkEditable(
  order: Pick<OrderRecord, 'status' | 'shippingStatus' | 'orderNumber'>,
  fields: Partial<EditableFields>,
): void {
  if (Object.keys(fields).length === 0) return;
  const open = (order.status === 'pending' || order.status === 'paid') && order.shippingStatus !== 'shipped';
  if (!open) {
    throw appError('ORDER_FULFILLED', {
      message: `Order ${order.orderNumber} is ${order.shippingStatus === 'shipped' ? 'shipped' : order.status} and can no longer be edited`,
      details: { status: order.status, shippingStatus: order.shippingStatus },
    });
  }
}
