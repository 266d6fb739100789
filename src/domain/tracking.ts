/**
 * Which carrier a tracking number belongs to, and where the customer follows it
 * (docs/contract.md, "Notifications"), by the carriers' published formats, spaces and
 * hyphens ignored, any case. Anything else has no link (the number is still shown).
 */
export type Carrier = 'USPS' | 'UPS' | 'FedEx';
export type TrackingLink = { carrier: Carrier; url: string };

const FORMATS: readonly { carrier: Carrier; pattern: RegExp; url: (n: string) => string }[] = [
  { carrier: 'UPS', pattern: /^1Z[0-9A-Z]{16}$/, url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  {
    carrier: 'USPS',
    pattern: /^(?:9[2-5]\d{20}|(?:70|23|03)\d{18}|[A-Z]{2}\d{9}US)$/,
    url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  },
  {
    carrier: 'FedEx',
    pattern: /^(?:\d{12}|\d{15}|96\d{20})$/,
    url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  },
];

/** The carrier and tracking page of `trackingNumber`, or null when the format is not one of theirs. */
export function trackingLink(trackingNumber: string): TrackingLink | null {
  const n = trackingNumber.replace(/[\s-]+/g, '').toUpperCase();
  for (const f of FORMATS) if (f.pattern.test(n)) return { carrier: f.carrier, url: f.url(n) };
  return null;
}
