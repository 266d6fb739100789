/**
 * Performance machinery for `npm run bench -- admin` (the pending list of 10,000 orders, p99
 * ≤ 50 ms). Serialised admin order lists, reused while the orders port hands out the same
 * records: it hands out the same deep-frozen object while an order is unchanged
 * (src/services/store/sql/order-copies.ts), so the same objects in the same order mean the
 * same bytes, checked by identity instead of serialising again. Each record's JSON is kept
 * too, so a rebuild after one change copies the others. Each build hashes its bytes once for
 * its ETag (a polling dashboard gets 304, also after a rebuild that gave the same bytes, or a
 * restart) and makes a gzipped copy once: the JSON is megabytes.
 */
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { OrderRecord } from '../../domain/order.js';
import { GZIP_LEVEL } from '../../lib/content-encoding.js';
import { NO_PHOTOS, type PhotoRefs, toAdminOrder } from '../../schemas/order.js';

const gzipAsync = promisify(gzipCallback);
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c)) as [Buffer, Buffer, Buffer];

/** Smaller lists go out as they are: compressing saves less than it costs. */
const GZIP_MIN_BYTES = 16 * 1024;

/** The serialised list and its ETag: a hash of the bytes, so equal bytes keep their tag. */
export type ListBody = ReturnType<typeof listBody>;

type Entry = ListBody & { records: readonly OrderRecord[]; generation: number };

function listBody(bytes: Buffer) {
  let gz: Promise<Buffer> | undefined;
  return {
    bytes,
    // SHA-1 as a fingerprint, not a seal: an ETag only has to change with the bytes. About
    // 20 ms for the 11.8 MB of 10,000 orders (bench/RESULTS.md), once per build.
    etag: `"ol-${hash('sha1', bytes, 'base64url')}"`,
    /** Large enough for gzip to pay (a client that accepts it gets `gzipped()`). */
    compressible: bytes.length >= GZIP_MIN_BYTES,
    /** The same bytes gzipped, made once on first use (zlib's thread pool, not the event loop). */
    gzipped: (): Promise<Buffer> => (gz ??= gzipAsync(bytes, { level: GZIP_LEVEL })),
  };
}

export type OrderListBytes = {
  /** The JSON array of `records` as Orders; from memory when `key` last saw the same records. */
  get(key: string, records: readonly OrderRecord[]): ListBody;
  stats(): { hits: number; builds: number };
};

/**
 * `photos` gives each line its photo (file, thumbnail): a record's bytes are also kept per
 * photo library generation, since a photo added, renamed or removed changes them.
 */
export function createOrderListBytes(opts: { maxBytes?: number; photos?: PhotoRefs } = {}): OrderListBytes {
  const photos = opts.photos ?? NO_PHOTOS;
  const lists = new LRUCache<string, Entry>({
    maxSize: opts.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (e) => e.bytes.length + 8 * e.records.length + 64,
  });
  const json = new WeakMap<OrderRecord, { generation: number; bytes: Buffer }>();
  let hits = 0;
  let builds = 0;

  function orderJson(o: OrderRecord, generation: number): Buffer {
    const known = json.get(o);
    if (known !== undefined && known.generation === generation) return known.bytes;
    const bytes = Buffer.from(JSON.stringify(toAdminOrder(o, photos)));
    // Only a frozen record is guaranteed never to change under its identity.
    if (Object.isFrozen(o)) json.set(o, { generation, bytes });
    return bytes;
  }

  /** `[a,b,...]` copied into one buffer: much cheaper than joining 10,000 strings and encoding the result. */
  const join = (parts: readonly Buffer[]) =>
    Buffer.concat([OPEN, ...parts.flatMap((p, i) => (i === 0 ? [p] : [COMMA, p])), CLOSE]);
  // A plain loop: this runs on every request, and `every` with a callback took six times as long.
  function same(a: readonly OrderRecord[], b: readonly OrderRecord[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  return {
    get(key, records) {
      const generation = photos.generation;
      const entry = lists.get(key);
      if (entry && entry.generation === generation && same(entry.records, records)) {
        hits++;
        return entry;
      }
      builds++;
      const body = listBody(join(records.map((o) => orderJson(o, generation))));
      if (records.every(Object.isFrozen)) lists.set(key, { ...body, records: records.slice(), generation });
      return body;
    },
    stats: () => ({ hits, builds }),
  };
}
