/**
 * Serialised admin order lists, built once and reused while the orders port hands out the
 * same records.
 *
 * The orders port hands out the same deep-frozen record objects for as long as an order is
 * unchanged, and a new object once it changed (in any process: lists are read through, see
 * src/services/store/sql/order-copies.ts). So "same objects in the same order" means "same
 * bytes": a list is checked against the records its bytes were made from (an identity check
 * per record, microseconds for 10,000) instead of being serialised again (tens of
 * milliseconds for 10,000 orders). No generation counter or invalidation hook is needed, and
 * fresh objects (records not frozen) simply never hit.
 *
 * A rebuild after one order changed reuses the JSON of every other record: each frozen
 * record's JSON bytes are kept in a WeakMap (dropped with the record), and the list is
 * copied together from them.
 *
 * Each build gets its own ETag, so a dashboard that polls with `If-None-Match` gets a 304
 * instead of megabytes while nothing changed. A gzipped copy is made (once, off the event
 * loop) for clients that accept it: 10,000 orders are about 12 MB of JSON, and moving that over
 * even a loopback connection costs more than everything else the route does.
 *
 * The bytes are `JSON.stringify` of `toAdminOrder`, which builds each object field by field
 * from the `AdminOrder` allow-list; measured in bench/admin.bench.ts against the zod schema
 * serialiser.
 */
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { OrderRecord } from '../../domain/order.js';
import { NO_PHOTOS, type PhotoRefs, toAdminOrder } from '../../schemas/order.js';
import { GZIP_LEVEL } from '../common/content-encoding.js';

const gzipAsync = promisify(gzipCallback);

/** Smaller lists go out as they are: compressing them saves less than it costs. */
export const GZIP_MIN_BYTES = 16 * 1024;

/** The serialised list and its ETag (new for every build: equal tags always mean equal bytes). */
type ListBody = {
  bytes: Buffer;
  etag: string;
  /** The same bytes gzipped, made once on first use (zlib's thread pool, not the event loop). */
  gzipped(): Promise<Buffer>;
};

type Entry = ListBody & { records: readonly OrderRecord[]; generation: number };

function listBody(bytes: Buffer, etag: string): ListBody {
  let gz: Promise<Buffer> | undefined;
  return {
    bytes,
    etag,
    gzipped() {
      gz ??= gzipAsync(bytes, { level: GZIP_LEVEL });
      return gz;
    },
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
  const boot = randomBytes(4).toString('hex');
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
  function join(parts: readonly Buffer[]): Buffer {
    let total = 2 + Math.max(0, parts.length - 1);
    for (const p of parts) total += p.length;
    const out = Buffer.allocUnsafe(total);
    let at = 0;
    out[at++] = 0x5b; // [
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) out[at++] = 0x2c; // ,
      at += (parts[i] as Buffer).copy(out, at);
    }
    out[at] = 0x5d; // ]
    return out;
  }

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
      const body = listBody(join(records.map((o) => orderJson(o, generation))), `"ol-${boot}-${builds}"`);
      if (records.every(Object.isFrozen)) lists.set(key, { ...body, records: records.slice(), generation });
      return body;
    },
    stats: () => ({ hits, builds }),
  };
}
