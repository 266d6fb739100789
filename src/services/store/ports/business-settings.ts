/**
 * The business settings port: what the photographer saved in the dashboard about their
 * business (docs/contract.md, "Business settings"). Each key is absent until saved; the
 * environment's value is the default for an absent key (src/services/business-settings).
 */
import { z } from 'zod';

export const BUSINESS_KEYS = [
  'businessName',
  'returnAddress',
  'publicBaseUrl',
  'paymentInstructions',
  'mailFrom',
] as const;
export type BusinessKey = (typeof BUSINESS_KEYS)[number];

/** What is stored: the saved keys only, with when and by whom they were last changed. */
export const SavedBusinessSettings = z.object({
  businessName: z.string().optional(),
  returnAddress: z.string().optional(),
  publicBaseUrl: z.string().optional(),
  paymentInstructions: z.string().optional(),
  mailFrom: z.string().optional(),
  updatedAt: z.iso.datetime({ offset: true }),
  updatedBy: z.string(),
});
export type SavedBusinessSettings = z.infer<typeof SavedBusinessSettings>;

/** The one row (`id` 1): what is saved, kept as one JSON document. */
export const BusinessSettingsRow = SavedBusinessSettings.pick({ updatedAt: true }).extend({
  settings: SavedBusinessSettings,
});

/** A change: a string saves the key, null forgets it (the environment's value applies again). */
export type BusinessSettingsPatch = Partial<Record<BusinessKey, string | null>>;

export interface BusinessSettingsPort {
  /** What is saved; null when nothing ever was. */
  get(): Promise<SavedBusinessSettings | null>;
  /** Merges the patch into what is saved, atomically (concurrent patches of other keys all land); returns the result. */
  put(patch: BusinessSettingsPatch, by: string): Promise<SavedBusinessSettings>;
}
