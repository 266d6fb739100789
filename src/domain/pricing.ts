/**
 * Prices an order from an event's price list, in integer cents (docs/contract.md, "Orders"). The server's
 * figures are the only ones that count; a client's figures are compared against them.
 */
import { appError } from '../errors/catalogue.js';
import type { FulfillmentType, OrderLine } from './order.js';
import { type Crop, sizeKey } from './prints.js';

export type PriceList = {
  /** size → unit price in cents. */
  prices: Record<string, number>;
  defaultSize: string;
  shippingFeeCents: number;
};

export type RequestedLine = {
  photoNumber: string;
  size?: string | undefined;
  quantity: number;
  crop?: Crop | undefined;
};

export type PricedOrder = {
  lines: OrderLine[];
  subtotalCents: number;
  shippingFeeCents: number;
  totalCents: number;
};

export const MAX_ORDER_LINES = 200;
export const MAX_QUANTITY = 99;

/** Finds a size on the list, ignoring case and spaces ("4X6", "4 x 6" → "4x6"). */
export function matchSize(prices: Record<string, number>, size: string): string | undefined {
  const wanted = sizeKey(size);
  return Object.keys(prices).find((k) => sizeKey(k) === wanted);
}

/**
 * Prices the lines. Throws 400 VALIDATION_FAILED (size not on the list, quantity out of
 * range, too many lines); photo existence is the caller's check (UNKNOWN_PHOTO).
 */
export function priceOrder(
  list: PriceList,
  requested: readonly RequestedLine[],
  fulfillment: FulfillmentType,
): PricedOrder {
  if (requested.length === 0) throw appError('VALIDATION_FAILED', { message: 'An order needs at least one photo' });
  if (requested.length > MAX_ORDER_LINES) {
    throw appError('VALIDATION_FAILED', { message: `At most ${MAX_ORDER_LINES} lines per order` });
  }
  const problems: { line: number; message: string }[] = [];
  const lines: OrderLine[] = [];
  requested.forEach((r, i) => {
    const size = matchSize(list.prices, r.size ?? list.defaultSize);
    if (size === undefined) {
      problems.push({
        line: i + 1,
        message: `size "${r.size ?? list.defaultSize}" is not on the price list (${Object.keys(list.prices).join(', ')})`,
      });
      return;
    }
    if (!Number.isInteger(r.quantity) || r.quantity < 1 || r.quantity > MAX_QUANTITY) {
      problems.push({ line: i + 1, message: `quantity must be 1-${MAX_QUANTITY}` });
      return;
    }
    const unitCents = list.prices[size] as number;
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
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineCents, 0);
  const shippingFeeCents = fulfillment === 'ship' ? list.shippingFeeCents : 0;
  return { lines, subtotalCents, shippingFeeCents, totalCents: subtotalCents + shippingFeeCents };
}

/** Open for orders when not archived, ordering enabled, and the deadline (if any) ahead (docs/contract.md, "Events"). */
export function isOpenForOrders(
  ev: { isArchived: boolean; orderingEnabled: boolean; deadline: string | null },
  now: Date = new Date(),
): boolean {
  if (ev.isArchived || !ev.orderingEnabled) return false;
  return ev.deadline === null || Date.parse(ev.deadline) > now.getTime();
}

/** Why an event is closed, for the ORDERING_CLOSED message; null when open. */
export function closedReason(
  ev: { isArchived: boolean; orderingEnabled: boolean; deadline: string | null },
  now: Date = new Date(),
): 'archived' | 'disabled' | 'deadline' | null {
  if (ev.isArchived) return 'archived';
  if (!ev.orderingEnabled) return 'disabled';
  if (ev.deadline !== null && Date.parse(ev.deadline) <= now.getTime()) return 'deadline';
  return null;
}
