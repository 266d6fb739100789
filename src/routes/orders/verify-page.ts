/**
 * The small HTML page `GET /api/orders/verify` answers with: a person opened the link from a
 * mail, so they get a page, not JSON. Every value from an order is escaped; the page loads
 * nothing (CSP `default-src 'none'`) and sends no Referer onwards (the token is in its URL).
 * The outcome's code is on `<main data-code="...">` for scripts and tests.
 */

import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import type { ErrorCode } from '../../errors/catalogue.js';
import { escapeHtml } from '../../lib/escape.js';
import type { ConfirmOutcome } from '../../services/orders/confirm.js';

export type VerifyPage = {
  status: 200 | 403 | 409 | 410;
  code: 'CONFIRMED' | 'ALREADY_CONFIRMED' | ErrorCode;
  html: string;
};

export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex',
};

function page(status: VerifyPage['status'], code: VerifyPage['code'], title: string, paragraphs: string[]): VerifyPage {
  const ok = status === 200;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#222;margin:0;padding:2rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
h1{font-size:1.4rem;margin-top:0;color:${ok ? '#1b7f3b' : '#a33'}}
.code{color:#777;font-size:.8rem}
</style>
</head>
<body>
<main data-code="${code}">
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
${ok ? '' : `<p class="code">Code: ${code}</p>`}
</main>
</body>
</html>
`;
  return { status, code, html };
}

const orderLabel = (o: OrderRecord) => `<strong>${escapeHtml(o.orderNumber)}</strong>`;

/** The page for each outcome (statuses: 200 confirmed/already, 403 invalid, 409 cancelled, 410 expired). */
export function verifyPage(outcome: ConfirmOutcome): VerifyPage {
  switch (outcome.kind) {
    case 'confirmed': {
      const o = outcome.order;
      return page(200, 'CONFIRMED', 'Order confirmed', [
        `Thank you, ${escapeHtml(o.customerName)}! Your order ${orderLabel(o)} (${escapeHtml(formatCents(o.totalCents))}) is confirmed.`,
        `A receipt is on its way to ${escapeHtml(o.customerEmail)}.`,
      ]);
    }
    case 'already': {
      const o = outcome.order;
      return page(200, 'ALREADY_CONFIRMED', 'Order already confirmed', [
        `Your order ${orderLabel(o)} was confirmed already; there is nothing more to do.`,
        'The receipt was sent when it was confirmed.',
      ]);
    }
    case 'expired':
      return page(410, 'VERIFICATION_EXPIRED', 'This confirmation link has expired', [
        outcome.order
          ? `Order ${orderLabel(outcome.order)} was not confirmed in time and has been cancelled.`
          : 'The order it belongs to is no longer on file.',
        'Please place the order again; you will get a new link.',
      ]);
    case 'cancelled':
      return page(409, 'INVALID_TRANSITION', 'This order was cancelled', [
        `Order ${orderLabel(outcome.order)} was cancelled and can no longer be confirmed.`,
        'Please place the order again, or contact us if this is a mistake.',
      ]);
    case 'invalid':
      return page(403, 'VERIFICATION_FAILED', 'This confirmation link is not valid', [
        'The link is incomplete or has been altered. Please open it again from the email, ' +
          'or copy the whole link into the address bar.',
      ]);
  }
}
