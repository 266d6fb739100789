/**
 * An optional extension of an adapter whose data other processes also change (PostgreSQL):
 * it reports every committed change, so the read cache of each process can drop what went
 * stale. `coherent` is false while the feed may be missing changes (its connection is down);
 * the cache then reads through until the feed is back and has told it to start afresh.
 */
import type { OrderStore } from './port.js';

export type StoreChange =
  /** An order was created or changed (lists and the summary are stale too). */
  | { kind: 'order'; id: string }
  /** An event's settings changed. */
  | { kind: 'event'; eventSlug: string }
  /** Anything may have changed (the feed reconnected): drop everything. */
  | { kind: 'all' };

export interface ChangeFeed {
  readonly coherent: boolean;
  /** Returns the unsubscribe function. */
  subscribe(listener: (change: StoreChange) => void): () => void;
}

export type StoreWithChangeFeed = OrderStore & { readonly changes: ChangeFeed };

export function hasChangeFeed(store: OrderStore): store is StoreWithChangeFeed {
  return typeof (store as Partial<StoreWithChangeFeed>).changes?.subscribe === 'function';
}
