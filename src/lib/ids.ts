/**
 * Ids of new rows (orders, mail jobs): UUIDv7 (RFC 9562), made by the `uuid` package. Not
 * random v4: a random id lands on a random leaf page of the id index, so each order of a group
 * commit dirtied a page of its own to write and fsync; a v7 id starts with the time and `uuid`
 * keeps one millisecond's ids in order, so new ids append to the last page. It still carries
 * 42 to 73 random bits (too many to guess), and the time it shows is the order's `createdAt`,
 * which the API shows anyway.
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// `v7()` without options asks WebCrypto for 16 bytes per id, which costs more than the rest
// of an order's insert path in JS: the bytes come from a pool instead. With options, uuid
// leaves the clock and sequence to the caller, so its monotonic rule (updateV7State) is kept
// here: a new millisecond starts from a random sequence that counts up within it.
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
