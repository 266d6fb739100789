/**
 * The photographer's business settings (docs/contract.md, "Business settings"): the
 * environment gives the defaults; what the owner saves in the dashboard wins. A placeholder
 * return address or a public address nobody else can open (`localhost`) gives warnings:
 * labels would carry a made-up address and cards a link no attendee's phone can follow.
 */
export type BusinessSettings = {
  businessName: string;
  /** Lines separated by `\n`. */
  returnAddress: string;
  /** Absolute http(s) URL without a trailing slash. */
  publicBaseUrl: string;
  paymentInstructions: string;
  /** `Name <address>` or an address. */
  mailFrom: string;
};

export type BusinessWarning = { field: 'returnAddress' | 'publicBaseUrl'; message: string };

/** RETURN_ADDRESS's default (src/config/env.ts): a made-up address to be replaced before anything ships. */
const PLACEHOLDER_RETURN_ADDRESS = 'Convention Photos\n123 Main St\nSpringfield, IL 62701';

/** What an unpaid order's customer is told when nothing else was set (PAYMENT_INSTRUCTIONS's default). */
export const DEFAULT_PAYMENT_INSTRUCTIONS =
  'Pay at the booth, in cash or by card: show your order number. We mark your order paid there.';

const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Hosts no attendee's phone reaches: this machine, or names reserved for examples (RFC 2606, 6761). */
function unreachableHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0.0.0.0' || /^127\./.test(h)) return true;
  return /(^|\.)example(\.(com|net|org))?$/.test(h) || h.endsWith('.invalid');
}

export function businessWarnings(s: Pick<BusinessSettings, 'returnAddress' | 'publicBaseUrl'>): BusinessWarning[] {
  const out: BusinessWarning[] = [];
  if (comparable(s.returnAddress) === comparable(PLACEHOLDER_RETURN_ADDRESS) || s.returnAddress.trim() === '') {
    out.push({
      field: 'returnAddress',
      message: 'The return address is the placeholder (123 Main St): every label and packing slip carries it',
    });
  }
  let host = '';
  try {
    host = new URL(s.publicBaseUrl).hostname;
  } catch {
    host = 'localhost';
  }
  if (unreachableHost(host)) {
    out.push({
      field: 'publicBaseUrl',
      message: `The public address is ${s.publicBaseUrl}: links in mail and on photo code cards open only on this machine`,
    });
  }
  return out;
}
