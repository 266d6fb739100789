/**
 * A customer's (or an admin's) feedback on an order (docs/contract.md, "Orders", and
 * "Hardening, round 2" for the proof it needs): an unknown order, a wrong email and a missing
 * one are the same 404, and feedback is only ever appended. The cell it grows is capped (a
 * spreadsheet cell holds 50,000 characters).
 */
import { type Actor, type OrderRecord, orderEmailMatches } from '../../domain/order.js';
import { appError } from '../../errors/catalogue.js';
import type { OrdersPort } from '../store/ports/orders.js';

/** All feedback of one order together, so a guessed order number cannot grow a row forever. */
export const MAX_FEEDBACK_CHARS = 20_000;

/** Appends `text` to the order's feedback; `email` is the proof unless the sender is an admin. */
export type LeaveFeedback = (
  orderNumber: string,
  text: string,
  sender: { admin: boolean; email: string | undefined; by: Actor },
) => Promise<OrderRecord>;

export const feedbackOn =
  (orders: Pick<OrdersPort, 'get' | 'appendFeedback'>): LeaveFeedback =>
  async (orderNumber, text, sender) => {
    const found = await orders.get(orderNumber);
    // Compared even when there is no such order, so both take the same time.
    const matches = orderEmailMatches(found ?? { customerEmail: '' }, sender.email ?? '');
    if (!found || (!sender.admin && !matches)) {
      throw appError('ORDER_NOT_FOUND', { details: 'No order with that number and email address' });
    }
    // `[<ISO time>] ` and the blank line between entries count too.
    if (found.feedback.length + text.length + 30 > MAX_FEEDBACK_CHARS) {
      throw appError('VALIDATION_FAILED', {
        message: `Order ${found.orderNumber} has no room for more feedback`,
        details: { limit: MAX_FEEDBACK_CHARS, used: found.feedback.length },
      });
    }
    return orders.appendFeedback(found.id, text, new Date(), {
      by: sender.by,
      proof: sender.admin ? 'admin' : 'email',
    });
  };
