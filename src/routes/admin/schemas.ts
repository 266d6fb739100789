/**
 * Shapes of the admin order routes (docs/contract.md, "Status and shipping"). Bodies are
 * strict: a field not listed is 400, never silently ignored.
 */
import { z } from 'zod';
import { FulfillmentType, ORDER_STATUSES, OrderStatus } from '../../domain/order.js';
import { City, CustomerEmail, CustomerName, Phone, State, Street, Zip } from '../../schemas/customer.js';
import { AdminOrder } from '../../schemas/order.js';
import { PrintAll } from '../common/order-ref.js';

export const ListQuery = z.object({
  eventSlug: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only orders of this event (its code); an event with no orders gives an empty list'),
});

/** The summary's query: the list's, and `by=photographer` (docs/contract.md, "The photographer's metadata"). */
export const SummaryQuery = ListQuery.extend({
  by: z
    .enum(['photographer'])
    .optional()
    .describe('`photographer`: adds `byPhotographer`, the paid orders’ lines by the photographer of their photo'),
});

const EditableFieldsBody = {
  customerName: CustomerName,
  customerEmail: CustomerEmail,
  customerPhone: Phone.describe('7–20 digits with `+ ( ) - . space`, or empty'),
  fulfillmentType: FulfillmentType,
  shippingAddress: Street.describe('Street address; required (with city, state, zipCode) when the order ships'),
  city: City,
  state: State,
  zipCode: Zip,
};

export const UpdateOrderBody = z
  .strictObject({
    status: OrderStatus.optional().describe(
      'Moves (docs/contract.md, "Status and shipping"): pending → paid | void | cancelled, paid → void, paid → pending (undo within 15 minutes)',
    ),
    ...z.object(EditableFieldsBody).partial().shape,
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'OrderUpdate' });
export type UpdateOrderBody = z.infer<typeof UpdateOrderBody>;

export const UpdateStatusBody = z
  .strictObject({
    status: z.enum(ORDER_STATUSES).describe('The status to move to'),
  })
  .meta({ id: 'OrderStatusUpdate' });

const TrackingNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,62}[A-Za-z0-9])?$/, '1-64 letters, digits, spaces or hyphens')
  .describe("The carrier's tracking number");

export const UpdateShippingBody = z
  .strictObject({
    shipped: z.boolean().optional().describe('true: mark shipped; false: undo (tracking number cleared)'),
    trackingNumber: TrackingNumber.optional().describe('Marks the order shipped with this tracking number'),
    printAll: PrintAll,
  })
  .refine((b) => b.shipped !== undefined || b.trackingNumber !== undefined, {
    message: 'send shipped, trackingNumber, or both',
  })
  .refine((b) => !(b.shipped === false && b.trackingNumber !== undefined), {
    message: 'a trackingNumber marks the order shipped; it cannot go with shipped: false',
    path: ['trackingNumber'],
  })
  .meta({ id: 'OrderShippingUpdate' });
export type UpdateShippingBody = z.infer<typeof UpdateShippingBody>;

export const OrderList = z.array(AdminOrder).meta({ id: 'OrderList' });
