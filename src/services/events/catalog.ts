/**
 * The effective configuration of every event: the photo library's event.json defaults
 * with the admin's overrides from the order store on top (docs/contract.md, "Events"). Gallery and ordering
 * routes read events through this, so a change made with PUT /api/event-config applies
 * everywhere without a restart.
 */

import { isOpenForOrders } from '../../domain/pricing.js';
import type { EventDefaults, LibraryEvent, ListingRules, PhotoLibrary } from '../photos/types.js';
import type { EventSettings, EventSettingsPatch, EventSettingsPort } from '../store/ports/event-settings.js';

export type EffectiveEvent = EventDefaults & {
  photoCount: number;
  /** Auto-print (docs/contract.md, "Printing at the booth"): a setting of the record only. */
  autoPrint: 'off' | 'pickup';
  autoPrintSince: string | null;
  /** Open for orders now (`active`, docs/contract.md, "Events"). */
  open: boolean;
  /** The owner's setting: selfie search on for this event (docs/contract.md, "Find me by face"). */
  faceSearch: boolean;
};

export interface EventCatalog {
  /** Every event of the library, in the library's order, with overrides applied. */
  list(): Promise<EffectiveEvent[]>;
  get(code: string): Promise<EffectiveEvent | undefined>;
  /** Persists admin overrides in the store; returns the new effective event. */
  update(code: string, patch: EventSettingsPatch): Promise<EffectiveEvent>;
  /** Changes whenever the overrides (not the library) change: page caches key on it. */
  readonly generation: number;
  /**
   * Calls `listener` after each `update` of this process, with the event and the patch (services
   * that act on a setting, such as face indexing, start at once instead of at their next look).
   * Returns the function that unsubscribes.
   */
  onUpdate(listener: (code: string, patch: EventSettingsPatch) => void): () => void;
}

/** The overrides of the library's listing rules (rejects, minimum rating) among the settings. */
function listingOverrides(list: readonly EventSettings[]): Map<string, Partial<ListingRules>> {
  const out = new Map<string, Partial<ListingRules>>();
  for (const s of list) {
    const rules: Partial<ListingRules> = {};
    if (s.showRejected !== undefined) rules.showRejected = s.showRejected;
    if (s.minRating !== undefined) rules.minRating = s.minRating;
    if (Object.keys(rules).length > 0) out.set(s.eventSlug, rules);
  }
  return out;
}

/** How long a snapshot of the overrides is trusted before the store is asked again. */
const REFRESH_MS = 1000;

function applySettings(ev: LibraryEvent, s: EventSettings | undefined, now = new Date()): EffectiveEvent {
  // One literal, no `{ ...merged, photoCount, open }`: on Node 20 a spread followed by more
  // properties costs about 1 µs per property, and every order reads its event through here.
  const effective: EffectiveEvent = {
    code: ev.code,
    name: ev.name,
    date: ev.date,
    prefix: ev.prefix,
    prices: s?.prices ?? ev.prices,
    defaultSize: ev.defaultSize,
    shippingFeeCents: s?.shippingFeeCents ?? ev.shippingFeeCents,
    packages: s?.packages ?? ev.packages,
    earlyBird: s?.earlyBird === undefined ? ev.earlyBird : s.earlyBird,
    isArchived: s?.isArchived ?? ev.isArchived,
    orderingEnabled: s?.orderingEnabled ?? ev.orderingEnabled,
    deadline: s?.deadline === undefined ? ev.deadline : s.deadline,
    printSizes: ev.printSizes,
    showRejected: s?.showRejected ?? ev.showRejected,
    minRating: s?.minRating ?? ev.minRating,
    featuredRating: s?.featuredRating ?? ev.featuredRating,
    photoCount: ev.photoCount,
    autoPrint: s?.autoPrint ?? 'off',
    autoPrintSince: s?.autoPrintSince ?? null,
    open: false,
    faceSearch: s?.faceSearch ?? false,
  };
  // A default size the admin removed from the price list falls back to the first listed size.
  if (!(effective.defaultSize in effective.prices)) {
    effective.defaultSize = Object.keys(effective.prices)[0] ?? effective.defaultSize;
  }
  effective.open = isOpenForOrders(effective, now);
  return effective;
}

export function createEventCatalog(photos: PhotoLibrary, store: EventSettingsPort): EventCatalog {
  let settings = new Map<string, EventSettings>();
  let fingerprint = '';
  let fetchedAt = 0;
  let generation = 0;
  let inflight: Promise<void> | undefined;
  const listeners = new Set<(code: string, patch: EventSettingsPatch) => void>();

  function adopt(list: EventSettings[]): Promise<void> {
    const next = list
      .map((s) => `${s.eventSlug}@${s.updatedAt}`)
      .sort()
      .join('|');
    if (next !== fingerprint) {
      fingerprint = next;
      generation++;
    }
    settings = new Map(list.map((s) => [s.eventSlug, s]));
    fetchedAt = Date.now();
    return photos.setListingOverrides(listingOverrides(list));
  }

  async function fresh(): Promise<Map<string, EventSettings>> {
    if (Date.now() - fetchedAt > REFRESH_MS) {
      inflight ??= store
        .list()
        .then((list) => void adopt(list))
        .finally(() => {
          inflight = undefined;
        });
      await inflight;
    }
    return settings;
  }

  return {
    get generation() {
      return generation;
    },
    async list() {
      const s = await fresh();
      const now = new Date();
      return photos.listEvents().map((ev) => applySettings(ev, s.get(ev.code), now));
    },
    async get(code) {
      const ev = photos.getEvent(code);
      if (!ev) return undefined;
      return applySettings(ev, (await fresh()).get(ev.code));
    },
    async update(code, patch) {
      const ev = photos.getEvent(code);
      if (!ev) throw new Error(`unknown event ${code}`);
      const saved = await store.put(ev.code, patch);
      // The gallery follows a change of the listing rules before the admin is answered.
      await adopt([...settings.values()].filter((s) => s.eventSlug !== ev.code).concat(saved));
      for (const listener of listeners) listener(ev.code, patch);
      return applySettings(ev, saved);
    },
    onUpdate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
