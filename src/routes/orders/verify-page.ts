/**
 * The small HTML pages of the confirmation link (docs/contract.md, "Notifications"): a person
 * opened the link from a mail, so they get a page, not JSON. Opening it shows the order and a
 * button that POSTs the token (a GET never confirms: mail scanners follow links); pressing
 * it confirms. Every page has the shop's name as a header linking home, and, where the order
 * is known, links to its order page and its event's gallery.
 *
 * Every value from an order is escaped; the pages load nothing (CSP `default-src 'none'`),
 * post only to this site, and send no Referer onwards (the token is in the URL). The
 * outcome's code is on `<main data-code="...">` for scripts and tests.
 */

import { formatItemLine } from '../../domain/items.js';
import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { escapeHtml } from '../../lib/escape.js';
import type { ConfirmOutcome } from '../../services/orders/confirm.js';
import { VERIFY_PATH } from '../../services/orders/verify-link.js';

type VerifyPage = {
  status: 200 | 403 | 409 | 410;
  code: 'AWAITING_CONFIRMATION' | 'CONFIRMED' | 'ALREADY_CONFIRMED' | ErrorCode;
  html: string;
};

export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex',
};

const enc = encodeURIComponent;

/** The links under a page: the order's page and its event's gallery, or the gallery's home. */
function links(order: OrderRecord | null): string {
  const list = order
    ? [
        `<a href="/order/${enc(order.orderNumber)}">See order ${escapeHtml(order.orderNumber)}</a>`,
        `<a href="/event/${enc(order.eventSlug)}">Back to the photos</a>`,
      ]
    : ['<a href="/">Back to the photos</a>'];
  return `<nav class="links">${list.join('\n')}</nav>`;
}

function page(
  siteName: string,
  status: VerifyPage['status'],
  code: VerifyPage['code'],
  title: string,
  body: string[],
  order: OrderRecord | null,
): VerifyPage {
  const good = status === 200;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(siteName)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#222;margin:0}
header{background:#1f2937;padding:.8rem 1rem}
header a{color:#fff;font-weight:600;text-decoration:none}
main{max-width:32rem;margin:1.5rem auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
h1{font-size:1.4rem;margin-top:0;color:${good ? '#1b6e34' : '#9b2c2c'}}
ul{padding-left:1.2rem}
button{font:inherit;font-size:1.1rem;background:#1b6e34;color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;cursor:pointer}
.links{display:flex;gap:1.2rem;flex-wrap:wrap;margin-top:1.5rem}
.links a{color:#1d4ed8}
.code,.muted{color:#555;font-size:.85rem}
</style>
</head>
<body>
<header><a href="/">${escapeHtml(siteName)}</a></header>
<main data-code="${code}">
<h1>${escapeHtml(title)}</h1>
${body.join('\n')}
${good ? '' : `<p class="code">Code: ${code}</p>`}
${links(order)}
</main>
</body>
</html>
`;
  return { status, code, html };
}

const orderLabel = (o: OrderRecord) => `<strong>${escapeHtml(o.orderNumber)}</strong>`;
const p = (html: string) => `<p>${html}</p>`;

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
          `<form method="post" action="${VERIFY_PATH}">`,
          `<input type="hidden" name="token" value="${escapeHtml(opts.token ?? '')}">`,
          '<button type="submit">Confirm my order</button>',
          '</form>',
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
          `<form method="post" action="${VERIFY_PATH}">`,
          `<input type="hidden" name="token" value="${escapeHtml(opts.token ?? '')}">`,
          '<button type="submit">Try again</button>',
          '</form>',
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
