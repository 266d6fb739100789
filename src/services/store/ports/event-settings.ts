/** The event settings port: admin overrides of an event's event.json defaults (docs/contract.md, "Events"). */
import { z } from 'zod';
import { EarlyBird, Package } from '../../../domain/offers.js';

/** Absent keys: the library's default applies. */
export const EventSettings = z.object({
  eventSlug: z.string().min(1),
  isArchived: z.boolean().optional(),
  orderingEnabled: z.boolean().optional(),
  /** ISO 8601 UTC; null clears a default deadline. */
  deadline: z.iso.datetime({ offset: true }).nullable().optional(),
  /** size → price in cents. Replaces the whole default price list when present. */
  prices: z.record(z.string(), z.number().int().min(0)).optional(),
  shippingFeeCents: z.number().int().min(0).optional(),
  /** Replaces the whole default package list when present; [] removes every package. */
  packages: z.array(Package).optional(),
  /** null removes a default early bird. */
  earlyBird: EarlyBird.nullable().optional(),
  /** `pickup`: a pickup order's prints go to the printer when it is marked paid (docs/contract.md, "Printing at the booth"). */
  autoPrint: z.enum(['off', 'pickup']).optional(),
  /** When auto-print was last turned on: orders marked paid before it are not sent. */
  autoPrintSince: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Find me by face (docs/contract.md, "Find me by face"); absent: off. */
  faceSearch: z.boolean().optional(),
  /** The photographer's metadata (docs/contract.md, "The photographer's metadata"). */
  showRejected: z.boolean().optional(),
  minRating: z.number().int().min(0).max(5).optional(),
  featuredRating: z.number().int().min(1).max(5).optional(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type EventSettings = z.infer<typeof EventSettings>;
/** An event's row: its settings kept as one JSON document. */
export const EventSettingsRow = EventSettings.pick({ eventSlug: true, updatedAt: true }).extend({
  settings: EventSettings,
});

export type EventSettingsPatch = Omit<Partial<EventSettings>, 'eventSlug' | 'updatedAt'>;

export interface EventSettingsPort {
  get(eventSlug: string): Promise<EventSettings | null>;
  list(): Promise<EventSettings[]>;
  /** Merges the patch's defined keys into what is stored (null clears the deadline); returns the result. */
  put(eventSlug: string, patch: EventSettingsPatch): Promise<EventSettings>;
}
