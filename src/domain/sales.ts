/**
 * Paid sales grouped by calendar day and by event, in integer cents (the API turns them into
 * dollars like the sales summary). A day is the calendar date of the order's `createdAt` in
 * a time zone: UTC unless the caller names an IANA zone (`America/Los_Angeles`), so an
 * evening sale at a convention can count on that convention's day.
 */
import type { OrderRecord } from './order.js';

type SalesBucket = { orders: number; revenueCents: number };
type DaySales = SalesBucket & { date: string };
type EventSales = SalesBucket & { eventSlug: string };
export type SalesBreakdown = { byDay: DaySales[]; byEvent: EventSales[] };

/** Whether `zone` is an IANA time zone this runtime knows (`UTC`, `Europe/Paris`, ...). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A canonical UTC timestamp (what the stores write): its first ten characters are its UTC date. */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Every zone's offset from UTC is a multiple of 15 minutes: a quarter hour is one local date. */
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * `createdAt` → `YYYY-MM-DD` in `zone`. Formatting in a named zone costs microseconds, so
 * dates are remembered per quarter hour (10,000 orders: ~55 ms → a few ms).
 */
export function dayKeyer(zone: string): (iso: string) => string {
  if (zone.toUpperCase() === 'UTC') {
    return (iso) => (CANONICAL_UTC.test(iso) ? iso.slice(0, 10) : new Date(iso).toISOString().slice(0, 10));
  }
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const memo = new Map<number, string>();
  return (iso) => {
    const ms = Date.parse(iso);
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let key = memo.get(quarter);
    if (key === undefined) {
      let y = '';
      let m = '';
      let d = '';
      for (const part of fmt.formatToParts(ms)) {
        if (part.type === 'year') y = part.value;
        else if (part.type === 'month') m = part.value;
        else if (part.type === 'day') d = part.value;
      }
      key = `${y.padStart(4, '0')}-${m}-${d}`;
      memo.set(quarter, key);
    }
    return key;
  };
}

/**
 * Groups paid orders (the caller passes them; any other status is skipped) by day, oldest day
 * first, and by event, highest revenue first (then by code). Only days and events with sales.
 */
export function salesBreakdown(
  orders: readonly Pick<OrderRecord, 'status' | 'createdAt' | 'eventSlug' | 'totalCents'>[],
  opts: { timeZone?: string } = {},
): SalesBreakdown {
  const dayOf = dayKeyer(opts.timeZone ?? 'UTC');
  const days = new Map<string, SalesBucket>();
  const events = new Map<string, SalesBucket>();
  const add = (m: Map<string, SalesBucket>, key: string, cents: number) => {
    const b = m.get(key);
    if (b) {
      b.orders += 1;
      b.revenueCents += cents;
    } else m.set(key, { orders: 1, revenueCents: cents });
  };
  for (const o of orders) {
    if (o.status !== 'paid') continue;
    add(days, dayOf(o.createdAt), o.totalCents);
    add(events, o.eventSlug, o.totalCents);
  }
  const byDay = [...days].map(([date, b]) => ({ date, ...b })).sort((a, b) => (a.date < b.date ? -1 : 1));
  const byEvent = [...events]
    .map(([eventSlug, b]) => ({ eventSlug, ...b }))
    .sort((a, b) => b.revenueCents - a.revenueCents || (a.eventSlug < b.eventSlug ? -1 : 1));
  return { byDay, byEvent };
}

/** The photographer of a line's photo, or undefined when the photographer's metadata names none. */
export type PhotographerOf = (eventSlug: string, photoNumber: string) => string | undefined;
export type PhotographerSales = { photographer: string; orders: number; prints: number; revenueCents: number };

/** The photographer of photos whose metadata names none (docs/contract.md, "The photographer's metadata"). */
export const UNKNOWN_PHOTOGRAPHER = 'unknown';

/**
 * Paid orders' lines by the photographer of their photo (any other status is skipped): per
 * photographer, the orders with at least one such line, the prints (quantities) and the lines'
 * revenue (their `lineCents`, before an order's discounts and shipping, which belong to no
 * one photo). Highest revenue first, then by name.
 */
export function photographerSales(
  orders: readonly Pick<OrderRecord, 'status' | 'eventSlug' | 'items'>[],
  photographerOf: PhotographerOf,
): PhotographerSales[] {
  const by = new Map<string, PhotographerSales>();
  for (const o of orders) {
    if (o.status !== 'paid') continue;
    const counted = new Set<string>();
    for (const line of o.items) {
      const photographer = photographerOf(o.eventSlug, line.photoNumber) ?? UNKNOWN_PHOTOGRAPHER;
      let row = by.get(photographer);
      if (!row) {
        row = { photographer, orders: 0, prints: 0, revenueCents: 0 };
        by.set(photographer, row);
      }
      if (!counted.has(photographer)) {
        counted.add(photographer);
        row.orders++;
      }
      row.prints += line.quantity;
      row.revenueCents += line.lineCents;
    }
  }
  return [...by.values()].sort((a, b) => b.revenueCents - a.revenueCents || (a.photographer < b.photographer ? -1 : 1));
}
