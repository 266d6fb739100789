/**
 * Order submission (docs/contract.md, "Orders"): the two body variants mapped onto the
 * pipeline in services/orders/intake.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import { paymentUrl } from '../../domain/order-text.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { errorResponses } from '../../schemas/errors.js';
import { ApiOrder, toApiOrder } from '../../schemas/order.js';
import { captchaTokenOf } from '../../services/captcha/token.js';
import type { Submission, SubmissionResult } from '../../services/orders/intake.js';
import {
  CreateOrderBody,
  CreateOrderHeaders,
  CreateOrderResponse,
  createFulfillment,
  SubmitOrderBody,
  SubmitOrderHeaders,
} from './schemas.js';

const submissionErrors: ErrorCode[] = [
  'VALIDATION_FAILED',
  'CAPTCHA_REQUIRED',
  'UNKNOWN_PHOTO',
  'COUPON_INVALID',
  'ADDRESS_INVALID',
  'UNAUTHORIZED',
  'CAPTCHA_FAILED',
  'EVENT_NOT_FOUND',
  'ORDERING_CLOSED',
  'IDEMPOTENCY_CONFLICT',
  'IDEMPOTENCY_IN_PROGRESS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'STORE_UNAVAILABLE',
  'CAPTCHA_UNAVAILABLE',
];

const commonDescription = [
  '**Who may submit**: a CAPTCHA solution (`captchaToken` or `X-Captcha-Token`; missing 400',
  '`CAPTCHA_REQUIRED`, invalid/expired/used 403 `CAPTCHA_FAILED`), or admin credentials',
  '(`Authorization: Bearer`): an order taken at the booth (`channel: booth`), no CAPTCHA, not rate limited.',
  'Anonymous submissions are rate limited per client address (`RATE_LIMIT_ORDERS_PER_MIN`, shared by both routes).',
  '',
  '**Order of checks**, so that a mistake the customer can correct never spends the solved CAPTCHA:',
  'body shape and limits (400) → credentials / CAPTCHA token present → `Idempotency-Key` (replay or 409)',
  '→ event (404 `EVENT_NOT_FOUND`) and open for orders (409 `ORDERING_CLOSED`, details give the reason:',
  '`archived`, `disabled` or `deadline`) → lines (400 `UNKNOWN_PHOTO` listing every unknown number;',
  'sizes not on the price list or quantities outside 1–99: 400 `VALIDATION_FAILED`) → `couponCode`, if',
  'given (400 `COUPON_INVALID`; `details.reason` is `unknown`, `otherEvent`, `expired`, `exhausted` or',
  '`belowMinimum`) → address check for orders that ship (400 `ADDRESS_INVALID` naming the field; a verifier that is down',
  'or slower than 3 s lets the order through with `addressVerified: false`; a deliverable address is stored',
  'in its standardised form) → CAPTCHA verified → order stored.',
  '',
  '**High value**: a web order whose total is at least `HIGH_VALUE_THRESHOLD` (default $100.00) is held:',
  '`verificationRequired: true`, no receipt, not in the admin lists, until the customer follows the link',
  'mailed to them (`GET /api/orders/verify`, valid `VERIFY_LINK_TTL_HOURS`, default 48 h); unconfirmed',
  'holds become `cancelled`. Booth orders are never held. Otherwise the receipt (with labels) is mailed',
  'and admins get a push notification. Mail and push never delay or fail the response; the order is',
  'durable before the response is sent. A replayed response carries `Idempotent-Replayed: true`.',
].join('\n');

/** What happens next, for whoever placed the order: the customer online, the photographer at the booth. */
function submissionMessage(order: OrderRecord): string {
  const n = order.orderNumber;
  if (order.held)
    return `Order ${n} is waiting for your confirmation: please follow the link we sent to ${order.customerEmail}.`;
  if (order.channel === 'booth') {
    return order.customerEmail
      ? `Order ${n} is placed; the receipt goes to ${order.customerEmail}.`
      : `Order ${n} is placed; no email was given, so no receipt is sent.`;
  }
  return `Thank you! Order ${n} is placed; a receipt is on its way to ${order.customerEmail}.`;
}

/** What the request itself says about the submission, as opposed to its body. */
type Who = 'admin' | 'by' | 'captchaToken' | 'ip' | 'idempotencyKey';

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const v = request.headers['idempotency-key'];
  return typeof v === 'string' ? v : undefined;
}

/** Open to the public with a CAPTCHA; a booth order with admin credentials needs staff (src/domain/roles.ts). */
const BOOTH = { role: 'staff', public: 'with a CAPTCHA' } as const;

const ordersRoutes: FastifyPluginAsyncZod = async (fastify) => {
  const { orderIntake, adminAuth } = fastify;

  function send(reply: FastifyReply, result: SubmissionResult) {
    if (result.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.code(result.statusCode).type('application/json; charset=utf-8').send(result.body);
  }

  /**
   * Written out field by field, not as `{ ...who, ...fields }`: on Node 20 a literal that
   * spreads and then adds properties costs about 1 µs per property added.
   */
  function submission(request: FastifyRequest, fields: Omit<Submission, Who>): Submission {
    return {
      // Wrong credentials are 401 here (never silently treated as a customer).
      admin: adminAuth.isAdmin(request),
      by: adminAuth.actor(request),
      captchaToken: captchaTokenOf(request),
      ip: request.ip,
      idempotencyKey: idempotencyKeyOf(request),
      route: fields.route,
      body: fields.body,
      eventSlug: fields.eventSlug,
      referer: fields.referer,
      lines: fields.lines,
      couponCode: fields.couponCode,
      customer: fields.customer,
      emailField: fields.emailField,
      addressFields: fields.addressFields,
      respond: fields.respond,
    };
  }

  fastify.post(
    '/api/orders/create',
    {
      config: { rateLimit: fastify.rateLimits.orders, access: BOOTH },
      schema: {
        tags: ['orders'],
        summary: 'Submit an order (photo numbers)',
        description: [
          'Body variant A: `photos` are photo numbers (the default size, quantity 1) or',
          "`{ number, size, quantity, crop }` (`crop` `{ x, y }`: the centre of the print's crop window as",
          'fractions of the photo, default the middle); `customerInfo.phone` is optional; `fulfillmentType` is `ship` when',
          '`shippingAddress` is given, else `pickup`, unless stated. The server prices the order from the',
          "event's price list (shipping fee for `ship` only).",
          '',
          commonDescription,
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        headers: CreateOrderHeaders,
        body: CreateOrderBody,
        response: { 201: CreateOrderResponse, ...errorResponses(...submissionErrors) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const address = body.shippingAddress ?? { line1: '', city: '', state: '', zip: '' };
      const result = await orderIntake.submit(
        submission(request, {
          route: 'POST /api/orders/create',
          body,
          eventSlug: body.eventSlug,
          couponCode: body.couponCode,
          lines: {
            kind: 'list',
            items: body.photos.map((p) =>
              typeof p === 'object'
                ? { photo: String(p.number), size: p.size, quantity: p.quantity, crop: p.crop }
                : { photo: String(p), quantity: 1 },
            ),
          },
          customer: {
            name: body.customerInfo.name,
            email: body.customerInfo.email ?? '',
            phone: body.customerInfo.phone,
            fulfillmentType: createFulfillment(body),
            address,
          },
          emailField: 'customerInfo.email',
          addressFields: {
            line1: 'shippingAddress.line1',
            city: 'shippingAddress.city',
            state: 'shippingAddress.state',
            zip: 'shippingAddress.zip',
          },
          respond: (order) =>
            ({
              success: true,
              orderNumber: order.orderNumber,
              status: order.status,
              total: formatCents(order.totalCents),
              verificationRequired: order.held,
              message: submissionMessage(order),
              paymentUrl: paymentUrl(order),
            }) satisfies z.infer<typeof CreateOrderResponse>,
        }),
      );
      return send(reply, result);
    },
  );

  fastify.post(
    '/api/orders',
    {
      config: { rateLimit: fastify.rateLimits.orders, access: BOOTH },
      schema: {
        tags: ['orders'],
        summary: 'Submit an order (items text with amounts)',
        description: [
          'Body variant B. The event comes from `eventSlug`, else from the `Referer` (a gallery URL',
          'such as `https://gallery.example/event/AX2026/Day%201/...`); neither: 400 `EVENT_REQUIRED`.',
          '`items` is parsed; every line must name a photo of the event, a size on its price list and a',
          'quantity 1–99. The server recomputes every amount in integer cents, packages, early bird and',
          'coupon included (the same rules as `POST /api/quote`): a client figure (`subtotal`, `discount` when',
          'sent, `shippingFee`, `total`, or a line amount) that differs is 400 `PRICE_MISMATCH`, whose `details`',
          "(JSON) are the server's breakdown (the `PriceBreakdown` of `POST /api/quote`) plus `mismatches`",
          '(`field`, `line`, `expected`, `received`). 201 with the created Order.',
          '',
          commonDescription,
        ].join('\n'),
        security: [{}, { adminToken: [] }],
        headers: SubmitOrderHeaders,
        body: SubmitOrderBody,
        response: {
          201: ApiOrder,
          ...errorResponses(...submissionErrors, 'EVENT_REQUIRED', 'PRICE_MISMATCH'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const referer = request.headers.referer;
      const result = await orderIntake.submit(
        submission(request, {
          route: 'POST /api/orders',
          body,
          eventSlug: body.eventSlug,
          referer: typeof referer === 'string' ? referer : undefined,
          couponCode: body.couponCode,
          lines: {
            kind: 'text',
            text: body.items,
            claimed: {
              subtotal: body.subtotal,
              discount: body.discount,
              shippingFee: body.shippingFee,
              total: body.total,
            },
            crops: body.crops?.map((c) => ({ photo: String(c.number), size: c.size, crop: { x: c.x, y: c.y } })),
          },
          customer: {
            name: body.customerName,
            email: body.customerEmail,
            phone: body.customerPhone,
            fulfillmentType: body.fulfillmentType,
            address: { line1: body.shippingAddress, city: body.city, state: body.state, zip: body.zipCode },
          },
          emailField: 'customerEmail',
          addressFields: { line1: 'shippingAddress', city: 'city', state: 'state', zip: 'zipCode' },
          respond: toApiOrder,
        }),
      );
      return send(reply, result);
    },
  );
};

export default ordersRoutes;
