/**
 * A photographer's share of the sales (docs/contract.md, "The photographer's metadata"): what a
 * `photographer:<name>:<token>` entry of ADMIN_TOKENS may see. An order as such a token sees
 * it holds only the lines of that photographer's photos, and its amounts are those lines' own:
 * an order's discounts and shipping belong to no one photo, and the other lines are another
 * photographer's business. Everything such a token is shown is computed from these shares,
 * so no figure can include a line that is not theirs.
 */
import type { OrderRecord, SalesSummaryCents } from './order.js';
import type { PhotographerOf } from './sales.js';

/**
 * Whether the photographer a photo's metadata names is `name` (as an ADMIN_TOKENS entry spells
 * it): case, Unicode normal form and surrounding spaces ignored. A photo naming none is no one's.
 */
function isPhotographer(photographer: string | undefined, name: string): boolean {
  if (photographer === undefined) return false;
  const key = (s: string) => s.normalize('NFC').trim().toLocaleLowerCase('en-US');
  return key(photographer) === key(name);
}

/** `order` cut down to `name`'s lines, its totals theirs; undefined when none of its lines is. */
function ownShare<O extends OrderRecord>(order: O, photographerOf: PhotographerOf, name: string): O | undefined {
  const items = order.items.filter((line) => isPhotographer(photographerOf(order.eventSlug, line.photoNumber), name));
  if (items.length === 0) return undefined;
  const cents = items.reduce((sum, line) => sum + line.lineCents, 0);
  return { ...order, items, subtotalCents: cents, discountCents: 0, shippingFeeCents: 0, totalCents: cents };
}

/** Every order's share that holds a line of `name`'s (the others left out). */
export function ownShares<O extends OrderRecord>(
  orders: readonly O[],
  photographerOf: PhotographerOf,
  name: string,
): O[] {
  return orders.flatMap((o) => ownShare(o, photographerOf, name) ?? []);
}

/**
 * The sales summary over orders already cut to a photographer's share (the store's summary,
 * `orders.summary`, computed the same way from the listed orders: held ones are never listed).
 */
export function summaryOfShares(shares: readonly OrderRecord[]): SalesSummaryCents {
  const paid = shares.filter((o) => o.status === 'paid');
  const pending = shares.filter((o) => o.status === 'pending');
  const sum = (list: readonly OrderRecord[]) => list.reduce((s, o) => s + o.totalCents, 0);
  const paidCents = sum(paid);
  return {
    totalOrders: shares.length,
    pendingCount: pending.length,
    completedCount: paid.length,
    cancelledCount: shares.filter((o) => o.status === 'cancelled' || o.status === 'void').length,
    totalRevenueCents: paidCents,
    pendingRevenueCents: sum(pending),
    averageOrderValueCents: paid.length === 0 ? 0 : Math.round(paidCents / paid.length),
    totalDiscountsCents: 0,
  };
}
