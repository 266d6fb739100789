/**
 * Ids of new rows (orders, mail jobs): UUIDv7 (RFC 9562), made by the `uuid` package.
 *
 * Why not random (v4) UUIDs: every store keeps a unique index on the id, and a random id
 * lands on a random leaf page of it. SQLite group-commits the creates that arrive together
 * (services/store/group-commit.ts), and with random ids each order in a batch dirtied its own
 * index page, which the commit then wrote to the WAL and fsynced: about 2.3 pages per order
 * at 50 concurrent submissions, against 1 row's worth. A v7 id starts with the time in
 * milliseconds and `uuid` keeps ids made in the same millisecond in order, so new ids append
 * to the index's last page, as order numbers do (the same holds for PostgreSQL's B-tree).
 *
 * A v7 id still carries 73 random bits when it is the first of its millisecond and 42 fresh
 * ones after that (its sequence counts up within the millisecond): too many to guess at any
 * rate the API allows. The time it shows is the order's `createdAt`, which the API shows anyway.
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// `v7()` without options asks `crypto.getRandomValues` for 16 bytes per id, which costs
// 3-8 µs here (WebCrypto's argument checks), more than the rest of an order's insert path
// in JS. The random bytes come from a pool refilled 256 ids at a time instead. With
// options, uuid leaves the clock and sequence to the caller, so its monotonic rule
// (uuid's updateV7State) is kept here: a new millisecond starts from a random sequence;
// within one, the sequence counts up, and its overflow borrows the next millisecond.
const POOL_IDS = 256;
const pool = Buffer.allocUnsafe(16 * POOL_IDS);
let used = POOL_IDS;
let msecs = Number.NEGATIVE_INFINITY;
let seq = 0;

export function newId(): string {
  if (used === POOL_IDS) {
    randomFillSync(pool);
    used = 0;
  }
  const random = pool.subarray(used * 16, (used + 1) * 16);
  used++;
  const now = Date.now();
  if (now > msecs) {
    msecs = now;
    seq =
      (((random[6] as number) & 0x7f) << 24) |
      ((random[7] as number) << 16) |
      ((random[8] as number) << 8) |
      (random[9] as number);
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) msecs++;
  }
  return v7({ random, msecs, seq });
}
