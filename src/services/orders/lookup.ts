/**
 * A customer reads their own order by its number and email address (docs/contract.md,
 * "Orders"; `POST /api/orders/lookup`). A wrong email and an unknown order are the same 404
 * `ORDER_NOT_FOUND`, and the comparison takes the same path whatever the address, so nobody
 * can learn which order numbers exist. A pending order whose checkout could not be opened when
 * it was placed gets it now.
 */
import { type OrderRecord, orderEmailMatches } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import type { Logger } from '../../lib/logger.js';
import type { DownloadLink } from '../downloads/plugin.js';
import type { OrdersPort } from '../store/ports/orders.js';

/** What the customer's view of an order is made from. */
export type LookedUpOrder = {
  order: OrderRecord;
  /** The event's name, or null when the event is gone from the library. */
  eventName: string | null;
  downloads: DownloadLink[];
  paymentInstructions: string;
};

export function createOrderLookup(deps: {
  orders: Pick<OrdersPort, 'get'>;
  openCheckout(order: OrderRecord): Promise<OrderRecord>;
  paymentInstructions(): Promise<string>;
  eventName(eventSlug: string): string | undefined;
  downloadLinks(order: OrderRecord): DownloadLink[];
  log: Logger;
}): (orderNumber: string, email: string) => Promise<LookedUpOrder> {
  return async (orderNumber, email) => {
    const found = await deps.orders.get(orderNumber);
    // Compared even when there is no order, so both failures take the same path.
    const matches = orderEmailMatches(found ?? { customerEmail: '' }, email);
    if (!found || !matches) {
      deps.log.info({ orderNumber }, 'order lookup: no match');
      throw appError('ORDER_NOT_FOUND', {
        message: 'No order with that number and email address',
        details: 'Check the order number and use the email address the order was placed with',
      });
    }
    const order = await deps.openCheckout(found);
    return {
      order,
      eventName: deps.eventName(order.eventSlug) ?? null,
      downloads: deps.downloadLinks(order),
      paymentInstructions: await deps.paymentInstructions(),
    };
  };
}
