/**
 * The slots of the Int32Array in shared memory through which the store hands fdatasync calls
 * to the WAL-sync thread (wal-sync-thread.ts starts it, fdatasync-thread.ts is its code).
 */

/** The number of the last sync asked for (the thread waits for it to change); -1: stop. */
export const REQUEST = 0;
/** The number of the last sync done. */
export const DONE = 1;
/** The descriptor to sync. */
export const FD = 2;
/** 0, or the errno of the last sync that failed. */
export const ERRNO = 3;
/** How many slots. */
export const SLOTS = 4;
