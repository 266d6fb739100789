/**
 * An event's standing offers, packages and the early bird, in integer cents
 * (docs/contract.md, "Selling"). event.json and the event-config API write dollars; their
 * schemas convert. One package per size.
 */
import { z } from 'zod';
import { formatCents } from './money.js';
import { sizeKey } from './prints.js';

/** The price-list size that is a digital file rather than a print (no shipping). */
const DIGITAL_SIZE = 'digital';

export const MAX_PACKAGES = 20;
export const MAX_PACKAGE_COUNT = 1000;

export const Package = z.object({
  size: z.string().min(1).max(40),
  /** Copies in one package: at least 2 (a package of 1 is just a price). */
  count: z.number().int().min(2).max(MAX_PACKAGE_COUNT),
  priceCents: z.number().int().min(0),
});
export type Package = z.infer<typeof Package>;

export const EarlyBird = z.object({
  /** Whole percent off, 1–100. */
  percent: z.number().int().min(1).max(100),
  until: z.iso.datetime({ offset: true }).describe('ISO 8601 UTC: orders placed before this instant get the discount'),
});
export type EarlyBird = z.infer<typeof EarlyBird>;

export function isDigitalSize(size: string): boolean {
  return sizeKey(size) === DIGITAL_SIZE;
}

/** The lines that are prints: what goes in a parcel, a print file or a label (digital files are downloaded). */
export function printLines<L extends { size: string }>(lines: readonly L[]): L[] {
  return lines.filter((line) => !isDigitalSize(line.size));
}

/** How many of an order's lines to print are marked printed, of how many there are (digital files never are). */
export function printProgress(order: { items: readonly { size: string }[]; printed: readonly { line: number }[] }): {
  printed: number;
  toPrint: number;
} {
  return { printed: new Set(order.printed.map((p) => p.line)).size, toPrint: printLines(order.items).length };
}

/**
 * What is wrong with a package list against a price list (empty when nothing): sizes not on
 * the list, two packages for one size, and packages that cost no less than their copies at
 * the unit price (a "package" that charges more would only ever be ignored by pricing).
 */
export function packageProblems(
  packages: readonly Package[],
  prices: Readonly<Record<string, number>>,
): { index: number; message: string }[] {
  const problems: { index: number; message: string }[] = [];
  const seen = new Set<string>();
  const listed = new Map(Object.entries(prices).map(([size, cents]) => [sizeKey(size), { size, cents }]));
  packages.forEach((p, index) => {
    const key = sizeKey(p.size);
    const entry = listed.get(key);
    if (!entry) {
      problems.push({
        index,
        message: `size "${p.size}" is not on the price list (${Object.keys(prices).join(', ')})`,
      });
      return;
    }
    if (seen.has(key)) {
      problems.push({ index, message: `a second package for ${entry.size}: one package per size` });
      return;
    }
    seen.add(key);
    if (p.priceCents >= p.count * entry.cents) {
      problems.push({
        index,
        message: `${p.count} × ${entry.size} for ${formatCents(p.priceCents)} saves nothing against ${formatCents(p.count * entry.cents)} at the unit price`,
      });
    }
  });
  return problems;
}
