/**
 * Event configuration shapes (docs/contract.md, "Events"). Money is in dollars here, as in
 * event.json (integer cents inside the service).
 */
import { z } from 'zod';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { EarlyBird, MAX_PACKAGE_COUNT, MAX_PACKAGES, Package, packageProblems } from '../../domain/offers.js';
import { closedReason } from '../../domain/pricing.js';
import { printInches, sizeKey } from '../../domain/prints.js';
import { Dollars } from '../../schemas/dollars.js';
import type { EffectiveEvent } from '../../services/events/catalog.js';
import { EventSettings } from '../../services/store/ports/event-settings.js';

const MAX_SIZES = 20;

const EventSlug = z.string().min(1).max(200).describe('Event code (the event folder name), case-sensitive');

/**
 * A print size as it appears in the items text `Photo #12 (4x6) x1`: letters, digits, spaces
 * and `x × . - / "`, never `(`, `)` or `;`, which would break that text.
 */
const SizeName = z
  .string()
  .regex(
    /^[\p{L}\p{N}](?:[\p{L}\p{N} ×./"'-]{0,30}[\p{L}\p{N}×./"'-])?$/u,
    'a size is 1-32 letters, digits, spaces or × . / " \' - (no leading or trailing space)',
  );

const PriceList = z
  .record(SizeName, Dollars)
  .refine((p) => Object.keys(p).length >= 1, 'at least one size')
  .refine((p) => Object.keys(p).length <= MAX_SIZES, `at most ${MAX_SIZES} sizes`)
  .refine(
    (p) => new Set(Object.keys(p).map(sizeKey)).size === Object.keys(p).length,
    'two sizes differ only in case, spaces or ×',
  )
  .describe('size → price in dollars; replaces the whole price list');

export const EventConfigQuery = z.object({ eventSlug: EventSlug });

const PackageBody = z.strictObject({
  size: SizeName.describe('A size of the price list'),
  count: z.number().int().min(2).max(MAX_PACKAGE_COUNT).describe('Copies in one package (2 or more)'),
  price: Dollars.describe('What `count` copies of that size cost together, in dollars'),
});

const PackageList = z
  .array(PackageBody)
  .max(MAX_PACKAGES)
  .describe(
    'Per size, every full `count` copies cost `price`, the rest the unit price; one package per size, each ' +
      'cheaper than its copies at the unit price. Replaces the whole list; `[]` removes every package',
  );

const EarlyBirdBody = z
  .strictObject({
    percent: z.number().int().min(1).max(100).describe('Whole percent off the goods (after packages)'),
    until: z.iso.datetime({ offset: true }).describe('Orders placed before this instant get it (stored in UTC)'),
  })
  .nullable()
  .describe('Not combined with a coupon: the larger discount applies. `null` removes it');

const AutoPrint = EventSettings.shape.autoPrint
  .unwrap()
  .describe(
    '`pickup`: a pickup order’s prints are sent to the first idle printer holding their size as soon as it is ' +
      'marked paid (orders marked paid before this was turned on are not); `off`: printing is started by hand',
  );

const SETTING_KEYS = [
  'isArchived',
  'orderingEnabled',
  'deadline',
  'prices',
  'shippingFee',
  'packages',
  'earlyBird',
  'autoPrint',
  'faceSearch',
  'showRejected',
  'minRating',
  'featuredRating',
] as const;

/** The photographer's metadata settings (docs/contract.md, "The photographer's metadata"). */
const ShowRejected = z
  .boolean()
  .describe('List photos the photographer rejected (xmp:Rating −1) too; default false: they are private');
const MinRating = z
  .number()
  .int()
  .min(0)
  .max(5)
  .describe('List only photos rated at least this many stars (0–5, unrated counts as 0); default 0: all');
const FeaturedRating = z
  .number()
  .int()
  .min(1)
  .max(5)
  .describe('`?featured=1` and the featured row list photos rated at least this (1–5); default 4');

export const EventConfigUpdate = z
  .strictObject({
    eventSlug: EventSlug,
    isArchived: z.boolean().optional(),
    orderingEnabled: z.boolean().optional(),
    deadline: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe('ISO 8601 with an offset (stored in UTC); null removes the deadline'),
    prices: PriceList.optional(),
    shippingFee: Dollars.optional().describe('Shipping fee in dollars for orders that ship'),
    packages: PackageList.optional(),
    earlyBird: EarlyBirdBody.optional(),
    autoPrint: AutoPrint.optional(),
    faceSearch: z
      .boolean()
      .optional()
      .describe('Find me by face for this event: attendees search its photos with a selfie (needs FACE_SEARCH=on)'),
    showRejected: ShowRejected.optional(),
    minRating: MinRating.optional(),
    featuredRating: FeaturedRating.optional(),
  })
  .refine((b) => SETTING_KEYS.some((k) => b[k] !== undefined), {
    message: `name at least one of ${SETTING_KEYS.join(', ')}`,
  })
  .meta({ id: 'EventConfigUpdate' });
export type EventConfigUpdate = z.infer<typeof EventConfigUpdate>;

export const EventConfig = z
  .object({
    eventSlug: z.string(),
    eventName: z.string(),
    eventPrefix: z.string().describe('Order numbers of this event start with it: `<eventPrefix>-0001`'),
    date: z.string().nullable().describe('YYYY-MM-DD, or null when unknown'),
    isArchived: z.boolean(),
    orderingEnabled: z.boolean(),
    deadline: EventSettings.shape.deadline.unwrap().describe('ISO 8601 UTC, or null for no deadline'),
    prices: z.record(z.string(), z.number()).describe('size → price in dollars'),
    defaultSize: z.string().describe('The size used when an order line names none'),
    shippingFee: z.number().describe('Dollars, charged on orders that ship (and hold a print)'),
    packages: z
      .array(Package.pick({ size: true, count: true }).extend({ price: z.number().describe('Dollars') }))
      .describe('Per size, every full `count` copies cost `price` together'),
    earlyBird: EarlyBird.nullable().describe(
      '`percent` off orders placed before `until` (also shown once `until` has passed); null: none',
    ),
    active: z.boolean().describe('Open for orders now: not archived, ordering enabled, deadline (if any) ahead'),
    autoPrint: AutoPrint,
    closedReason: z
      .enum(['archived', 'disabled', 'deadline'])
      .nullable()
      .describe('Why the event is not open for orders; null when it is'),
    printSizes: z
      .record(z.string(), z.tuple([z.number(), z.number()]))
      .describe(
        'size → `[short side, long side]` in inches, for every size on the price list whose print size is known ' +
          '(4x6, 5x7, 8x10, the event\'s `printSizes` setting, or a name such as "11x14"): the aspect of the print, ' +
          'for the crop chooser',
      ),
    faceSearch: z.boolean().describe("The owner's setting: Find me by face on for this event"),
    selfieSearch: z
      .boolean()
      .describe(
        'Find me by face can be used now: the setting is on and the server has face search (FACE_SEARCH=on, ' +
          'face packages installed)',
      ),
    showRejected: ShowRejected,
    minRating: MinRating,
    featuredRating: FeaturedRating,
  })
  .meta({ id: 'EventConfig' });
export type EventConfig = z.infer<typeof EventConfig>;

/** `faceSearchOn`: the server can search by face at all (FACE_SEARCH=on and its packages installed). */
export function toEventConfig(ev: EffectiveEvent, faceSearchOn: boolean, now: Date = new Date()): EventConfig {
  const prices: Record<string, number> = {};
  for (const [size, cents] of Object.entries(ev.prices)) prices[size] = centsToDollars(cents);
  return {
    eventSlug: ev.code,
    eventName: ev.name,
    eventPrefix: ev.prefix,
    date: ev.date,
    isArchived: ev.isArchived,
    orderingEnabled: ev.orderingEnabled,
    deadline: ev.deadline,
    prices,
    defaultSize: ev.defaultSize,
    shippingFee: centsToDollars(ev.shippingFeeCents),
    packages: ev.packages.map((p) => ({ size: p.size, count: p.count, price: centsToDollars(p.priceCents) })),
    earlyBird: ev.earlyBird && { percent: ev.earlyBird.percent, until: ev.earlyBird.until },
    active: ev.open,
    autoPrint: ev.autoPrint,
    closedReason: closedReason(ev, now),
    printSizes: pricedPrintSizes(ev),
    faceSearch: ev.faceSearch,
    selfieSearch: ev.faceSearch && faceSearchOn,
    showRejected: ev.showRejected,
    minRating: ev.minRating,
    featuredRating: ev.featuredRating,
  };
}

/** The inches of every priced size that has known print dimensions. */
function pricedPrintSizes(ev: EffectiveEvent): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const size of Object.keys(ev.prices)) {
    const inches = printInches(size, ev.printSizes);
    if (inches) out[size] = [inches[0], inches[1]];
  }
  return out;
}

/**
 * The store patch for a validated update: dollars → cents, deadline → UTC; turning auto-print
 * on records when, so that only orders marked paid from then on are printed by it.
 */
export function toSettingsPatch(
  body: EventConfigUpdate,
  current: Pick<EffectiveEvent, 'autoPrint'> = { autoPrint: 'off' },
  now = new Date(),
) {
  const turnedOn = body.autoPrint === 'pickup' && current.autoPrint !== 'pickup';
  return {
    autoPrint: body.autoPrint,
    autoPrintSince: turnedOn ? now.toISOString() : undefined,
    isArchived: body.isArchived,
    orderingEnabled: body.orderingEnabled,
    deadline:
      body.deadline === undefined || body.deadline === null ? body.deadline : new Date(body.deadline).toISOString(),
    prices:
      body.prices === undefined
        ? undefined
        : Object.fromEntries(Object.entries(body.prices).map(([size, dollars]) => [size, dollarsToCents(dollars)])),
    shippingFeeCents: body.shippingFee === undefined ? undefined : dollarsToCents(body.shippingFee),
    packages: body.packages?.map((p) => ({ size: p.size, count: p.count, priceCents: dollarsToCents(p.price) })),
    earlyBird:
      body.earlyBird === undefined || body.earlyBird === null
        ? body.earlyBird
        : { percent: body.earlyBird.percent, until: new Date(body.earlyBird.until).toISOString() },
    faceSearch: body.faceSearch,
    showRejected: body.showRejected,
    minRating: body.minRating,
    featuredRating: body.featuredRating,
  };
}

/**
 * What is wrong with the packages once this update applies (400 VALIDATION_FAILED details):
 * the packages in effect (sent, else current) against the price list in effect.
 */
export function settingsProblems(
  patch: ReturnType<typeof toSettingsPatch>,
  current: Pick<EffectiveEvent, 'prices' | 'packages'>,
): { in: string; field: string; message: string }[] {
  return packageProblems(patch.packages ?? current.packages, patch.prices ?? current.prices).map((p) => ({
    in: 'body',
    field: patch.packages === undefined ? 'prices' : `packages.${p.index}`,
    message: patch.packages === undefined ? `the current packages no longer fit: ${p.message}` : p.message,
  }));
}

const ActiveEvent = z.object({
  eventSlug: z.string(),
  eventName: z.string(),
  eventPrefix: z.string(),
  date: z.string().nullable(),
  active: z.boolean().describe('Open for orders now'),
});
export const ActiveEventList = z.array(ActiveEvent).meta({ id: 'ActiveEventList' });

export const EventPrefix = z
  .object({
    eventSlug: z.string(),
    eventPrefix: z.string().describe('The prefix of the event’s order numbers'),
    eventName: z.string(),
  })
  .meta({ id: 'EventPrefix' });

export const RefererHeaders = z.object({
  referer: z
    .string()
    .optional()
    .describe('The gallery page the visitor came from, e.g. `https://gallery.example/event/AX2025/Day%201/...`'),
});
