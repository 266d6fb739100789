/**
 * The 30-second read cache (SPEC §10) in front of any adapter: `getOrder`, `listOrders`,
 * `summary` and the event settings are served from memory for `ttlMs`.
 *
 * - Past `ttlMs` an entry is stale, not gone (stale-while-revalidate): the next read still
 *   gets it at once and starts a refresh in the background (one per entry at a time); the
 *   refresh replaces the entry when it is done. A refresh that fails keeps the stale entry
 *   (and is logged). A stale entry is served for at most `staleMs` more (default: `ttlMs`),
 *   so nothing older than `ttlMs + staleMs` is ever served; past that a read waits for the
 *   backend. (A list of 10,000 orders takes hundreds of milliseconds to read and parse: no
 *   request should wait for that because a timer ran out.)
 * - Writes made through this wrapper refresh it at once (write-through for the order
 *   written, lists and summary dropped), so a caller never reads its own write stale.
 * - A read that was already running when a write finished never fills the cache with what
 *   it saw (generation counter), and identical concurrent reads share one backend call —
 *   unless a write finished in between. Background refreshes are reads like any other.
 * - Adapters with a change feed (PostgreSQL: LISTEN/NOTIFY) report changes committed by
 *   other processes; those entries are dropped (not made stale) when the notice arrives, so
 *   the next read waits for the new data. While the feed is down the cache reads through,
 *   and it starts empty when the feed comes back.
 * - Cached records are frozen (with their lines): one object serves many requests, so nobody
 *   may mutate it. A record that comes back from the backend unchanged is answered with the
 *   object already handed out, so a reloaded list holds the same objects as before (and
 *   whatever was derived from them, like the admin list's JSON, can be reused).
 *   Lists are fresh arrays (of frozen records).
 * - The admin push subscriptions (read for every new order, to tell the admins) are cached
 *   like the settings and dropped by any subscription saved or deleted through this wrapper.
 *   Other processes' subscription changes are seen when the entry expires (no change feed
 *   for them): an admin who subscribes on one instance may miss, for up to `ttlMs` +
 *   `staleMs`, the pushes about orders another instance takes. Per-order subscriptions, idempotency keys
 *   and the mail outbox are never cached.
 */
import { LRUCache } from 'lru-cache';
import type { OrderRecord, SalesSummaryCents } from '../../domain/order.js';
import { type ChangeFeed, hasChangeFeed, type StoreChange } from './change-feed.js';
import { type StoreLogger, silentLogger } from './logger.js';
import type {
  EventSettings,
  MailJobInput,
  OrderListQuery,
  OrderStore,
  PushSubscriptionRecord,
  StoreHealth,
  UpdateResult,
} from './port.js';

export type CachedStoreOptions = {
  /** How long a read is served from memory; 0 turns the cache off (every read goes through). */
  ttlMs: number;
  /** How long past `ttlMs` an entry is still served while a background refresh replaces it (default `ttlMs`). */
  staleMs?: number;
  /** At most this many cached order lookups (the least recently used go first). */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Where failed background refreshes are reported. */
  log?: StoreLogger;
};

export type CacheStats = {
  hits: number;
  misses: number;
  /** Hits on stale entries (each started or found a background refresh). */
  staleHits: number;
  /** Background refreshes started, those that failed, and those under way. */
  refreshes: number;
  refreshErrors: number;
  refreshing: number;
  entries: number;
  coherent: boolean;
};

export type CachedOrderStore = OrderStore & {
  readonly inner: OrderStore;
  stats(): CacheStats;
  /** Drops everything (tests, admin tools). */
  clear(): void;
};

type Entry<V> = { value: V; freshUntil: number };

/**
 * A map whose entries go stale after `ttlMs` and away `staleMs` later; when full, the least
 * recently used entry goes first. On lru-cache, whose eviction is O(1): a plain Map evicting
 * its first key (`keys().next()`) has to step over every deleted slot before it, which made a
 * full cache (25,000 orders, two keys each) cost 25–60 µs per order written.
 */
class TtlMap<V> {
  private readonly map: LRUCache<string, Entry<V> & { goneAt: number }>;
  constructor(
    private readonly ttlMs: number,
    private readonly staleMs: number,
    max: number,
    private readonly now: () => number,
  ) {
    this.map = new LRUCache({ max });
  }

  /** The entry, fresh or stale; undefined once it is past its stale window. */
  get(key: string): Entry<V> | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.goneAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  set(key: string, value: V): void {
    const freshUntil = this.now() + this.ttlMs;
    this.map.set(key, { value, freshUntil, goneAt: freshUntil + this.staleMs });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    // lru-cache's clear() refills its arrays to `max` however few entries there are, and
    // lists and summaries are cleared by every order written: skip it when there is nothing.
    if (this.map.size > 0) this.map.clear();
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

/** An order's objects are the record, its lines array and each line: freezing those is deep-freezing it. */
function freezeOrder(order: OrderRecord): OrderRecord {
  for (const line of order.items) Object.freeze(line);
  Object.freeze(order.items);
  return Object.freeze(order);
}

/** Field by field (lines too): both are parsed records, so they have the same keys. */
function sameOrder(a: OrderRecord, b: OrderRecord): boolean {
  for (const key of Object.keys(a) as (keyof OrderRecord)[]) {
    if (a[key] === b[key]) continue;
    if (key !== 'items' || a.items.length !== b.items.length) return false;
    for (let i = 0; i < a.items.length; i++) {
      const x = a.items[i] as OrderRecord['items'][number];
      const y = b.items[i] as OrderRecord['items'][number];
      for (const field of Object.keys(x) as (keyof typeof x)[]) if (x[field] !== y[field]) return false;
    }
  }
  return true;
}

const refKey = (ref: string) => ref.trim().toLowerCase();

export function createCachedStore(inner: OrderStore, options: CachedStoreOptions): CachedOrderStore {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs;
  const staleMs = options.staleMs ?? ttl;
  const max = options.maxEntries ?? 50_000;
  const log = options.log ?? silentLogger;
  const ttlMap = <V>(size: number) => new TtlMap<V>(ttl, staleMs, size, now);
  /** Lookup key (lower-cased id or order number) → the order, or null for "no such order". */
  const orders = ttlMap<{ order: OrderRecord | null }>(max);
  /** Lower-cased id → lower-cased order number, to drop both keys of an order. */
  const numberOf = new Map<string, string>();
  /** Lower-cased id → the frozen record last handed out, answered again while the order is unchanged. */
  const known = new Map<string, OrderRecord>();
  const negatives = new Set<string>();
  const lists = ttlMap<OrderRecord[]>(1000);
  const summaries = ttlMap<SalesSummaryCents>(1000);
  const settings = ttlMap<EventSettings | null>(10_000);
  const settingsList = ttlMap<EventSettings[]>(1);
  const adminPushes = ttlMap<readonly PushSubscriptionRecord[]>(1);
  /** Bumped whenever orders (or settings) may have changed: reads started before don't fill the cache. */
  let orderGen = 0;
  let settingsGen = 0;
  let pushGen = 0;
  const inflight = new Map<string, { gen: number; promise: Promise<unknown> }>();
  /** Entries (namespace + key) being refreshed in the background. */
  const refreshing = new Set<string>();
  let closed = false;
  let hits = 0;
  let misses = 0;
  let staleHits = 0;
  let refreshes = 0;
  let refreshErrors = 0;

  const feed: ChangeFeed | undefined = hasChangeFeed(inner) ? inner.changes : undefined;
  const enabled = () => ttl > 0 && (feed?.coherent ?? true);

  /** The frozen record to hand out: the one handed out before if nothing in it changed. */
  function adopt(order: OrderRecord): OrderRecord {
    const idKey = refKey(order.id);
    const before = known.get(idKey);
    if (before === order || (before !== undefined && sameOrder(before, order))) return before;
    // known only grows; past the cache size, start over (it only saves work, it decides nothing)
    if (known.size >= max) known.clear();
    const frozen = freezeOrder(order);
    known.set(idKey, frozen);
    return frozen;
  }

  function putOrder(order: OrderRecord): OrderRecord {
    if (numberOf.size >= max) {
      // numberOf only grows; past the cache size, start over rather than keep it forever
      orders.clear();
      numberOf.clear();
    }
    const frozen = adopt(order);
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

  function pushesChanged(): void {
    pushGen++;
    adminPushes.clear();
  }

  function clearAll(): void {
    ordersChanged();
    settingsChanged();
    pushesChanged();
    orders.clear();
    numberOf.clear();
    known.clear();
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
   * Serves `key` from `map` (a stale entry too, starting its refresh), else loads it once
   * (shared by concurrent callers of the same generation); `fill` caches what was loaded.
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
      if (hit.freshUntil <= now()) {
        staleHits++;
        refresh(ns, key, gen, load, fill);
      }
      return hit.value;
    }
    misses++;
    return loadOnce(ns, key, gen, load, fill);
  }

  /** One backend read per key and generation; its result is cached only if nothing changed meanwhile. */
  function loadOnce<V>(ns: string, key: string, gen: () => number, load: () => Promise<V>, fill: (v: V) => V) {
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

  /**
   * Replaces a stale entry in the background, one refresh per entry at a time. A refresh that
   * overlaps a write is not cached (loadOnce), so the next read of the still-stale entry starts
   * another; one that fails leaves the stale entry to be served until its window ends.
   */
  function refresh<V>(ns: string, key: string, gen: () => number, load: () => Promise<V>, fill: (v: V) => V): void {
    const refreshKey = `${ns}\u0000${key}`;
    if (closed || refreshing.has(refreshKey)) return;
    refreshing.add(refreshKey);
    refreshes++;
    // Started on the next turn: the reader that found the entry stale is answered first (an
    // adapter may do its first slice of work synchronously).
    setImmediate(() => {
      if (closed) {
        refreshing.delete(refreshKey);
        return;
      }
      loadOnce(ns, key, gen, load, fill)
        .catch((err: unknown) => {
          refreshErrors++;
          if (!closed)
            log.warn({ err, cache: ns, key }, 'order cache: background refresh failed; keeping the stale entry');
        })
        .finally(() => refreshing.delete(refreshKey));
    });
  }
  const getOrderGen = () => orderGen;
  const getSettingsGen = () => settingsGen;
  const getPushGen = () => pushGen;

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

    stats: () => ({
      hits,
      misses,
      staleHits,
      refreshes,
      refreshErrors,
      refreshing: refreshing.size,
      entries: orders.size,
      coherent: feed?.coherent ?? true,
    }),
    clear: clearAll,

    init: () => inner.init(),
    async close() {
      // A background refresh still running fails quietly against the closed backend.
      closed = true;
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
          const frozen = v.map(adopt);
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

    // ------------------------------------------------------------ push subscriptions

    async savePushSubscription(sub) {
      try {
        return await inner.savePushSubscription(sub);
      } finally {
        pushesChanged();
      }
    },

    async listPushSubscriptions(query) {
      if (!('scope' in query)) return inner.listPushSubscriptions(query);
      const list = await cached(
        'adminPushes',
        adminPushes,
        query.scope,
        getPushGen,
        () => inner.listPushSubscriptions(query),
        (v) => {
          const frozen = Object.freeze(v.map((sub) => Object.freeze(sub)));
          adminPushes.set(query.scope, frozen);
          return frozen;
        },
      );
      return list.slice();
    },

    async deletePushSubscription(endpoint) {
      try {
        await inner.deletePushSubscription(endpoint);
      } finally {
        pushesChanged();
      }
    },

    // ------------------------------------------------------------ never cached

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
