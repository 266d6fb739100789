/**
 * The pages of the high-value confirmation link (docs/contract.md, "Notifications").
 * Every value from an order is escaped.
 */

import { formatItemLine } from '../../domain/items.js';
import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { escapeHtml } from '../../lib/escape.js';
import type { ConfirmOutcome } from '../../services/orders/confirm.js';
import { VERIFY_PATH } from '../../services/orders/verify-link.js';
import { type HtmlPage, htmlPage, p, tokenForm } from '../common/html-page.js';

type VerifyPage = HtmlPage<'AWAITING_CONFIRMATION' | 'CONFIRMED' | 'ALREADY_CONFIRMED' | ErrorCode>;

const enc = encodeURIComponent;

/** The links under a page: the order's page and its event's gallery, or the gallery's home. */
function links(order: OrderRecord | null): string[] {
  return order
    ? [
        `<a href="/order/${enc(order.orderNumber)}">See order ${escapeHtml(order.orderNumber)}</a>`,
        `<a href="/event/${enc(order.eventSlug)}">Back to the photos</a>`,
      ]
    : ['<a href="/">Back to the photos</a>'];
}

function page(
  siteName: string,
  status: VerifyPage['status'],
  code: VerifyPage['code'],
  title: string,
  body: string[],
  order: OrderRecord | null,
): VerifyPage {
  return htmlPage(siteName, status, code, title, body, links(order));
}

const orderLabel = (o: OrderRecord) => `<strong>${escapeHtml(o.orderNumber)}</strong>`;

function summary(o: OrderRecord): string[] {
  const delivery =
    o.fulfillmentType === 'ship'
      ? `Shipped to ${escapeHtml([o.shippingAddress, o.city, `${o.state} ${o.zipCode}`].join(', '))}.`
      : 'To pick up at the booth.';
  return [
    p(`Order ${orderLabel(o)}, ${escapeHtml(formatCents(o.totalCents))} in all:`),
    `<ul>${o.items.map((line) => `<li>${escapeHtml(formatItemLine(line))}</li>`).join('')}</ul>`,
    p(delivery),
  ];
}

/** The page for each outcome; `token` goes into the confirmation form. */
export function verifyPage(outcome: ConfirmOutcome, opts: { siteName: string; token?: string }): VerifyPage {
  const { siteName } = opts;
  switch (outcome.kind) {
    case 'confirmable': {
      const o = outcome.order;
      const until = o.holdExpiresAt ? new Date(o.holdExpiresAt).toUTCString() : '';
      return page(
        siteName,
        200,
        'AWAITING_CONFIRMATION',
        'Confirm your order',
        [
          ...summary(o),
          tokenForm(VERIFY_PATH, opts.token ?? '', 'Confirm my order'),
          p(
            `<span class="muted">Large orders wait for the buyer to confirm them. Nothing happens until you press the button${
              until ? `; the order is cancelled if it is not confirmed by ${escapeHtml(until)}` : ''
            }.</span>`,
          ),
        ],
        o,
      );
    }
    case 'confirmed': {
      const o = outcome.order;
      return page(
        siteName,
        200,
        'CONFIRMED',
        'Order confirmed',
        [
          p(`Thank you, ${escapeHtml(o.customerName)}! Your order is confirmed.`),
          ...summary(o),
          p(`A receipt is on its way to ${escapeHtml(o.customerEmail)}.`),
        ],
        o,
      );
    }
    case 'already': {
      const o = outcome.order;
      return page(
        siteName,
        200,
        'ALREADY_CONFIRMED',
        'Order already confirmed',
        [
          p(`Your order ${orderLabel(o)} was confirmed already; there is nothing more to do.`),
          p('The receipt was sent when it was confirmed.'),
        ],
        o,
      );
    }
    case 'expired':
      return page(
        siteName,
        410,
        'VERIFICATION_EXPIRED',
        'This confirmation link has expired',
        [
          p(
            outcome.order
              ? `Order ${orderLabel(outcome.order)} was not confirmed in time and has been cancelled.`
              : 'The order it belongs to is no longer on file.',
          ),
          p('Please place the order again; you will get a new link.'),
        ],
        outcome.order,
      );
    case 'cancelled':
      return page(
        siteName,
        409,
        'INVALID_TRANSITION',
        'This order was cancelled',
        [
          p(`Order ${orderLabel(outcome.order)} was cancelled and can no longer be confirmed.`),
          p('Please place the order again, or contact us if this is a mistake.'),
        ],
        outcome.order,
      );
    case 'couponUnavailable': {
      const o = outcome.order;
      const until = o.holdExpiresAt ? new Date(o.holdExpiresAt).toUTCString() : '';
      return page(
        siteName,
        409,
        'COUPON_INVALID',
        'Your coupon has been used up',
        [
          p(
            `Order ${orderLabel(o)} uses coupon <strong>${escapeHtml(o.couponCode ?? '')}</strong>, and its last use went to other orders before you confirmed. The order is not confirmed yet.`,
          ),
          p(
            `It stays reserved${until ? ` until ${escapeHtml(until)}` : ''}: try again later (a use comes back when another order is cancelled), or place the order again without the coupon.`,
          ),
          tokenForm(VERIFY_PATH, opts.token ?? '', 'Try again'),
        ],
        o,
      );
    }
    case 'invalid':
      return page(
        siteName,
        403,
        'VERIFICATION_FAILED',
        'This confirmation link is not valid',
        [
          p(
            'The link is incomplete or has been altered. Please open it again from the email, ' +
              'or copy the whole link into the address bar.',
          ),
        ],
        null,
      );
  }
}
