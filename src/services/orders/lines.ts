/**
 * Order lines, from either body variant to a priced order (docs/contract.md, "Orders",
 * "Selling"): parsed, counted, checked against the event's photos (all unknown ones listed),
 * priced with `priceOrder`, and for variant B compared with the client's figures. Crop
 * centres ride along; variant B's `crops` name their line by photo number and size.
 */
import { parseItems } from '../../domain/items.js';
import { formatCents, parseMoney } from '../../domain/money.js';
import type { FulfillmentType } from '../../domain/order.js';
import {
  MAX_ORDER_LINES,
  type PricedOrder,
  type PriceRules,
  type PricingOptions,
  priceOrder,
  type RequestedLine,
} from '../../domain/pricing.js';
import { type Crop, sizeKey } from '../../domain/prints.js';
import { appError } from '../../errors/catalogue.js';
import { toPriceBreakdown } from '../../schemas/pricing.js';

/** Variant A: photo numbers, or `{ number, size, quantity, crop }`. */
export type ListedLine = { photo: string; size?: string | undefined; quantity: number; crop?: Crop | undefined };

/** Variant B: a crop centre for the line(s) of `items` with this photo number and size. */
export type LineCrop = { photo: string; size: string; crop: Crop };

/**
 * Variant B: the items text and the figures the client computed. `discount` is optional
 * (clients written before discounts existed); when absent, only the total shows a discount.
 */
type ClaimedFigures = { subtotal: string; shippingFee: string; total: string; discount?: string | undefined };

export type RequestedLines =
  | { kind: 'list'; items: readonly ListedLine[] }
  | { kind: 'text'; text: string; claimed: ClaimedFigures; crops?: readonly LineCrop[] | undefined };

/** How photos are found: by number (or id) within the event. */
export type PhotoFinder = (photoRef: string) => { number: string } | undefined;

const MAX_LISTED_UNKNOWN = 50;

function tooMany(count: number) {
  return appError('VALIDATION_FAILED', {
    message: `At most ${MAX_ORDER_LINES} lines per order`,
    details: [{ in: 'body', field: 'items', message: `${count} lines; at most ${MAX_ORDER_LINES}` }],
  });
}

/** A number typed with leading zeros ("0012") finds photo 12. */
function lookUp(find: PhotoFinder, ref: string) {
  const photo = find(ref);
  if (photo || !/^0+\d/.test(ref)) return photo;
  return find(ref.replace(/^0+(?=\d)/, ''));
}

/** Steps 1–3: the lines as priceOrder takes them, photo numbers in the library's spelling. */
function requestedLines(
  eventSlug: string,
  input: RequestedLines,
  find: PhotoFinder,
): { lines: RequestedLine[]; claimedLineCents: (number | null)[] } {
  let raw: {
    photo: string;
    size?: string | undefined;
    quantity: number;
    amountCents: number | null;
    crop?: Crop | undefined;
  }[];
  if (input.kind === 'text') {
    const parsed = parseItems(input.text);
    if (!parsed.ok) {
      const lineCount = parsed.errors.length;
      throw appError('VALIDATION_FAILED', {
        message: lineCount === 1 ? 'An order line is not valid' : `${lineCount} order lines are not valid`,
        details: parsed.errors.slice(0, MAX_ORDER_LINES).map((e) => ({
          in: 'body',
          field: 'items',
          line: e.line,
          text: e.text,
          message: e.message,
        })),
      });
    }
    raw = parsed.lines.map((l) => ({
      photo: l.photoNumber,
      size: l.size,
      quantity: l.quantity,
      amountCents: l.amountCents,
    }));
  } else {
    raw = input.items.map((l) => ({ ...l, amountCents: null }));
  }
  if (raw.length > MAX_ORDER_LINES) throw tooMany(raw.length);

  const unknown: string[] = [];
  const lines: RequestedLine[] = raw.map((l) => {
    const photo = lookUp(find, l.photo);
    if (!photo && !unknown.includes(l.photo)) unknown.push(l.photo);
    return { photoNumber: photo?.number ?? l.photo, size: l.size, quantity: l.quantity, crop: l.crop };
  });
  if (unknown.length > 0) {
    const shown = unknown.slice(0, MAX_LISTED_UNKNOWN);
    throw appError('UNKNOWN_PHOTO', {
      message: `${unknown.length === 1 ? 'Photo' : 'Photos'} ${shown.join(', ')}${unknown.length > shown.length ? ', ...' : ''} ${unknown.length === 1 ? 'is' : 'are'} not in event ${eventSlug}`,
      details: { eventSlug, unknownPhotos: shown, count: unknown.length },
    });
  }
  if (input.kind === 'text' && input.crops) applyCrops(lines, input.crops, find);
  return { lines, claimedLineCents: raw.map((l) => l.amountCents) };
}

/** Variant B: each `crops` entry to the lines with its photo and size; one that names none is refused. */
function applyCrops(lines: RequestedLine[], crops: readonly LineCrop[], find: PhotoFinder): void {
  const unmatched: { in: string; field: string; message: string }[] = [];
  crops.forEach((c, i) => {
    const number = lookUp(find, c.photo)?.number ?? c.photo;
    const size = sizeKey(c.size);
    let matched = false;
    for (const line of lines) {
      if (line.photoNumber === number && sizeKey(line.size ?? '') === size) {
        line.crop = c.crop;
        matched = true;
      }
    }
    if (!matched) {
      unmatched.push({
        in: 'body',
        field: `crops.${i}`,
        message: `no line of items is photo #${c.photo.slice(0, 64)} (${c.size.slice(0, 32)})`,
      });
    }
  });
  if (unmatched.length > 0) {
    throw appError('VALIDATION_FAILED', { message: 'A crop names no line of the order', details: unmatched });
  }
}

type Mismatch = { field: string; line?: number; expected: string; received: string };
type Figure = 'subtotal' | 'discount' | 'shippingFee' | 'total';
const FIGURES: readonly Figure[] = ['subtotal', 'shippingFee', 'total'];
const FIGURES_WITH_DISCOUNT: readonly Figure[] = ['subtotal', 'discount', 'shippingFee', 'total'];

/** Step 5: every client figure against the server's; throws PRICE_MISMATCH listing each difference. */
function checkClaimedFigures(priced: PricedOrder, claimed: ClaimedFigures, claimedLineCents: (number | null)[]) {
  const unreadable: { in: string; field: string; message: string }[] = [];
  const fields = claimed.discount === undefined ? FIGURES : FIGURES_WITH_DISCOUNT;
  const amounts: Record<Figure, number | null> = {
    subtotal: parseMoney(claimed.subtotal),
    discount: claimed.discount === undefined ? null : parseMoney(claimed.discount),
    shippingFee: parseMoney(claimed.shippingFee),
    total: parseMoney(claimed.total),
  };
  for (const field of fields) {
    if (amounts[field] === null) {
      unreadable.push({ in: 'body', field, message: 'must be an amount such as "$12.50"' });
    }
  }
  if (unreadable.length > 0) {
    throw appError('VALIDATION_FAILED', { message: 'An amount is not readable', details: unreadable });
  }

  const mismatches: Mismatch[] = [];
  priced.lines.forEach((l, i) => {
    const c = claimedLineCents[i];
    if (c !== null && c !== undefined && c !== l.lineCents) {
      mismatches.push({ field: 'items', line: i + 1, expected: formatCents(l.lineCents), received: formatCents(c) });
    }
  });
  const server: Record<Figure, number> = {
    subtotal: priced.subtotalCents,
    discount: priced.discountCents,
    shippingFee: priced.shippingFeeCents,
    total: priced.totalCents,
  };
  for (const field of fields) {
    const c = amounts[field] as number;
    if (c !== server[field]) mismatches.push({ field, expected: formatCents(server[field]), received: formatCents(c) });
  }
  if (mismatches.length > 0) {
    const breakdown = toPriceBreakdown(priced);
    throw appError('PRICE_MISMATCH', {
      message: `The amounts do not match the price list: the total is ${breakdown.total}`,
      details: { ...breakdown, mismatches },
    });
  }
}

/** Steps 1–3, checked and kept for `priceResolved`: what needs only the event's photo list. */
export type ResolvedLines = {
  input: RequestedLines;
  lines: RequestedLine[];
  claimedLineCents: (number | null)[];
};

/** Steps 1–3: the lines parsed and matched to the event's photos (400 VALIDATION_FAILED / UNKNOWN_PHOTO). */
export function resolveLines(eventSlug: string, input: RequestedLines, find: PhotoFinder): ResolvedLines {
  return { input, ...requestedLines(eventSlug, input, find) };
}

/** Steps 4–5 on resolved lines: priced with the event's rules (and the coupon), client figures checked. */
export function priceResolved(
  rules: PriceRules,
  resolved: ResolvedLines,
  fulfillment: FulfillmentType,
  opts: PricingOptions,
): PricedOrder {
  const priced = priceOrder(rules, resolved.lines, fulfillment, opts);
  const { input } = resolved;
  if (input.kind === 'text') checkClaimedFigures(priced, input.claimed, resolved.claimedLineCents);
  return priced;
}

/** Steps 1–5. */
export function priceRequest(
  rules: PriceRules,
  input: RequestedLines,
  fulfillment: FulfillmentType,
  find: PhotoFinder,
  opts: PricingOptions,
): PricedOrder {
  return priceResolved(rules, resolveLines(opts.eventSlug, input, find), fulfillment, opts);
}
