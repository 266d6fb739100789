/**
 * lru-cache options for at most `entries` entries. With `max`, lru-cache allocates its arrays
 * for all of them at once (at every app start); bounded by size, each entry counting 1, they grow.
 */
export const entryBound = (entries: number) => ({ maxSize: entries, sizeCalculation: () => 1 });
