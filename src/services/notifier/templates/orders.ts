/**
 * The words of the messages about an order (receipt, shipped, ready for pickup, confirmation
 * of a high-value order), as plain text and HTML. Pure functions of the order as it is now
 * (messages are rendered at send time). Customer text is escaped in HTML; subjects are
 * single-line header text.
 */
import { formatItemLine } from '../../../domain/items.js';
import { formatCents } from '../../../domain/money.js';
import { printProgress } from '../../../domain/offers.js';
import type { OrderRecord } from '../../../domain/order.js';
import { trackingLink } from '../../../domain/tracking.js';
import { escapeHtml } from '../../../lib/escape.js';
import { headerText } from '../sanitize.js';
import { button, letter, type MessageContent, type Part, type TemplateContext } from './letter.js';

/**
 * Where the web app shows an order's status and, for pickup, its QR code for the booth (it asks
 * for the order's email on another device).
 */
function orderStatusUrl(publicBaseUrl: string, orderNumber: string): string {
  return `${publicBaseUrl}/order/${encodeURIComponent(orderNumber)}`;
}

/** Where the web app lets a customer leave feedback for an order. */
export function feedbackUrl(publicBaseUrl: string, orderNumber: string): string {
  return `${publicBaseUrl}/?feedback=${encodeURIComponent(orderNumber)}`;
}

function greetingName(order: OrderRecord): string {
  return headerText(order.customerName, 100) || 'there';
}

/** The order's lines (and, in HTML, its totals). */
function photosPart(order: OrderRecord): Part {
  return { text: ['Photos:', ...itemsText(order)], html: itemsHtml(order) };
}

function addressLines(order: OrderRecord): string[] {
  const cityLine = [order.city, [order.state, order.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [order.customerName, order.shippingAddress, cityLine].map((l) => l.trim()).filter(Boolean);
}

function totalsRows(order: OrderRecord): [string, string][] {
  const discount = order.discountCents;
  const label = order.couponCode ? `Discount (coupon ${headerText(order.couponCode, 32)})` : 'Discount';
  return [
    ['Subtotal', formatCents(order.subtotalCents)],
    ...(discount > 0 ? [[label, `-${formatCents(discount)}`] as [string, string]] : []),
    // Digital files are never shipped: no shipping line at all.
    ...(order.fulfillmentType === 'digital'
      ? []
      : [
          [
            order.fulfillmentType === 'ship' ? 'Shipping' : 'Shipping (pickup)',
            formatCents(order.shippingFeeCents),
          ] as [string, string],
        ]),
    ['Total', formatCents(order.totalCents)],
  ];
}

function itemsText(order: OrderRecord): string[] {
  return order.items.map((line) => `  ${formatItemLine(line)}`);
}

function itemsHtml(order: OrderRecord): string {
  const rows = order.items.map((line) => `<li>${escapeHtml(formatItemLine(line))}</li>`).join('');
  const totals = totalsRows(order)
    .map(
      ([label, value], i, all) =>
        `<tr><td style="padding:2px 16px 2px 0">${i === all.length - 1 ? '<strong>' : ''}${escapeHtml(label)}${
          i === all.length - 1 ? '</strong>' : ''
        }</td><td style="text-align:right">${i === all.length - 1 ? '<strong>' : ''}${escapeHtml(value)}${
          i === all.length - 1 ? '</strong>' : ''
        }</td></tr>`,
    )
    .join('');
  return `<ul style="padding-left:20px">${rows}</ul><table style="border-collapse:collapse">${totals}</table>`;
}

/**
 * A pickup order's state at the booth and how many prints are done, when the message is sent
 * (docs/contract.md, "Fulfilment"); nothing for orders that ship.
 */
function pickupText(order: OrderRecord): string {
  const { printed, toPrint } = printProgress(order);
  const prints = printed > 0 && printed < toPrint ? ` ${printed} of ${toPrint} prints are done.` : '';
  if (order.status === 'pending') {
    return 'Pickup: we prepare your prints once the order is paid; collect them at the booth with your order number. We will email you when they are ready.';
  }
  switch (order.pickupStatus) {
    case 'ready':
      return 'Pickup: your prints are ready at the booth; please bring your order number or its QR code.';
    case 'collected':
      return 'Pickup: you have collected your prints.';
    default:
      return `Pickup: collect your prints at the booth; please bring your order number. We will email you when they are ready.${prints}`;
  }
}

/** Digital files only: nothing is shipped or collected; the links come once the order is paid. */
function digitalText(order: OrderRecord): string {
  return order.status === 'paid'
    ? 'Delivery: digital files, nothing is shipped: download them with the links in this message.'
    : 'Delivery: digital files, nothing is shipped: your download links are emailed to you once the order is paid.';
}

/** A line of the form `Head: words`, in HTML with the head in bold. */
function headedHtml(line: string): string {
  const [head, ...rest] = line.split(': ');
  return `<p><strong>${escapeHtml(head ?? '')}:</strong> ${escapeHtml(rest.join(': '))}</p>`;
}

/** For an order that ships: where to, and (unpaid) that it ships once paid. */
function shippingWords(order: OrderRecord): string[] {
  if (order.shippingStatus === 'shipped') return [];
  return [
    order.status === 'pending'
      ? 'Your prints are shipped once the order is paid.'
      : 'We will email you when your prints are shipped.',
  ];
}

function fulfilmentText(order: OrderRecord): string[] {
  if (order.fulfillmentType === 'pickup') return [pickupText(order)];
  if (order.fulfillmentType === 'digital') return [digitalText(order)];
  return ['Shipping to:', ...addressLines(order).map((l) => `  ${l}`), ...shippingWords(order)];
}

function fulfilmentHtml(order: OrderRecord): string {
  if (order.fulfillmentType === 'pickup') return headedHtml(pickupText(order));
  if (order.fulfillmentType === 'digital') return headedHtml(digitalText(order));
  const lines = addressLines(order).map(escapeHtml).join('<br>');
  const after = shippingWords(order).map((w) => `<p>${escapeHtml(w)}</p>`);
  return [`<p><strong>Shipping to:</strong><br>${lines}</p>`, ...after].join('\n');
}

/**
 * How to pay, while the order waits for payment (docs/contract.md, "Business settings"): the
 * photographer's instructions, and the online payment page when there is one.
 */
function paymentPart(order: OrderRecord, ctx: TemplateContext): Part | null {
  if (order.status !== 'pending' || order.held) return null;
  const payUrl = order.payment ? order.payment.url : null;
  const instructions = (ctx.paymentInstructions ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const text = [
    `Not paid yet (${formatCents(order.totalCents)}). How to pay:`,
    ...(payUrl ? [`  Pay online: ${payUrl}`] : []),
    ...instructions.map((l) => `  ${l}`),
  ];
  const html = [
    `<p><strong>Not paid yet</strong> (${escapeHtml(formatCents(order.totalCents))}). How to pay:</p>`,
    payUrl ? `<p><a href="${escapeHtml(payUrl)}">Pay online</a></p>` : '',
    instructions.length > 0 ? `<p>${instructions.map(escapeHtml).join('<br>')}</p>` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { text, html };
}

function fulfilmentPart(order: OrderRecord): Part {
  return { text: fulfilmentText(order), html: fulfilmentHtml(order) };
}

const ATTACHED_TEXT = 'Attached: your order label, as an image (PNG) and as a Word document (DOCX).';

/**
 * The receipt: order lines, totals, pickup or shipping, the attached labels, status and
 * feedback links; once paid, the download links of its digital files, and the payment page
 * while it waits for an online payment.
 */
export function receiptContent(order: OrderRecord, ctx: TemplateContext): MessageContent {
  const paid = order.status === 'paid';
  const subject = headerText(`Your order ${order.orderNumber}: ${paid ? 'paid, ' : ''}receipt`);
  const feedback = feedbackUrl(ctx.publicBaseUrl, order.orderNumber);
  const status = orderStatusUrl(ctx.publicBaseUrl, order.orderNumber);
  const name = greetingName(order);
  const links = ctx.downloadLinks?.(order) ?? [];
  const until = (iso: string) => `${iso.slice(0, 10)}`;
  const parts: Part[] = [
    {
      text: [`Thank you for your order ${order.orderNumber}. This is your receipt${paid ? ': it is paid' : ''}.`],
      html: `<p>Thank you for your order <strong>${escapeHtml(order.orderNumber)}</strong>. This is your receipt.</p>`,
    },
    photosPart(order),
    // The HTML shows the totals under the lines (itemsHtml).
    { text: totalsRows(order).map(([label, value]) => `${label}: ${value}`), html: '' },
  ];
  const payment = paymentPart(order, ctx);
  if (payment) parts.push(payment);
  if (links.length > 0) {
    const intro = 'Your digital files (each link works until the date shown, a limited number of times):';
    parts.push({
      text: [intro, ...links.map((l) => `  Photo #${l.photoNumber} (until ${until(l.expiresAt)}): ${l.url}`)],
      html: `<p><strong>Your digital files</strong> (each link works until the date shown, a limited number of times):</p><ul style="padding-left:20px">${links
        .map(
          (l) =>
            `<li><a href="${escapeHtml(l.url)}">Photo #${escapeHtml(l.photoNumber)}</a> (until ${escapeHtml(until(l.expiresAt))})</li>`,
        )
        .join('')}</ul>`,
    });
  }
  // Digital files alone have no label: nothing is attached (render.ts attaches none).
  const attached = order.fulfillmentType === 'digital' ? [] : [ATTACHED_TEXT];
  const where =
    order.fulfillmentType === 'digital'
      ? 'paid, download links'
      : order.fulfillmentType === 'pickup'
        ? 'paid, ready, collected'
        : 'paid, shipped';
  parts.push(fulfilmentPart(order), {
    text: [...attached, `Where your order is (${where}): ${status}`, `Tell us how we did: ${feedback}`],
    html: [
      ...attached.map((a) => `<p>${escapeHtml(a)}</p>`),
      `<p><a href="${escapeHtml(status)}">See where your order is</a> (${where})</p>`,
      `<p><a href="${escapeHtml(feedback)}">Tell us how we did</a></p>`,
    ].join('\n'),
  });
  return letter(subject, name, parts, ctx);
}

/** The shipped notice with the tracking number. */
export function shippedContent(order: OrderRecord, ctx: TemplateContext): MessageContent {
  const subject = headerText(`Your order ${order.orderNumber} has shipped`);
  const tracking = order.trackingNumber.trim();
  const trackingText = tracking ? `Tracking number: ${tracking}` : 'No tracking number was given for this shipment.';
  // USPS, UPS and FedEx numbers link to the carrier's tracking page (src/domain/tracking.ts).
  const link = tracking ? trackingLink(tracking) : null;
  const onItsWay = {
    text: [
      `Your order ${order.orderNumber} is on its way.`,
      trackingText,
      ...(link ? [`Track it with ${link.carrier}: ${link.url}`] : []),
    ],
    html: [
      `<p>Your order <strong>${escapeHtml(order.orderNumber)}</strong> is on its way.</p>`,
      tracking ? `<p>Tracking number: <strong>${escapeHtml(tracking)}</strong></p>` : `<p>${trackingText}</p>`,
      link ? button(link.url, `Track it with ${link.carrier}`) : '',
    ]
      .filter(Boolean)
      .join('\n'),
  };
  return letter(subject, greetingName(order), [onItsWay, fulfilmentPart(order), photosPart(order)], ctx);
}

/** "Ready for pickup": the order page with its QR code, and the lines to collect. */
export function readyContent(order: OrderRecord, ctx: TemplateContext): MessageContent {
  const subject = headerText(`Your order ${order.orderNumber} is ready for pickup`);
  const pageUrl = orderStatusUrl(ctx.publicBaseUrl, order.orderNumber);
  const ready = {
    text: [
      `Your prints for order ${order.orderNumber} are ready: collect them at the booth.`,
      `Show your order number, or the QR code on your order page: ${pageUrl}`,
    ],
    html: [
      `<p>Your prints for order <strong>${escapeHtml(order.orderNumber)}</strong> are ready: collect them at the booth.</p>`,
      `<p>Show your order number, or the QR code on <a href="${escapeHtml(pageUrl)}">your order page</a>.</p>`,
    ].join('\n'),
  };
  return letter(subject, greetingName(order), [ready, photosPart(order)], ctx);
}

/** The high-value confirmation: the signed link, and when the hold expires. */
export function verificationContent(order: OrderRecord, ctx: TemplateContext, verifyUrl: string): MessageContent {
  const subject = headerText(`Please confirm your order ${order.orderNumber}`);
  const expires = order.holdExpiresAt ? new Date(order.holdExpiresAt) : null;
  const expiresText = expires ? `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC` : null;
  const notYours = "If you did not place this order, ignore this message and it won't be processed.";
  const parts: Part[] = [
    {
      text: [
        `We received order ${order.orderNumber} for ${formatCents(order.totalCents)} with your email address.`,
        'Orders of this value are confirmed by email before we process them. To confirm, open this link',
        'and press "Confirm my order":',
      ],
      html: `<p>We received order <strong>${escapeHtml(order.orderNumber)}</strong> for ${escapeHtml(
        formatCents(order.totalCents),
      )} with your email address. Orders of this value are confirmed by email before we process them: open the link and press <em>Confirm my order</em>.</p>`,
    },
    {
      text: [verifyUrl],
      html: [
        button(verifyUrl, `Confirm order ${order.orderNumber}`),
        `<p style="font-size:13px;color:#555">Or copy this link: ${escapeHtml(verifyUrl)}</p>`,
      ].join('\n'),
    },
    {
      text: [
        expiresText
          ? `The link is valid until ${expiresText}; unconfirmed orders are cancelled then.`
          : 'Unconfirmed orders are cancelled after a while.',
        notYours,
      ],
      html: [
        expiresText
          ? `<p>The link is valid until ${escapeHtml(expiresText)}; unconfirmed orders are cancelled then.</p>`
          : '',
        `<p>${notYours}</p>`,
      ]
        .filter(Boolean)
        .join('\n'),
    },
    photosPart(order),
  ];
  return letter(subject, greetingName(order), parts, ctx);
}
