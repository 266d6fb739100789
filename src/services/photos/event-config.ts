/**
 * `<event>/event.json` (docs/contract.md, "Gallery"): its zod schema and the merge with derived defaults.
 * Amounts in the file are dollars (numbers such as 5 or 12.5, or text such as "$5.00");
 * everything here returns integer cents. A file that does not validate is reported
 * and the event runs on the derived defaults alone, never on half a configuration.
 */
import { z } from 'zod';
import { dollarsToCents, parseMoney } from '../../domain/money.js';
import { MAX_PACKAGE_COUNT, MAX_PACKAGES, type Package, packageProblems } from '../../domain/offers.js';
import { PrintSizesSetting } from '../../domain/prints.js';
import type { EventDefaults } from './types.js';

/** Used when event.json has no price list: common print sizes, in cents. */
export const DEFAULT_PRICES_CENTS: Readonly<Record<string, number>> = Object.freeze({
  '4x6': 500,
  '5x7': 1000,
  '8x10': 2000,
});
export const DEFAULT_SHIPPING_FEE_CENTS = 500;
/** `?featured=1`: four stars and up, unless the event says otherwise. */
const DEFAULT_FEATURED_RATING = 4;

const MAX_DOLLARS = 100_000;

/** 5, 12.5, "12.50", "$12.50" → cents; rejects negatives, fractions of a cent and absurd sums. */
const Dollars = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const cents =
    typeof value === 'number'
      ? Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6
        ? dollarsToCents(value)
        : null
      : parseMoney(value);
  if (cents === null || cents < 0 || cents > MAX_DOLLARS * 100) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a dollar amount from 0 to ${MAX_DOLLARS} with at most 2 decimals`,
    });
    return z.NEVER;
  }
  return cents;
});

/** `packages` in event.json: `[{ "size": "4x6", "count": 5, "price": 20 }]`. */
const PackageJson = z
  .object({
    size: z.string().trim().min(1).max(40),
    count: z.number().int().min(2).max(MAX_PACKAGE_COUNT),
    price: Dollars,
  })
  .transform((p): Package => ({ size: p.size, count: p.count, priceCents: p.price }));

/** `earlyBird` in event.json: `{ "percent": 10, "until": "2026-06-01T00:00:00Z" }`. */
const EarlyBirdJson = z.object({
  percent: z.number().int().min(1).max(100),
  until: z.iso.datetime({ offset: true }).transform((d) => new Date(d).toISOString()),
});

export const EventJson = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    date: z.iso.date().optional(),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9]{1,8}$/, 'must be 1 to 8 letters or digits')
      .transform((p) => p.toUpperCase())
      .optional(),
    prices: z
      .record(z.string().trim().min(1).max(40), Dollars)
      .refine((p) => Object.keys(p).length > 0, 'must list at least one size')
      .optional(),
    defaultSize: z.string().trim().min(1).max(40).optional(),
    shippingFee: Dollars.optional(),
    packages: z.array(PackageJson).max(MAX_PACKAGES).optional(),
    earlyBird: EarlyBirdJson.nullable().optional(),
    isArchived: z.boolean().optional(),
    orderingEnabled: z.boolean().optional(),
    deadline: z.iso
      .datetime({ offset: true })
      .transform((d) => new Date(d).toISOString())
      .nullable()
      .optional(),
    /** Inches of sizes other than 4x6, 5x7 and 8x10, for print files (docs/contract.md, "Fulfilment"). */
    printSizes: PrintSizesSetting.optional(),
    /** The photographer's metadata (docs/contract.md, "The photographer's metadata"). */
    showRejected: z.boolean().optional(),
    minRating: z.number().int().min(0).max(5).optional(),
    featuredRating: z.number().int().min(1).max(5).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.defaultSize !== undefined) {
      const sizes = Object.keys(v.prices ?? DEFAULT_PRICES_CENTS);
      if (!sizes.includes(v.defaultSize)) {
        ctx.addIssue({
          code: 'custom',
          path: ['defaultSize'],
          message: `must be one of the listed sizes (${sizes.join(', ')})`,
        });
      }
    }
    for (const p of packageProblems(v.packages ?? [], v.prices ?? DEFAULT_PRICES_CENTS)) {
      ctx.addIssue({ code: 'custom', path: ['packages', p.index], message: p.message });
    }
  });

export type EventJsonT = z.infer<typeof EventJson>;

/** Letters and digits of the folder name, upper-cased, at most 8 ("Anime Expo 2026" → "ANIMEEXP"). */
export function derivePrefix(folderName: string): string {
  const letters = folderName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 8);
  return letters || 'EVENT';
}

/**
 * The event's defaults: event.json's values where given, derived ones elsewhere (`derivedDate`:
 * the first capture date of the photos). A folder without a valid event.json has ordering off,
 * so a folder copied in is not on sale at default prices before an admin opens it.
 */
export function resolveEventDefaults(
  code: string,
  json: EventJsonT | undefined,
  derivedDate: string | null,
  file: 'absent' | 'valid' | 'invalid' = json ? 'valid' : 'absent',
): EventDefaults & { eventJson: 'absent' | 'valid' | 'invalid' } {
  const prices = json?.prices ?? { ...DEFAULT_PRICES_CENTS };
  return {
    code,
    name: json?.name ?? code,
    date: json?.date ?? derivedDate,
    prefix: json?.prefix ?? derivePrefix(code),
    prices,
    defaultSize: json?.defaultSize ?? Object.keys(prices)[0] ?? '4x6',
    shippingFeeCents: json?.shippingFee ?? DEFAULT_SHIPPING_FEE_CENTS,
    packages: json?.packages ?? [],
    earlyBird: json?.earlyBird ?? null,
    isArchived: json?.isArchived ?? false,
    orderingEnabled: json?.orderingEnabled ?? file === 'valid',
    deadline: json?.deadline ?? null,
    printSizes: json?.printSizes ?? {},
    showRejected: json?.showRejected ?? false,
    minRating: json?.minRating ?? 0,
    featuredRating: json?.featuredRating ?? DEFAULT_FEATURED_RATING,
    eventJson: file,
  };
}

export type ParsedEventJson = { ok: true; value: EventJsonT | undefined } | { ok: false; problems: string[] };

/** Parses event.json text; `undefined` text means the file is absent (not an error). */
export function parseEventJson(text: string | undefined): ParsedEventJson {
  if (text === undefined) return { ok: true, value: undefined };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`not valid JSON: ${(err as Error).message}`] };
  }
  const parsed = EventJson.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
    };
  }
  return { ok: true, value: parsed.data };
}
