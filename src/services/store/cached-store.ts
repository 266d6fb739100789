/**
 * The 30-second read cache (SPEC §10) in front of any adapter: `getOrder`, `listOrders`,
 * `summary` and the event settings are served from memory for `ttlMs`.
 *
 * - Writes made through this wrapper refresh it at once (write-through for the order
 *   written, lists and summary dropped), so a caller never reads its own write stale.
 * - A read that was already running when a write finished never fills the cache with what
 *   it saw (generation counter), and identical concurrent reads share one backend call —
 *   unless a write finished in between.
 * - Adapters with a change feed (PostgreSQL: LISTEN/NOTIFY) report changes committed by
 *   other processes; those entries are dropped when the notice arrives. While the feed is
 *   down the cache reads through, and it starts empty when the feed comes back.
 * - Cached records are deep-frozen: one object serves many requests, so nobody may mutate it.
 *   Lists are fresh arrays (of frozen records).
 * - Idempotency keys, push subscriptions and the mail outbox are never cached.
 */
import type { OrderRecord, SalesSummaryCents } from '../../domain/order.js';
import { type ChangeFeed, hasChangeFeed, type StoreChange } from './change-feed.js';
import type { EventSettings, MailJobInput, OrderListQuery, OrderStore, StoreHealth, UpdateResult } from './port.js';

export type CachedStoreOptions = {
  /** How long a read is served from memory; 0 turns the cache off (every read goes through). */
  ttlMs: number;
  /** At most this many cached order lookups (the oldest go first). */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
};

export type CacheStats = { hits: number; misses: number; entries: number; coherent: boolean };

export type CachedOrderStore = OrderStore & {
  readonly inner: OrderStore;
  stats(): CacheStats;
  /** Drops everything (tests, admin tools). */
  clear(): void;
};

/** A map whose entries expire; when full, the oldest insertion goes first. */
class TtlMap<V> {
  private readonly map = new Map<string, { value: V; expiresAt: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, { value, expiresAt: this.now() + this.ttlMs });
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const refKey = (ref: string) => ref.trim().toLowerCase();

export function createCachedStore(inner: OrderStore, options: CachedStoreOptions): CachedOrderStore {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs;
  const max = options.maxEntries ?? 50_000;
  /** Lookup key (lower-cased id or order number) → the order, or null for "no such order". */
  const orders = new TtlMap<{ order: OrderRecord | null }>(ttl, max, now);
  /** Lower-cased id → lower-cased order number, to drop both keys of an order. */
  const numberOf = new Map<string, string>();
  const negatives = new Set<string>();
  const lists = new TtlMap<OrderRecord[]>(ttl, 1000, now);
  const summaries = new TtlMap<SalesSummaryCents>(ttl, 1000, now);
  const settings = new TtlMap<EventSettings | null>(ttl, 10_000, now);
  const settingsList = new TtlMap<EventSettings[]>(ttl, 1, now);
  /** Bumped whenever orders (or settings) may have changed: reads started before don't fill the cache. */
  let orderGen = 0;
  let settingsGen = 0;
  const inflight = new Map<string, { gen: number; promise: Promise<unknown> }>();
  let hits = 0;
  let misses = 0;

  const feed: ChangeFeed | undefined = hasChangeFeed(inner) ? inner.changes : undefined;
  const enabled = () => ttl > 0 && (feed?.coherent ?? true);

  function putOrder(order: OrderRecord): OrderRecord {
    if (numberOf.size >= max) {
      // numberOf only grows; past the cache size, start over rather than keep it forever
      orders.clear();
      numberOf.clear();
    }
    const frozen = deepFreeze(order);
    const idKey = refKey(order.id);
    const noKey = refKey(order.orderNumber);
    orders.set(idKey, { order: frozen });
    orders.set(noKey, { order: frozen });
    numberOf.set(idKey, noKey);
    negatives.delete(idKey);
    negatives.delete(noKey);
    return frozen;
  }

  function dropOrder(id: string): void {
    const idKey = refKey(id);
    orders.delete(idKey);
    const noKey = numberOf.get(idKey);
    if (noKey) orders.delete(noKey);
  }

  /** Lists, the summary and "no such order" answers go stale with any order change. */
  function ordersChanged(): void {
    orderGen++;
    lists.clear();
    summaries.clear();
    for (const k of negatives) orders.delete(k);
    negatives.clear();
  }

  function settingsChanged(): void {
    settingsGen++;
    settingsList.clear();
  }

  function clearAll(): void {
    ordersChanged();
    settingsChanged();
    orders.clear();
    numberOf.clear();
    settings.clear();
  }

  const unsubscribe = feed?.subscribe((change: StoreChange) => {
    if (change.kind === 'order') {
      dropOrder(change.id);
      ordersChanged();
    } else if (change.kind === 'event') {
      settings.delete(change.eventSlug);
      settingsChanged();
    } else {
      clearAll();
    }
  });

  /**
   * Serves `key` from `map`, else loads it once (shared by concurrent callers of the same
   * generation) and lets `fill` cache it only if nothing changed meanwhile.
   */
  async function cached<V>(
    ns: string,
    map: TtlMap<V>,
    key: string,
    gen: () => number,
    load: () => Promise<V>,
    fill: (v: V) => V,
  ): Promise<V> {
    if (!enabled()) return load();
    const hit = map.get(key);
    if (hit !== undefined) {
      hits++;
      return hit;
    }
    misses++;
    const flightKey = `${ns}\u0000${key}`;
    const started = gen();
    const running = inflight.get(flightKey);
    if (running && running.gen === started) return running.promise as Promise<V>;
    const promise = load().then((value) => (gen() === started && enabled() ? fill(value) : value));
    inflight.set(flightKey, { gen: started, promise });
    const done = () => {
      if (inflight.get(flightKey)?.promise === promise) inflight.delete(flightKey);
    };
    promise.then(done, done);
    return promise;
  }
  const getOrderGen = () => orderGen;
  const getSettingsGen = () => settingsGen;

  /** Runs a write; afterwards the cache holds its result (or forgets the order if it failed). */
  async function writeOrder(ref: string, run: () => Promise<OrderRecord>): Promise<OrderRecord> {
    return (await writeUpdate(ref, async () => ({ order: await run(), changed: true }))).order;
  }

  async function writeUpdate(ref: string, run: () => Promise<UpdateResult>): Promise<UpdateResult> {
    try {
      const result = await run();
      ordersChanged();
      return { order: putOrder(result.order), changed: result.changed };
    } catch (err) {
      orders.delete(refKey(ref));
      ordersChanged();
      throw err;
    }
  }

  const store: CachedOrderStore = {
    inner,
    kind: inner.kind,

    stats: () => ({ hits, misses, entries: orders.size, coherent: feed?.coherent ?? true }),
    clear: clearAll,

    init: () => inner.init(),
    async close() {
      unsubscribe?.();
      clearAll();
      await inner.close();
    },
    async health(): Promise<StoreHealth> {
      const h = await inner.health();
      return {
        ...h,
        details: { ...h.details, cache: { ttlMs: ttl, entries: orders.size, coherent: feed?.coherent ?? true } },
      };
    },

    // ------------------------------------------------------------ orders

    createOrder(input, opts?: { mail?: MailJobInput[] }) {
      return writeOrder('', () => inner.createOrder(input, opts));
    },

    async getOrder(ref) {
      const key = refKey(ref);
      const hit = await cached(
        'order',
        orders,
        key,
        getOrderGen,
        async () => ({ order: await inner.getOrder(ref) }),
        (v) => {
          if (v.order) return { order: putOrder(v.order) };
          orders.set(key, v);
          negatives.add(key);
          return v;
        },
      );
      return hit.order;
    },

    async listOrders(query: OrderListQuery = {}) {
      const key = JSON.stringify([
        query.statuses ? [...query.statuses].sort() : null,
        query.eventSlug ?? null,
        !!query.includeHeld,
      ]);
      const list = await cached(
        'list',
        lists,
        key,
        getOrderGen,
        () => inner.listOrders(query),
        (v) => {
          const frozen = v.map((o) => deepFreeze(o));
          lists.set(key, frozen);
          return frozen;
        },
      );
      return list.slice();
    },

    updateOrder(ref, patch, opts) {
      return writeUpdate(ref, () => inner.updateOrder(ref, patch, opts));
    },
    setShipping(ref, patch, opts) {
      return writeUpdate(ref, () => inner.setShipping(ref, patch, opts));
    },
    appendFeedback(ref, text, at) {
      return writeOrder(ref, () => inner.appendFeedback(ref, text, at));
    },
    releaseHold(ref, opts) {
      return writeUpdate(ref, () => inner.releaseHold(ref, opts));
    },

    async expireHolds(at) {
      try {
        const expired = await inner.expireHolds(at);
        if (expired.length > 0) ordersChanged();
        return expired.map(putOrder);
      } catch (err) {
        ordersChanged();
        throw err;
      }
    },

    async summary(query = {}) {
      const key = query.eventSlug ?? '\u0000all';
      const s = await cached(
        'summary',
        summaries,
        key,
        getOrderGen,
        () => inner.summary(query),
        (v) => {
          summaries.set(key, Object.freeze(v));
          return v;
        },
      );
      return { ...s };
    },

    // ------------------------------------------------------------ event settings

    getEventSettings(eventSlug) {
      return cached(
        'settings',
        settings,
        eventSlug,
        getSettingsGen,
        () => inner.getEventSettings(eventSlug),
        (v) => {
          const frozen = deepFreeze(v);
          settings.set(eventSlug, frozen);
          return frozen;
        },
      );
    },

    async listEventSettings() {
      const list = await cached(
        'settingsList',
        settingsList,
        'all',
        getSettingsGen,
        () => inner.listEventSettings(),
        (v) => {
          const frozen = v.map((e) => deepFreeze(e));
          settingsList.set('all', frozen);
          return frozen;
        },
      );
      return list.slice();
    },

    async putEventSettings(eventSlug, patch) {
      try {
        const saved = deepFreeze(await inner.putEventSettings(eventSlug, patch));
        settingsChanged();
        settings.set(eventSlug, saved);
        return saved;
      } catch (err) {
        settings.delete(eventSlug);
        settingsChanged();
        throw err;
      }
    },

    // ------------------------------------------------------------ never cached

    savePushSubscription: (sub) => inner.savePushSubscription(sub),
    listPushSubscriptions: (query) => inner.listPushSubscriptions(query),
    deletePushSubscription: (endpoint) => inner.deletePushSubscription(endpoint),
    reserveIdempotencyKey: (rec) => inner.reserveIdempotencyKey(rec),
    completeIdempotencyKey: (key, code, body) => inner.completeIdempotencyKey(key, code, body),
    releaseIdempotencyKey: (key) => inner.releaseIdempotencyKey(key),
    enqueueMail: (jobs) => inner.enqueueMail(jobs),
    claimDueMail: (at, limit, leaseMs) => inner.claimDueMail(at, limit, leaseMs),
    markMailSent: (id, via, at) => inner.markMailSent(id, via, at),
    markMailFailed: (id, error, next) => inner.markMailFailed(id, error, next),
    pendingMailCount: () => inner.pendingMailCount(),
  };
  return store;
}
