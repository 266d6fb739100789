/**
 * The pricing rules, in integer cents (docs/contract.md, "Selling"). The intake and the quote
 * endpoint both price through `priceOrder`, so the figures the browser shows are the figures
 * the server charges. On a tie between early bird and coupon the early bird wins, so a
 * limited coupon is not spent for nothing. Percentages round to the nearest cent, halves up.
 */
import { appError } from '../errors/catalogue.js';
import { type CouponKind, type CouponRecord, couponInvalid, validateCoupon } from './coupons.js';
import { type EarlyBird, isDigitalSize, type Package } from './offers.js';
import type { FulfillmentType, OrderLine } from './order.js';
import { type Crop, sizeKey } from './prints.js';

export type PriceRules = {
  /** size → unit price in cents. */
  prices: Record<string, number>;
  defaultSize: string;
  shippingFeeCents: number;
  packages: readonly Package[];
  earlyBird: EarlyBird | null;
};

export type RequestedLine = {
  photoNumber: string;
  size?: string | undefined;
  quantity: number;
  crop?: Crop | undefined;
};

/** A package as it applied to this order. */
export type PackageUse = {
  size: string;
  count: number;
  priceCents: number;
  /** Full packages in the order. */
  sets: number;
  savingCents: number;
};

export type EarlyBirdOffer = { percent: number; until: string; discountCents: number; applied: boolean };
export type CouponOffer = {
  code: string;
  kind: CouponKind;
  value: number | null;
  discountCents: number;
  applied: boolean;
};

export type PricedOrder = {
  lines: OrderLine[];
  subtotalCents: number;
  packages: PackageUse[];
  packageSavingsCents: number;
  /** The early bird when it runs at the order's time (applied or beaten by the coupon). */
  earlyBird: EarlyBirdOffer | null;
  /** The coupon when one was given and accepted (applied or beaten by the early bird). */
  coupon: CouponOffer | null;
  discountCents: number;
  shippingFeeCents: number;
  totalCents: number;
};

export type PricingOptions = {
  /** When the order is placed: decides the early bird and coupon expiry. */
  now: Date;
  eventSlug: string;
  /** The code the customer gave and what the coupon store holds for it (undefined: none). */
  coupon?: { code: string; record: CouponRecord | undefined } | undefined;
};

export const MAX_ORDER_LINES = 200;
export const MAX_QUANTITY = 99;

/** Finds a size on the list, ignoring case and spaces ("4X6", "4 x 6" → "4x6"). */
export function matchSize(prices: Record<string, number>, size: string): string | undefined {
  const wanted = sizeKey(size);
  return Object.keys(prices).find((k) => sizeKey(k) === wanted);
}

/** `percent` of `cents`, to the nearest cent (halves up), in integers. */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/**
 * Prices the lines. Throws 400 VALIDATION_FAILED (size not on the list, quantity out of
 * range, too many lines) and 400 COUPON_INVALID; photo existence is the caller's check
 * (UNKNOWN_PHOTO).
 */
export function priceOrder(
  rules: PriceRules,
  requested: readonly RequestedLine[],
  fulfillment: FulfillmentType,
  opts: PricingOptions,
): PricedOrder {
  const lines = priceLines(rules, requested);
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineCents, 0);
  const packages = applyPackages(rules, lines);
  const packageSavingsCents = packages.reduce((sum, p) => sum + p.savingCents, 0);
  const goodsCents = subtotalCents - packageSavingsCents;
  const ships = fulfillment === 'ship' && lines.some((l) => !isDigitalSize(l.size));
  const shippingFeeCents = ships ? rules.shippingFeeCents : 0;

  const eb = rules.earlyBird;
  const earlyBird: EarlyBirdOffer | null =
    eb && opts.now.getTime() < Date.parse(eb.until)
      ? { percent: eb.percent, until: eb.until, discountCents: percentOf(goodsCents, eb.percent), applied: false }
      : null;

  let coupon: CouponOffer | null = null;
  if (opts.coupon) {
    const check = validateCoupon(opts.coupon.record, {
      code: opts.coupon.code,
      eventSlug: opts.eventSlug,
      goodsCents,
      now: opts.now,
    });
    if (!check.ok) throw couponInvalid(opts.coupon.code, check);
    const c = check.coupon;
    coupon = {
      code: c.code,
      kind: c.kind,
      value: c.value,
      discountCents: couponDiscount(c, goodsCents, shippingFeeCents),
      applied: false,
    };
  }

  let promotionCents = 0;
  if (coupon && coupon.discountCents > (earlyBird?.discountCents ?? 0)) {
    coupon.applied = true;
    promotionCents = coupon.discountCents;
  } else if (earlyBird) {
    earlyBird.applied = true;
    promotionCents = earlyBird.discountCents;
  }
  const discountCents = packageSavingsCents + promotionCents;
  return {
    lines,
    subtotalCents,
    packages,
    packageSavingsCents,
    earlyBird,
    coupon,
    discountCents,
    shippingFeeCents,
    totalCents: Math.max(0, subtotalCents - discountCents + shippingFeeCents),
  };
}

function priceLines(rules: PriceRules, requested: readonly RequestedLine[]): OrderLine[] {
  if (requested.length === 0) throw appError('VALIDATION_FAILED', { message: 'An order needs at least one photo' });
  if (requested.length > MAX_ORDER_LINES) {
    throw appError('VALIDATION_FAILED', { message: `At most ${MAX_ORDER_LINES} lines per order` });
  }
  const problems: { line: number; message: string }[] = [];
  const lines: OrderLine[] = [];
  requested.forEach((r, i) => {
    const size = matchSize(rules.prices, r.size ?? rules.defaultSize);
    if (size === undefined) {
      problems.push({
        line: i + 1,
        message: `size "${r.size ?? rules.defaultSize}" is not on the price list (${Object.keys(rules.prices).join(', ')})`,
      });
      return;
    }
    if (!Number.isInteger(r.quantity) || r.quantity < 1 || r.quantity > MAX_QUANTITY) {
      problems.push({ line: i + 1, message: `quantity must be 1-${MAX_QUANTITY}` });
      return;
    }
    const unitCents = rules.prices[size] as number;
    const line: OrderLine = {
      photoNumber: r.photoNumber,
      size,
      quantity: r.quantity,
      unitCents,
      lineCents: unitCents * r.quantity,
    };
    // The crop choice rides along with the line (stored in the items JSON); it costs nothing.
    if (r.crop) line.crop = { x: r.crop.x, y: r.crop.y };
    lines.push(line);
  });
  if (problems.length > 0) {
    throw appError('VALIDATION_FAILED', { message: 'Some order lines are not valid', details: problems });
  }
  return lines;
}

/**
 * Per size with a package: every full `count` copies (across all lines of that size) cost
 * the package price. A package that would cost more than its copies is not applied (the
 * unit price may have dropped below it since the package was set).
 */
function applyPackages(rules: PriceRules, lines: readonly OrderLine[]): PackageUse[] {
  const uses: PackageUse[] = [];
  for (const p of rules.packages) {
    const size = matchSize(rules.prices, p.size);
    if (size === undefined) continue;
    const copies = lines.reduce((n, l) => (sizeKey(l.size) === sizeKey(size) ? n + l.quantity : n), 0);
    const sets = Math.floor(copies / p.count);
    const perSet = p.count * (rules.prices[size] as number) - p.priceCents;
    if (sets === 0 || perSet <= 0) continue;
    uses.push({ size, count: p.count, priceCents: p.priceCents, sets, savingCents: sets * perSet });
  }
  return uses;
}

function couponDiscount(c: CouponRecord, goodsCents: number, shippingFeeCents: number): number {
  switch (c.kind) {
    case 'percent':
      return percentOf(goodsCents, c.value ?? 0);
    case 'amount':
      return Math.min(c.value ?? 0, goodsCents);
    case 'freeShipping':
      return shippingFeeCents;
  }
}

/**
 * What was taken off a stored order: subtotal + shipping − total (the pricing rules above
 * make that exact). Derived until orders keep their discount as a field of their own.
 */
export function orderDiscountCents(o: { subtotalCents: number; shippingFeeCents: number; totalCents: number }): number {
  return Math.max(0, o.subtotalCents + o.shippingFeeCents - o.totalCents);
}

type OrderingState = { isArchived: boolean; orderingEnabled: boolean; deadline: string | null };

/**
 * The one answer to "is this event open for orders?" (docs/contract.md, "Events"): why it is
 * closed, or null when open (not archived, ordering enabled, the deadline if any ahead).
 */
export function closedReason(ev: OrderingState, now: Date = new Date()): 'archived' | 'disabled' | 'deadline' | null {
  if (ev.isArchived) return 'archived';
  if (!ev.orderingEnabled) return 'disabled';
  if (ev.deadline === null) return null;
  // A deadline that is not a date (event.json and the admin route both refuse one) closes it too.
  const deadline = Date.parse(ev.deadline);
  if (!Number.isFinite(deadline) || deadline <= now.getTime()) return 'deadline';
  return null;
}

/** Open for orders: `closedReason` has nothing to say. */
export function isOpenForOrders(ev: OrderingState, now: Date = new Date()): boolean {
  return closedReason(ev, now) === null;
}
