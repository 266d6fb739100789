/**
 * The body of `GET /api/proxy-events`, serialised once and reused until the library, the
 * overrides or the next deadline change it. `events.list()` still runs on every request: it is
 * what refreshes the catalog's view of the overrides (and so its generation).
 */
import type { EffectiveEvent, EventCatalog } from '../../services/events/catalog.js';
import type { PhotoLibrary } from '../../services/photos/types.js';
import { ActiveEventList } from './schemas.js';

export type ActiveListSource = {
  events: Pick<EventCatalog, 'list' | 'generation'>;
  photos: Pick<PhotoLibrary, 'generation'>;
  now?: () => number;
};

export function createActiveEventList(src: ActiveListSource): { bytes(): Promise<Buffer> } {
  const now = src.now ?? Date.now;
  let cached: { key: string; validUntil: number; bytes: Buffer } | undefined;

  /**
   * When the first open event reaches its deadline; Infinity when none will. (A deadline that
   * passed since `list()` looked gives a time already gone: that body is never reused.)
   */
  function nextFlip(list: readonly EffectiveEvent[]): number {
    let until = Number.POSITIVE_INFINITY;
    for (const ev of list) {
      if (!ev.open || ev.deadline === null) continue;
      until = Math.min(until, Date.parse(ev.deadline));
    }
    return until;
  }

  return {
    async bytes() {
      const list = await src.events.list();
      const at = now();
      const key = `${src.photos.generation}:${src.events.generation}`;
      if (cached && cached.key === key && at < cached.validUntil) return cached.bytes;
      const body = ActiveEventList.parse(
        list.map((ev) => ({
          eventSlug: ev.code,
          eventName: ev.name,
          eventPrefix: ev.prefix,
          date: ev.date,
          active: ev.open,
        })),
      );
      cached = { key, validUntil: nextFlip(list), bytes: Buffer.from(JSON.stringify(body)) };
      return cached.bytes;
    },
  };
}
