/**
 * The effective business settings (docs/contract.md, "Business settings"): the environment's
 * values with what the owner saved in the dashboard on top, read through the record like the
 * event settings (src/services/events/catalog.ts): a snapshot is trusted for REFRESH_MS, so a
 * save made through any server process applies in every other within a second.
 */
import { type BusinessSettings, type BusinessWarning, businessWarnings } from '../../domain/business.js';
import {
  BUSINESS_KEYS,
  type BusinessKey,
  type BusinessSettingsPatch,
  type BusinessSettingsPort,
  type SavedBusinessSettings,
} from '../store/ports/business-settings.js';

/** How long a snapshot of the saved settings is trusted before the record is asked again. */
const REFRESH_MS = 1000;

/** What the dashboard shows: the values in effect, which were saved, the defaults, and what is wrong. */
export type BusinessSettingsView = BusinessSettings & {
  saved: BusinessKey[];
  defaults: BusinessSettings;
  warnings: BusinessWarning[];
  updatedAt: string | null;
  updatedBy: string | null;
};

export interface BusinessSettingsService {
  /** The settings in effect now (at most REFRESH_MS behind a save made by another process). */
  get(): Promise<BusinessSettings>;
  /**
   * The settings as last read, for code that can't wait (a link built while a mail is
   * rendered, which awaited `get()` first). A stale snapshot starts a refresh in the background.
   */
  current(): BusinessSettings;
  view(): Promise<BusinessSettingsView>;
  /** Saves (a string) or forgets (null) keys; in effect at once here, within REFRESH_MS elsewhere. */
  update(patch: BusinessSettingsPatch, by: string): Promise<BusinessSettingsView>;
}

function effective(defaults: BusinessSettings, saved: SavedBusinessSettings | null): BusinessSettings {
  const out = { ...defaults };
  for (const key of BUSINESS_KEYS) {
    const value = saved?.[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function createBusinessSettings(
  port: BusinessSettingsPort,
  defaults: BusinessSettings,
  onError: (err: unknown) => void,
): BusinessSettingsService {
  let saved: SavedBusinessSettings | null = null;
  let settings = { ...defaults };
  let fetchedAt = 0;
  let inflight: Promise<void> | undefined;

  const adopt = (next: SavedBusinessSettings | null) => {
    saved = next;
    settings = effective(defaults, next);
    fetchedAt = Date.now();
  };

  function refresh(): Promise<void> {
    inflight ??= port
      .get()
      .then(adopt)
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  }

  async function fresh(): Promise<BusinessSettings> {
    if (Date.now() - fetchedAt > REFRESH_MS) await refresh();
    return settings;
  }

  const view = (): BusinessSettingsView => ({
    ...settings,
    saved: BUSINESS_KEYS.filter((k) => saved?.[k] !== undefined),
    defaults: { ...defaults },
    warnings: businessWarnings(settings),
    updatedAt: saved?.updatedAt ?? null,
    updatedBy: saved?.updatedBy ?? null,
  });

  return {
    get: fresh,
    current() {
      if (Date.now() - fetchedAt > REFRESH_MS) refresh().catch(onError);
      return settings;
    },
    async view() {
      await fresh();
      return view();
    },
    async update(patch, by) {
      adopt(await port.put(patch, by));
      return view();
    },
  };
}
