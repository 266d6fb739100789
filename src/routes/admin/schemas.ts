/**
 * Request and response shapes of the admin order routes (SPEC §5). Bodies are strict
 * objects: a field that is not listed is 400 VALIDATION_FAILED, never silently ignored.
 * Field limits follow SPEC §4 (name ≤ 100, email ≤ 254, phone 7–20 digits).
 */
import { z } from 'zod';
import { FulfillmentType, ORDER_STATUSES, OrderStatus } from '../../domain/order.js';
import { ApiOrder } from '../../schemas/order.js';
import { hasLineBreak } from '../../services/orders/text.js';

/** C0 and C1 control characters (tabs and newlines included): never part of a one-line field. */
const CONTROL = /\p{Cc}/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No lone surrogate (JSON can carry one; no store or mail can). */
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

/** One line of text: trimmed, no control characters, well-formed Unicode, at most `max`. */
export function oneLine(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    // U+2028/U+2029 are line breaks too (hasLineBreak), though not control characters.
    .refine((s) => !CONTROL.test(s) && !hasLineBreak(s), 'must not contain control characters or line breaks')
    .refine(isWellFormed, 'must be well-formed Unicode');
}

export const OrderRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('The order’s id or its order number (`AX25-0001`, any case)');

export const IdParams = z.object({ id: OrderRef });
export const OrderNumberParams = z.object({ orderNumber: OrderRef });

export const ListQuery = z.object({
  eventSlug: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only orders of this event (its code); an event with no orders gives an empty list'),
});

export const EditableFieldsBody = {
  customerName: oneLine(100).pipe(z.string().min(1, 'must not be empty')),
  customerEmail: z.string().trim().max(254).pipe(z.email('must be an email address')),
  customerPhone: oneLine(30)
    .refine((s) => /^[0-9+().\- ]*$/.test(s), 'digits, spaces and + ( ) - . only')
    .refine((s) => {
      const digits = s.replace(/\D/g, '').length;
      return s === '' || (digits >= 7 && digits <= 20);
    }, '7 to 20 digits, or empty')
    .describe('7–20 digits with `+ ( ) - . space`, or empty'),
  fulfillmentType: FulfillmentType,
  shippingAddress: oneLine(200).describe('Street address; required (with city, state, zipCode) when the order ships'),
  city: oneLine(100),
  state: z
    .string()
    .trim()
    .regex(/^([A-Za-z]{2})?$/, 'a 2-letter state code, or empty')
    .transform((s) => s.toUpperCase()),
  zipCode: z
    .string()
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, 'a ZIP code (12345 or 12345-6789), or empty'),
};

export const UpdateOrderBody = z
  .strictObject({
    status: OrderStatus.optional().describe('Moves along SPEC §5: pending → paid | void | cancelled, paid → void'),
    customerName: EditableFieldsBody.customerName.optional(),
    customerEmail: EditableFieldsBody.customerEmail.optional(),
    customerPhone: EditableFieldsBody.customerPhone.optional(),
    fulfillmentType: EditableFieldsBody.fulfillmentType.optional(),
    shippingAddress: EditableFieldsBody.shippingAddress.optional(),
    city: EditableFieldsBody.city.optional(),
    state: EditableFieldsBody.state.optional(),
    zipCode: EditableFieldsBody.zipCode.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'OrderUpdate' });
export type UpdateOrderBody = z.infer<typeof UpdateOrderBody>;

export const UpdateStatusBody = z
  .strictObject({
    status: z.enum(ORDER_STATUSES).describe('The status to move to'),
  })
  .meta({ id: 'OrderStatusUpdate' });

export const TrackingNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,62}[A-Za-z0-9])?$/, '1-64 letters, digits, spaces or hyphens')
  .describe("The carrier's tracking number");

export const UpdateShippingBody = z
  .strictObject({
    shipped: z.boolean().optional().describe('true: mark shipped; false: undo (tracking number cleared)'),
    trackingNumber: TrackingNumber.optional().describe('Marks the order shipped with this tracking number'),
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

export const OrderChangeResponse = z
  .object({
    success: z.literal(true),
    message: z.string().describe('What happened, e.g. "Order AX25-0001 is now paid" or "... nothing changed"'),
    changed: z.boolean().describe('false when the order already was in the state asked for'),
    order: ApiOrder,
  })
  .meta({ id: 'OrderChange' });

export const OrderList = z.array(ApiOrder).meta({ id: 'OrderList' });
