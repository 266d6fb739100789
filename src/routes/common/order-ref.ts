/** How a route names one order: its id or its order number (docs/contract.md, "Orders"). */
import { z } from 'zod';
import type { OrderRecord } from '../../domain/order.js';
import { AdminOrder } from '../../schemas/order.js';

export const OrderRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('The order’s id or its order number (`AX25-0001`, any case)');

/** docs/contract.md, "Fulfilment": fulfilment follows the prints. */
export const PrintAll = z
  .boolean()
  .optional()
  .describe(
    'true: mark every print line of the order that is not printed yet printed with this change (history records each); without it the change is refused with 409 `NOT_PRINTED` while one is not',
  );

export const IdParams = z.object({ id: OrderRef });
export const OrderNumberParams = z.object({ orderNumber: OrderRef });

/** What the admin's order changes answer (status, shipping, pickup): the order as it is now. */
export const OrderChangeResponse = z
  .object({
    success: z.literal(true),
    message: z.string().describe('What happened, e.g. "Order AX25-0001 is now paid" or "... nothing changed"'),
    changed: z.boolean().describe('false when the order already was in the state asked for'),
    order: AdminOrder,
  })
  .meta({ id: 'OrderChange' });

/** The answer of an order change: the service's result, the order as the admin sees it. */
export const orderChanged = (
  result: { message: string; changed: boolean; order: OrderRecord },
  view: (order: OrderRecord) => AdminOrder,
) => ({ success: true as const, message: result.message, changed: result.changed, order: view(result.order) });
