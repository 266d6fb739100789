/**
 * An in-process store for @fastify/rate-limit in which routes naming the same `groupId` share
 * one counter per client. The library's LocalStore counts per route, so the two submission
 * routes would each allow the full quota. Fixed windows per key; memory bounded by an LRU.
 */
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { LRUCache } from 'lru-cache';
import { entryBound } from '../../lib/lru.js';

type Counter = { current: number; windowStart: number };
type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

const DEFAULT_CACHE_SIZE = 10_000;

export class GroupStore implements FastifyRateLimitStore {
  private readonly counters: LRUCache<string, Counter>;
  private readonly cacheSize: number;

  constructor(options: { cache?: number } = {}) {
    this.cacheSize = options.cache ?? DEFAULT_CACHE_SIZE;
    this.counters = new LRUCache(entryBound(this.cacheSize));
  }

  incr(key: string, callback: Callback, timeWindow: number, _max?: number): void {
    const now = Date.now();
    let c = this.counters.get(key);
    if (!c || c.windowStart + timeWindow <= now) c = { current: 0, windowStart: now };
    c.current += 1;
    this.counters.set(key, c);
    callback(null, { current: c.current, ttl: c.windowStart + timeWindow - now });
  }

  read(key: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    const c = this.counters.peek(key);
    if (!c || c.windowStart + timeWindow <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: c.current, ttl: c.windowStart + timeWindow - now });
  }

  /**
   * Called once per route that opts in. The key the plugin passes to `incr` already ends
   * with the route's `groupId`, so one shared map keeps the groups apart.
   */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // Typed as route options, but what the plugin passes is the merged rate-limit settings.
    const { groupId, cache } = routeOptions as unknown as { groupId?: string; cache?: number };
    return groupId ? this : new GroupStore({ cache: cache ?? this.cacheSize });
  }
}
