/**
 * A snapshot of the event settings (event.json and the admin's overrides) for pages.ts, which
 * reads them synchronously. It asks the catalog again only when something may have changed
 * (its generation, the library, or a second passed: how another instance's changes arrive),
 * so the hot path pays three comparisons. When the store can't be read the gallery keeps the
 * last settings it knew: browsing photos never depends on the order store.
 */
import type { EventCatalog } from '../../services/events/catalog.js';
import type { PhotoLibrary } from '../../services/photos/types.js';
import type { EventSettingsSource } from './pages.js';

const RECHECK_MS = 1000;

export type CatalogSettings = EventSettingsSource & {
  /** Cheap synchronous check: whether `refresh()` has anything to do. */
  needsRefresh(): boolean;
  refresh(): Promise<void>;
};

export function catalogSettings(
  events: Pick<EventCatalog, 'list' | 'generation'>,
  library: Pick<PhotoLibrary, 'generation'>,
  opts: { onError?: (err: unknown) => void; now?: () => number } = {},
): CatalogSettings {
  const now = opts.now ?? Date.now;
  type Settings = ReturnType<EventSettingsSource['settingsOf']>;
  let byCode = new Map<string, Settings>();
  let seen = { events: -1, library: -1, at: Number.NEGATIVE_INFINITY };
  /** After a failed read, no new attempt before this time (the store is not hammered). */
  let retryAt = Number.NEGATIVE_INFINITY;

  function needsRefresh(): boolean {
    const at = now();
    if (at < retryAt) return false;
    return !(events.generation === seen.events && library.generation === seen.library && at - seen.at < RECHECK_MS);
  }

  return {
    /** The generation the snapshot was taken at (never a newer one): cache keys match what settingsOf says. */
    get generation() {
      return seen.events;
    },
    settingsOf: (event) => byCode.get(event.code) ?? event,
    needsRefresh,
    async refresh() {
      if (!needsRefresh()) return;
      const at = now();
      let list: Awaited<ReturnType<typeof events.list>>;
      try {
        list = await events.list();
      } catch (err) {
        // The store keeping the overrides is unreachable: the gallery goes on with what it
        // knew (event.json defaults at worst) and asks again in a second.
        retryAt = at + RECHECK_MS;
        opts.onError?.(err);
        return;
      }
      byCode = new Map(
        list.map((e) => [
          e.code,
          {
            isArchived: e.isArchived,
            orderingEnabled: e.orderingEnabled,
            deadline: e.deadline,
            featuredRating: e.featuredRating,
          },
        ]),
      );
      seen = { events: events.generation, library: library.generation, at };
    },
  };
}
