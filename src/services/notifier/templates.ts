/**
 * The words of every message, as plain text and HTML. Pure functions of the order as it is
 * now (messages are rendered at send time), so they can be tested and benchmarked alone.
 * Customer text is escaped in HTML; subjects are single-line header text.
 */
import { formatItemLine } from '../../domain/items.js';
import { formatCents } from '../../domain/money.js';
import type { OrderRecord } from '../../domain/order.js';
import { takedownReasonWords } from '../../domain/takedowns.js';
import { escapeHtml } from '../../lib/escape.js';
import { headerText } from './sanitize.js';

export type MessageContent = { subject: string; text: string; html: string };

export type TemplateContext = {
  /** PUBLIC_BASE_URL without a trailing slash. */
  publicBaseUrl: string;
  /** Shown as the sender's name in the body ("— Convention Photos"). */
  senderName: string;
  /** The signed links of a paid order's digital files (none before payment; docs/contract.md, "Selling"). */
  downloadLinks?: (order: OrderRecord) => { photoNumber: string; url: string; expiresAt: string }[];
};

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

const PAGE_STYLE = 'font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222;max-width:600px';

function page(title: string, bodyHtml: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:16px"><div style="${PAGE_STYLE}">`,
    bodyHtml,
    '</div></body></html>',
  ].join('\n');
}

function greetingName(order: OrderRecord): string {
  return headerText(order.customerName, 100) || 'there';
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
    [order.fulfillmentType === 'ship' ? 'Shipping' : 'Shipping (pickup)', formatCents(order.shippingFeeCents)],
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
  const printed = new Set(order.printed.map((p) => p.line)).size;
  const prints =
    printed > 0 && printed < order.items.length ? ` ${printed} of ${order.items.length} prints are done.` : '';
  switch (order.pickupStatus) {
    case 'ready':
      return 'Pickup: your prints are ready at the booth; please bring your order number or its QR code.';
    case 'collected':
      return 'Pickup: you have collected your prints.';
    default:
      return `Pickup: collect your prints at the booth; please bring your order number. We will email you when they are ready.${prints}`;
  }
}

function fulfilmentText(order: OrderRecord): string[] {
  if (order.fulfillmentType === 'pickup') return [pickupText(order)];
  return ['Shipping to:', ...addressLines(order).map((l) => `  ${l}`)];
}

function fulfilmentHtml(order: OrderRecord): string {
  if (order.fulfillmentType === 'pickup') {
    const [head, ...rest] = pickupText(order).split(': ');
    return `<p><strong>${escapeHtml(head ?? '')}:</strong> ${escapeHtml(rest.join(': '))}</p>`;
  }
  const lines = addressLines(order).map(escapeHtml).join('<br>');
  return `<p><strong>Shipping to:</strong><br>${lines}</p>`;
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
  const payUrl = order.status === 'pending' && order.payment ? order.payment.url : null;
  const until = (iso: string) => `${iso.slice(0, 10)}`;
  const text = [
    `Hello ${name},`,
    '',
    `Thank you for your order ${order.orderNumber}. This is your receipt${paid ? ': it is paid' : ''}.`,
    '',
    'Photos:',
    ...itemsText(order),
    '',
    ...totalsRows(order).map(([label, value]) => `${label}: ${value}`),
    '',
    ...(payUrl ? [`Pay online: ${payUrl}`, ''] : []),
    ...(links.length > 0
      ? [
          'Your digital files (each link works until the date shown, a limited number of times):',
          ...links.map((l) => `  Photo #${l.photoNumber} (until ${until(l.expiresAt)}): ${l.url}`),
          '',
        ]
      : []),
    ...fulfilmentText(order),
    '',
    ATTACHED_TEXT,
    `Where your order is (paid, shipped, ready): ${status}`,
    `Tell us how we did: ${feedback}`,
    '',
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Thank you for your order <strong>${escapeHtml(order.orderNumber)}</strong>. This is your receipt.</p>`,
      itemsHtml(order),
      payUrl ? `<p><a href="${escapeHtml(payUrl)}">Pay online</a></p>` : '',
      links.length > 0
        ? `<p><strong>Your digital files</strong> (each link works until the date shown, a limited number of times):</p><ul style="padding-left:20px">${links
            .map(
              (l) =>
                `<li><a href="${escapeHtml(l.url)}">Photo #${escapeHtml(l.photoNumber)}</a> (until ${escapeHtml(until(l.expiresAt))})</li>`,
            )
            .join('')}</ul>`
        : '',
      fulfilmentHtml(order),
      `<p>${escapeHtml(ATTACHED_TEXT)}</p>`,
      `<p><a href="${escapeHtml(status)}">See where your order is</a> (paid, shipped, ready)</p>`,
      `<p><a href="${escapeHtml(feedback)}">Tell us how we did</a></p>`,
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** The shipped notice with the tracking number. */
export function shippedContent(order: OrderRecord, ctx: TemplateContext): MessageContent {
  const subject = headerText(`Your order ${order.orderNumber} has shipped`);
  const name = greetingName(order);
  const tracking = order.trackingNumber.trim();
  const text = [
    `Hello ${name},`,
    '',
    `Your order ${order.orderNumber} is on its way.`,
    tracking ? `Tracking number: ${tracking}` : 'No tracking number was given for this shipment.',
    '',
    ...fulfilmentText(order),
    '',
    'Photos:',
    ...itemsText(order),
    '',
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Your order <strong>${escapeHtml(order.orderNumber)}</strong> is on its way.</p>`,
      tracking
        ? `<p>Tracking number: <strong>${escapeHtml(tracking)}</strong></p>`
        : '<p>No tracking number was given for this shipment.</p>',
      fulfilmentHtml(order),
      itemsHtml(order),
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** "Ready for pickup": the order page with its QR code, and the lines to collect. */
export function readyContent(order: OrderRecord, ctx: TemplateContext): MessageContent {
  const subject = headerText(`Your order ${order.orderNumber} is ready for pickup`);
  const name = greetingName(order);
  const pageUrl = orderStatusUrl(ctx.publicBaseUrl, order.orderNumber);
  const text = [
    `Hello ${name},`,
    '',
    `Your prints for order ${order.orderNumber} are ready: collect them at the booth.`,
    `Show your order number, or the QR code on your order page: ${pageUrl}`,
    '',
    'Photos:',
    ...itemsText(order),
    '',
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Your prints for order <strong>${escapeHtml(order.orderNumber)}</strong> are ready: collect them at the booth.</p>`,
      `<p>Show your order number, or the QR code on <a href="${escapeHtml(pageUrl)}">your order page</a>.</p>`,
      itemsHtml(order),
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** The high-value confirmation: the signed link, and when the hold expires. */
export function verificationContent(order: OrderRecord, ctx: TemplateContext, verifyUrl: string): MessageContent {
  const subject = headerText(`Please confirm your order ${order.orderNumber}`);
  const name = greetingName(order);
  const expires = order.holdExpiresAt ? new Date(order.holdExpiresAt) : null;
  const expiresText = expires ? `${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC` : null;
  const text = [
    `Hello ${name},`,
    '',
    `We received order ${order.orderNumber} for ${formatCents(order.totalCents)} with your email address.`,
    'Orders of this value are confirmed by email before we process them. To confirm, open this link',
    'and press "Confirm my order":',
    '',
    verifyUrl,
    '',
    expiresText
      ? `The link is valid until ${expiresText}; unconfirmed orders are cancelled then.`
      : 'Unconfirmed orders are cancelled after a while.',
    "If you did not place this order, ignore this message and it won't be processed.",
    '',
    'Photos:',
    ...itemsText(order),
    '',
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>We received order <strong>${escapeHtml(order.orderNumber)}</strong> for ${escapeHtml(
        formatCents(order.totalCents),
      )} with your email address. Orders of this value are confirmed by email before we process them: open the link and press <em>Confirm my order</em>.</p>`,
      `<p><a href="${escapeHtml(verifyUrl)}" style="display:inline-block;padding:10px 18px;background:#1a73e8;color:#fff;text-decoration:none;border-radius:4px">Confirm order ${escapeHtml(
        order.orderNumber,
      )}</a></p>`,
      `<p style="font-size:13px;color:#555">Or copy this link: ${escapeHtml(verifyUrl)}</p>`,
      expiresText
        ? `<p>The link is valid until ${escapeHtml(expiresText)}; unconfirmed orders are cancelled then.</p>`
        : '',
      "<p>If you did not place this order, ignore this message and it won't be processed.</p>",
      itemsHtml(order),
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** New photos for a photo code (docs/contract.md, "Finding one's photos, and intake"). */
export function photosContent(code: string, added: number, url: string, ctx: TemplateContext): MessageContent {
  const what = added === 1 ? '1 new photo' : `${added} new photos`;
  const subject = headerText(`${what} for photo code ${code}`);
  const text = [
    'Hello,',
    '',
    `The photographer's latest card brought ${what} of you (photo code ${code}).`,
    `See them, and order prints: ${url}`,
    '',
    'You get this because you asked to be told when photos of this code arrive.',
    '',
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      '<p>Hello,</p>',
      `<p>The photographer's latest card brought <strong>${escapeHtml(what)}</strong> of you (photo code ${escapeHtml(code)}).</p>`,
      `<p><a href="${escapeHtml(url)}">See them, and order prints</a></p>`,
      '<p>You get this because you asked to be told when photos of this code arrive.</p>',
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** What a takedown decision mail says (`takedown` jobs: payload `{ email, decision, eventName, photoNumber }`). */
export type TakedownMail = { decision: 'remove' | 'restore'; eventName: string; photoNumber: string };

/** The requester hears the owner's decision on their takedown request (docs/contract.md, "Takedown requests"). */
export function takedownContent(mail: TakedownMail, ctx: TemplateContext): MessageContent {
  const photo = `photo #${headerText(mail.photoNumber, 20)} of ${headerText(mail.eventName, 100)}`;
  const subject =
    mail.decision === 'remove' ? `Your removal request: ${photo} was removed` : `Your removal request: ${photo}`;
  const lines =
    mail.decision === 'remove'
      ? [
          `You asked us to take down ${photo}.`,
          'We have removed it: it is no longer shown in the gallery, offered for sale or printed.',
        ]
      : [
          `You asked us to take down ${photo}.`,
          'We have reviewed your request and decided to keep the photo in the gallery.',
          'If you think we got this wrong, reply to this message and tell us why.',
        ];
  const text = `Hello,\n\n${lines.join('\n')}\n\n— ${ctx.senderName}\n`;
  const html = page(
    subject,
    ['<p>Hello,</p>', ...lines.map((l) => `<p>${escapeHtml(l)}</p>`), `<p>— ${escapeHtml(ctx.senderName)}</p>`].join(
      '\n',
    ),
  );
  return { subject, text, html };
}

/** What the photographer's notice of a new takedown request says (`operator` jobs with `about: 'takedown'`). */
export type TakedownNoticeMail = {
  eventName: string;
  photoNumber: string;
  reason: string;
  email: string;
  message: string;
  hidden: boolean;
};

/**
 * The photographer hears of a new takedown request at once, with a link to the dashboard's
 * queue, where one tap decides it (docs/contract.md, "Takedown requests").
 */
export function takedownNoticeContent(mail: TakedownNoticeMail, ctx: TemplateContext): MessageContent {
  const photo = `photo #${headerText(mail.photoNumber, 20)} of ${headerText(mail.eventName, 100)}`;
  const subject = `Takedown request: ${photo}`;
  const queueUrl = `${ctx.publicBaseUrl}/admin/takedowns`;
  const lines = [
    `Someone asked for ${photo} to come down.`,
    `Reason: ${takedownReasonWords(mail.reason)}. From: ${mail.email}.`,
    ...(mail.message ? [`Message: ${mail.message}`] : []),
    mail.hidden
      ? 'The photo is hidden from the gallery until you decide.'
      : 'The photo is still shown in the gallery until you decide.',
  ];
  const text = `${lines.join('\n')}\n\nDecide: ${queueUrl}\n`;
  const html = page(
    subject,
    [
      ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
      `<p><a href="${escapeHtml(queueUrl)}" style="display:inline-block;padding:10px 18px;background:#1a73e8;color:#fff;text-decoration:none;border-radius:4px">Open the takedown queue</a></p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}
