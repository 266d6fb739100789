/** What the visitor keeps on the device: the cart, favourites and the orders placed here. */
import { persistent } from './store.js';

export type CartLine = {
  event: string;
  eventName: string;
  number: string;
  thumb: string;
  size: string;
  quantity: number;
  /** The print's crop centre, when the customer moved it from the middle. */
  crop?: { x: number; y: number };
};

export type Favourite = { event: string; number: string; thumb: string };

/** What the confirmation page shows; the API lets only admins read an order back. */
export type PlacedOrder = {
  orderNumber: string;
  event: string;
  eventName: string;
  email: string;
  total: string;
  items: string;
  /** `digital`: digital files only (no delivery; download links once paid). */
  fulfillmentType: 'ship' | 'pickup' | 'digital';
  verificationRequired: boolean;
  createdAt: string;
};

const isArray = (v: unknown): v is never[] => Array.isArray(v);
const isObject = (v: unknown): v is never => typeof v === 'object' && v !== null && !Array.isArray(v);

export const cart = persistent<CartLine[]>('cps.cart.v1', [], { valid: isArray });
export const favourites = persistent<Favourite[]>('cps.favourites.v1', [], { valid: isArray });
export const placedOrders = persistent<Record<string, PlacedOrder>>('cps.orders.v1', {}, { valid: isObject });
/** Order number → the email a customer found it with on this device (`/order`), for this tab only. */
export const lookedUpOrders = persistent<Record<string, string>>(
  'cps.lookups.v1',
  {},
  { kind: 'session', valid: isObject },
);

const MAX_QUANTITY = 99;

export function addToCart(line: CartLine): void {
  cart.update((lines) => {
    const i = lines.findIndex((l) => l.event === line.event && l.number === line.number && l.size === line.size);
    if (i < 0) return [...lines, line];
    const next = [...lines];
    const old = next[i] as CartLine;
    next[i] = { ...old, quantity: Math.min(MAX_QUANTITY, old.quantity + line.quantity) };
    return next;
  });
}

export function isFavourite(list: Favourite[], event: string, number: string): boolean {
  return list.some((f) => f.event === event && f.number === number);
}

export function toggleFavourite(f: Favourite): void {
  favourites.update((list) =>
    isFavourite(list, f.event, f.number)
      ? list.filter((x) => !(x.event === f.event && x.number === f.number))
      : [...list, f],
  );
}

export const cartCount = (lines: CartLine[]): number => lines.reduce((n, l) => n + l.quantity, 0);
