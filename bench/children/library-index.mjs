/**
 * The gallery bench's `index` child (bench/gallery.bench.ts): the photo library indexing the
 * bench's folder against the system of record, from the compiled server in `dist/`, timed,
 * with its memory read at the end.
 *
 * Plain JavaScript under plain `node`, as `npm start` runs the server: the bench files run
 * under tsx, whose loader alone holds 33–50 MB of RSS here, and "RSS after the cold index" is
 * the product's memory, not the bench's TypeScript loader's.
 *
 * Environment: BENCH_DATA_DIR, BENCH_PHOTOS_DIR, BENCH_EVENT, BENCH_DATABASE_URL (PostgreSQL;
 * SQLite in the data dir without it). Sends one message: { kind: 'indexed', ms, cpuMs, rss,
 * heapUsed, photos }.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const built = (file) => import(pathToFileURL(path.join(dist, file)).href);

function need(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const { createPhotoLibrary } = await built('services/photos/library.js');
const { openStore } = await built('services/store/store.js');
const log = pino({ level: 'warn' }, pino.destination(2));
const dataDir = need('BENCH_DATA_DIR');
// The system of record as the server opens it (its open and migration are not timed).
const url = process.env.BENCH_DATABASE_URL;
const store = url
  ? await openStore({ engine: 'postgres', connectionString: url })
  : await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
const started = performance.now();
const cpuStarted = process.cpuUsage();
const lib = createPhotoLibrary({
  photosDir: need('BENCH_PHOTOS_DIR'),
  dataDir,
  catalogue: store.photoCatalogue,
  log,
  rescanIntervalMs: 0,
  watch: false,
});
await lib.start();
const ms = performance.now() - started;
const used = process.cpuUsage(cpuStarted);
const mem = process.memoryUsage();
const photos = lib.photosOf(need('BENCH_EVENT'))?.length ?? 0;
await lib.close();
await store.close();
process.send?.(
  { kind: 'indexed', ms, cpuMs: (used.user + used.system) / 1000, rss: mem.rss, heapUsed: mem.heapUsed, photos },
  () => process.exit(0),
);
