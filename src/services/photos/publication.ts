/**
 * What the photo library publishes: the list of events (newest first) taken from each event's
 * view, the generation that counts the changes, the listeners told of each, and the photos of
 * each photo code across events (built on first use after each change).
 */
import type { Logger } from '../../lib/logger.js';
import { compareNames } from './naming.js';
import type { EventState } from './photo-index.js';
import type { LibraryEvent, Photo } from './types.js';

export class Publication {
  events: readonly LibraryEvent[] = Object.freeze([]);
  generation = 0;
  private readonly listeners = new Set<() => void>();
  /** code → photos across events; undefined until asked after a change. */
  private byCode: Map<string, readonly Photo[]> | undefined;

  constructor(
    private readonly states: ReadonlyMap<string, EventState>,
    private readonly log: Logger,
  ) {}

  /** Publishes the events' current views and tells the listeners. */
  publish(): void {
    const list = [...this.states.values()].flatMap((s) => (s.view ? [s.view.event] : []));
    list.sort((a, b) => compareDatesDesc(a.date, b.date) || compareNames(a.code, b.code));
    this.events = Object.freeze(list);
    this.byCode = undefined;
    this.generation++;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error({ err }, 'photo library change listener failed');
      }
    }
  }

  photosForCode(code: string): readonly Photo[] | undefined {
    if (!this.byCode) {
      const map = new Map<string, Photo[]>();
      for (const event of this.events) {
        for (const [code, photos] of this.states.get(event.code)?.view?.codes ?? []) {
          const list = map.get(code);
          if (list) list.push(...photos);
          else map.set(code, [...photos]);
        }
      }
      this.byCode = map;
    }
    return this.byCode.get(code);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
  }
}

/** Newest first; events without a date last. */
function compareDatesDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
