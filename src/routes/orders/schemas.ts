/** Order submission bodies (variants A and B, docs/contract.md, "Orders") and their answers. */
import { z } from 'zod';
import { MAX_ORDER_LINES, MAX_QUANTITY } from '../../domain/pricing.js';
import { Crop } from '../../domain/prints.js';
import {
  City,
  CustomerEmail,
  CustomerName,
  OptionalPhone,
  RequiredPhone,
  State,
  Street,
  Zip,
} from '../../schemas/customer.js';

const EventSlug = z.string().trim().min(1).max(200);
/** `digital` (digital files only) is what an order of digital files alone becomes whatever is stated. */
const Fulfillment = z.enum(['ship', 'pickup', 'digital']);

const CaptchaToken = z
  .string()
  .max(16 * 1024)
  .optional()
  .describe('The CAPTCHA solution (or send it as `X-Captcha-Token`); not needed with admin credentials');

/** A photo number as text, or as a JSON integer (the route turns it into text). */
const PhotoRef = z.union([z.string().trim().min(1).max(64), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]);

const PrintSize = z.string().trim().min(1).max(32);

const PhotoLine = z.object({
  number: PhotoRef.describe('Photo number (or id)'),
  size: PrintSize.optional().describe("A size of the event's price list; default: its default size"),
  quantity: z.number().int().min(1).max(MAX_QUANTITY).default(1).describe(`1–${MAX_QUANTITY}, default 1`),
  crop: Crop.optional().describe(
    "Where the print's crop window is centred, as fractions of the photo; default the middle `{ x: 0.5, y: 0.5 }`",
  ),
});

/** Variant B's crop centres: one per line of `items`, named by photo number and size. */
const LineCrops = z
  .array(
    z.object({
      number: PhotoRef.describe('The photo number of the line'),
      size: PrintSize.describe('The size of the line'),
      x: Crop.shape.x,
      y: Crop.shape.y,
    }),
  )
  .max(MAX_ORDER_LINES);

const requiredForShipping = 'required when the order ships';

const CouponCodeField = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .optional()
  .describe('A coupon code (any case); refused with 400 `COUPON_INVALID` and the reason in `details`');

export const CreateOrderBody = z
  .object({
    eventSlug: EventSlug.describe('The event (gallery code)'),
    photos: z
      .array(z.union([PhotoRef, PhotoLine]))
      .min(1)
      .max(MAX_ORDER_LINES)
      .describe(
        `1–${MAX_ORDER_LINES} lines: a photo number (the default size, quantity 1), or \`{ number, size, quantity, crop }\``,
      ),
    customerInfo: z.object({
      name: CustomerName,
      email: CustomerEmail.or(z.literal(''))
        .optional()
        .describe(
          'Receipts and the confirmation link go here. Required, except on orders taken at the booth ' +
            '(admin credentials): a walk-in customer may leave it out and gets no receipt',
        ),
      phone: OptionalPhone,
    }),
    shippingAddress: z
      .object({
        line1: Street.default(''),
        city: City.default(''),
        state: State.default(''),
        zip: Zip.default(''),
      })
      .optional()
      .describe('Where to ship; all four fields are required when the order ships'),
    fulfillmentType: Fulfillment.optional().describe(
      '`ship` when `shippingAddress` is given (with any field filled in), else `pickup`, unless stated. An order whose lines are all digital files is `digital` whatever is stated (no shipping, no pickup); `digital` stated for an order with prints: 400 `VALIDATION_FAILED`',
    ),
    couponCode: CouponCodeField,
    captchaToken: CaptchaToken,
  })
  .superRefine((b, ctx) => {
    if (createFulfillment(b) !== 'ship') return;
    const a = b.shippingAddress ?? { line1: '', city: '', state: '', zip: '' };
    for (const field of ['line1', 'city', 'state', 'zip'] as const) {
      if (a[field] === '')
        ctx.addIssue({ code: 'custom', path: ['shippingAddress', field], message: requiredForShipping });
    }
  })
  .meta({ id: 'CreateOrderRequest' });
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

/** Variant A's fulfilment: stated, else `ship` when an address was filled in. */
export function createFulfillment(
  b: Pick<CreateOrderBody, 'fulfillmentType' | 'shippingAddress'>,
): 'ship' | 'pickup' | 'digital' {
  if (b.fulfillmentType) return b.fulfillmentType;
  const a = b.shippingAddress;
  return a && (a.line1 || a.city || a.state || a.zip) ? 'ship' : 'pickup';
}

export const CreateOrderResponse = z
  .object({
    success: z.literal(true),
    orderNumber: z.string().describe('`<eventPrefix>-<sequence>`, e.g. `AX26-0001`'),
    status: z.enum(['pending', 'paid', 'void', 'cancelled']).describe('`pending` for a new order'),
    total: z.string().describe('Currency text, e.g. "$12.50"'),
    verificationRequired: z
      .boolean()
      .describe('True for a high-value order: it waits until the customer follows the link mailed to them'),
    message: z.string().describe('What happens next, for the customer'),
    paymentUrl: z
      .string()
      .nullable()
      .describe('With online payment (PAYMENT_PROVIDER=stripe): the hosted payment page; null otherwise'),
  })
  .meta({ id: 'CreateOrderResponse' });

export const SubmitOrderBody = z
  .object({
    eventSlug: EventSlug.optional().describe('The event; when absent, taken from the `Referer` (a gallery URL)'),
    customerName: CustomerName,
    customerEmail: CustomerEmail,
    customerPhone: RequiredPhone,
    fulfillmentType: Fulfillment.describe(
      '`ship` or `pickup`; `digital` for an order of digital files only (what such an order is, whatever is stated)',
    ),
    shippingAddress: Street.default(''),
    city: City.default(''),
    state: State.default(''),
    zipCode: Zip.default(''),
    items: z
      .string()
      .min(1)
      .max(32 * 1024)
      .describe(
        `Order lines \`Photo #<number> (<size>) x<quantity> = $<amount>\`, separated by \`;\` or line breaks; 1–${MAX_ORDER_LINES} lines, quantity 1–${MAX_QUANTITY}; \`= $<amount>\` optional (checked when present)`,
      ),
    subtotal: z.string().max(32).describe('The sum of the lines as the client computed it, e.g. "$30.00"'),
    discount: z
      .string()
      .max(32)
      .optional()
      .describe('Package savings plus the early bird or coupon (checked when sent), e.g. "$5.00"'),
    shippingFee: z
      .string()
      .max(32)
      .describe("The event's shipping fee for `ship` (when a print is ordered), $0.00 for `pickup`"),
    total: z.string().max(32).describe('subtotal − discount + shippingFee'),
    couponCode: CouponCodeField,
    crops: LineCrops.optional().describe(
      "Crop centres of the prints: each entry applies to the line(s) of `items` with that photo number and size (an entry that names no line: 400 `VALIDATION_FAILED`); lines without one are cropped around the photo's middle",
    ),
    captchaToken: CaptchaToken,
  })
  .superRefine((b, ctx) => {
    if (b.fulfillmentType !== 'ship') return;
    for (const field of ['shippingAddress', 'city', 'state', 'zipCode'] as const) {
      if (b[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: requiredForShipping });
    }
  })
  .meta({ id: 'SubmitOrderRequest' });
export type SubmitOrderBody = z.infer<typeof SubmitOrderBody>;

const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .optional()
  .describe(
    'Makes retries safe: the same key with the same body within 24 h answers the first response again ' +
      'and creates nothing; with another body, 409 `IDEMPOTENCY_CONFLICT`; while the first is still ' +
      'running, 409 `IDEMPOTENCY_IN_PROGRESS`. A UUID per order attempt is a good key.',
  );

const CaptchaHeader = z
  .string()
  .max(16 * 1024)
  .optional()
  .describe('The CAPTCHA solution, when not sent as `captchaToken` in the body');

export const CreateOrderHeaders = z.looseObject({
  'idempotency-key': IdempotencyKey,
  'x-captcha-token': CaptchaHeader,
});

export const SubmitOrderHeaders = z.looseObject({
  'idempotency-key': IdempotencyKey,
  'x-captcha-token': CaptchaHeader,
  referer: z
    .string()
    .optional()
    .describe('The gallery page the order comes from (`.../event/<eventSlug>/...`); used when `eventSlug` is absent'),
});

const VerifyToken = z.string().max(1024).describe('The token of the link in the confirmation mail');

export const VerifyQuery = z.object({ token: VerifyToken.optional() });

/** The confirmation page's form (`application/x-www-form-urlencoded`), or the same as JSON. */
export const VerifyBody = z.object({ token: VerifyToken }).meta({ id: 'ConfirmOrderRequest' });
