/**
 * The frame of every message: plain text and HTML with the same words, a greeting, parts and
 * the sender's signature. Pure functions, so they can be tested and benchmarked alone.
 */

import type { OrderRecord } from '../../../domain/order.js';
import { escapeHtml } from '../../../lib/escape.js';

export type MessageContent = { subject: string; text: string; html: string };

export type TemplateContext = {
  /** PUBLIC_BASE_URL without a trailing slash. */
  publicBaseUrl: string;
  /** Shown as the sender's name in the body ("— Convention Photos"): the business name. */
  senderName: string;
  /** How to pay an unpaid order (docs/contract.md, "Business settings"); lines separated by `\n`. */
  paymentInstructions?: string;
  /** The signed links of a paid order's digital files (none before payment; docs/contract.md, "Selling"). */
  downloadLinks?: (order: OrderRecord) => { photoNumber: string; url: string; expiresAt: string }[];
};

const PAGE_STYLE = 'font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222;max-width:600px';

export function page(title: string, bodyHtml: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:16px"><div style="${PAGE_STYLE}">`,
    bodyHtml,
    '</div></body></html>',
  ].join('\n');
}

/** A link that looks like a button (the one thing the reader is asked to do). */
export function button(url: string, label: string): string {
  return `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#1a73e8;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(label)}</a></p>`;
}

/** One part of a letter: its lines in the text version (a blank line after them) and its HTML. */
export type Part = { text: readonly string[]; html: string };

/**
 * A letter to a customer or an attendee: "Hello <name>," (or "Hello," without one), its parts,
 * the sender's signature; the same words as plain text and as HTML.
 */
export function letter(
  subject: string,
  name: string | null,
  parts: readonly Part[],
  ctx: TemplateContext,
): MessageContent {
  const hello = name === null ? 'Hello,' : `Hello ${name},`;
  const text = [
    hello,
    '',
    ...parts.flatMap((p) => (p.text.length === 0 ? [] : [...p.text, ''])),
    `— ${ctx.senderName}`,
    '',
  ].join('\n');
  const html = page(
    subject,
    [
      `<p>${escapeHtml(hello)}</p>`,
      ...parts.map((p) => p.html).filter(Boolean),
      `<p>— ${escapeHtml(ctx.senderName)}</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}
