/**
 * lru-cache options for a cache of at most `entries` entries. Bounded by `max`, lru-cache
 * allocates its arrays for all of them up front (at every app start: 100,000 entries for the
 * finder's registry); bounded by size with each entry counting 1, the bound is the same and
 * the arrays grow with use.
 */
export const entryBound = (entries: number) => ({ maxSize: entries, sizeCalculation: () => 1 });
