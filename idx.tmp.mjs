import { mkdirSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
const root = process.env.ROOT ?? '/tmp/cat50k';
const dist = process.env.DIST ?? '/work/wt-31/dist';
const photos = path.join(root, 'photos');
if (!existsSync(photos)) {
  const sharp = (await import('sharp')).default;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4477aa' } }).jpeg({ quality: 60 })
    .withExif({ IFD0: { Make: 'Bench' }, IFD2: { DateTimeOriginal: '2026:07:03 10:00:00' } }).toBuffer();
  let n = 0;
  for (let d = 1; d <= 2; d++) for (let s = 1; s <= 5; s++) {
    const dir = path.join(photos, 'Bench Expo 2026', `Day ${d}`, `Session ${s}`); mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 5000; i++) writeFileSync(path.join(dir, `IMG_${String(++n).padStart(6, '0')}.jpg`), jpeg);
  }
}
const dataDir = path.join(root, process.env.DATA ?? 'data');
if (process.env.FRESH) rmSync(dataDir, { recursive: true, force: true });
const { createPhotoLibrary } = await import(`${dist}/services/photos/library.js`);
const storeMod = await import(`${dist}/services/store/store.js`).catch(() => null);
const log = pino({ level: 'warn' }, pino.destination(2));
let store;
const opts = { photosDir: photos, dataDir, log, rescanIntervalMs: 0, watch: false };
if (storeMod) {
  store = process.env.PGURL ? await storeMod.openStore({ engine: 'postgres', connectionString: process.env.PGURL })
    : await storeMod.openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
  opts.catalogue = store.photoCatalogue;
}
const t0 = performance.now(); const c0 = process.cpuUsage();
const lib = createPhotoLibrary(opts);
await lib.start();
const ms = performance.now() - t0;
const mem = process.memoryUsage();
const cu = process.cpuUsage(c0); console.log(JSON.stringify({ cpu: Math.round((cu.user + cu.system) / 1000), ms: Math.round(ms), photos: lib.photosOf('Bench Expo 2026')?.length, rss: Math.round(mem.rss / 1e6), heap: Math.round(mem.heapUsed/1e6) }));
await lib.close(); await store?.close();
