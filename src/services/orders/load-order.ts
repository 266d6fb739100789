/**
 * The one lookup of an order by the reference a request gives (its id or its order number,
 * docs/contract.md, "Orders"), with the 404 every route and service answers when it is none.
 */
import type { OrderRecord } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import type { OrdersPort } from '../store/ports/orders.js';

/** The order `ref` names, or 404 ORDER_NOT_FOUND. */
export async function loadOrder(orders: Pick<OrdersPort, 'get'>, ref: string): Promise<OrderRecord> {
  const order = await orders.get(ref);
  if (!order) {
    throw appError('ORDER_NOT_FOUND', {
      message: `Order ${ref.slice(0, 100)} not found`,
      details: { ref: ref.slice(0, 100) },
    });
  }
  return order;
}
