/**
 * `npm run bench -- finder`
 *
 * Finder lookup: `GET /api/finder/{code}` over loopback against the whole app with 50,000
 * photos and 5,000 photo codes (every tenth frame of a session is a code frame). The files
 * are hard links to one small JPEG, and their rows in the photo catalogue (with the codes
 * found at intake) are written beforehand, as a server restarted on a library it has already
 * inspected finds them: no decode happens here. Target: p99 ≤ 10 ms. Baseline in the same run: `/healthz`.
 */
import { link, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { builtApp, importBuilt } from './lib/built.js';
import { type BenchRow, percentile, printReport } from './lib/report.js';

type StoreModule = typeof import('../src/services/store/store.js');
type NamingModule = typeof import('../src/services/photos/naming.js');
type ImportedFile = import('../src/services/store/ports/photo-catalogue.js').ImportedFile;

const PHOTOS = 50_000;
const PER_SESSION = 100;
const CODE_EVERY = 10;
const REQUESTS = 3000;
const CONCURRENCY = 4;

function get(port: number, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path: url, agent: keepAlive }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

async function latencies(port: number, urls: string[]): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) out.push(await get(port, urls[next++] as string));
    }),
  );
  return out;
}

const code = (i: number) => `C${String(i).padStart(7, '0')}`.replace(/[ILOU]/g, '0');

export default async function finderBench(): Promise<void> {
  const { openStore } = await importBuilt<StoreModule>('services/store/store.js');
  const { photoId } = await importBuilt<NamingModule>('services/photos/naming.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'finder-bench-'));
  try {
    const event = 'Big Con';
    const photosDir = path.join(dir, 'photos');
    const one = path.join(dir, 'one.jpg');
    await writeFile(
      one,
      await sharp({ create: { width: 60, height: 40, channels: 3, background: '#456' } })
        .jpeg()
        .toBuffer(),
    );
    const { size, mtimeMs } = await stat(one);
    const files: ImportedFile[] = [];
    let n = 1;
    let codes = 0;
    const start = Date.UTC(2026, 6, 3, 9);
    for (let s = 0; s < PHOTOS / PER_SESSION; s++) {
      const day = `Day ${1 + (s % 3)}`;
      const session = `S${String(s).padStart(4, '0')}`;
      await mkdir(path.join(photosDir, event, day, session), { recursive: true });
      for (let i = 0; i < PER_SESSION; i++) {
        const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
        await link(one, path.join(photosDir, event, day, session, name));
        const isCode = i % CODE_EVERY === 0;
        const rel = `${day}/${session}/${name}`;
        files.push({
          path: rel,
          id: photoId(event, rel),
          number: isCode ? null : n++,
          facts: { size, mtimeMs, width: 60, height: 40, takenAtMs: start + s * 1000_000 + i * 5000 },
          photoCode: isCode ? code(codes++) : null,
        });
      }
    }
    // The catalogue as the intake left it (the same rows an upgrade takes in).
    const prepared = await openStore({ engine: 'sqlite', file: path.join(dir, 'orders.db') });
    await prepared.photoCatalogue.importIndex(event, files);
    await prepared.close();

    const { buildApp, loadConfig } = await builtApp();
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATA_DIR: dir,
        PHOTOS_DIR: photosDir,
        DEMO_LIBRARY: 'off',
        LIBRARY_RESCAN_INTERVAL_MS: '0',
        RATE_LIMIT_LOOKUP_PER_MIN: '100000000',
        ADMIN_TOKENS: 'finder-bench-token-0123456789abcdef',
      }),
    );
    await app.ready();
    await app.photos.ready();
    await app.photos.rescan();
    // Only issued codes are answered (docs/contract.md, "Finding one's photos, and intake").
    const createdAt = new Date().toISOString();
    await app.store.photoCodes.issue(
      Array.from({ length: codes }, (_, i) => ({ code: code(i), issuedVia: 'card' as const, createdAt })),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const listed = app.photos.getEvent(event)?.photoCount ?? 0;
    const check = await app.inject({ url: `/api/finder/${code(1)}` });
    if (check.statusCode !== 200 || check.json().photos.length === 0) {
      throw new Error(`finder bench: a code's lookup answered ${check.statusCode}, not its photos`);
    }
    const urls = Array.from({ length: REQUESTS }, (_, i) => `/api/finder/${code((i * 7919) % codes)}`);
    await latencies(port, urls.slice(0, 300)); // warm-up
    const finder = await latencies(port, urls);
    const health = await latencies(
      port,
      Array.from({ length: REQUESTS }, () => '/healthz'),
    );
    await app.close();
    keepAlive.destroy();
    const p99 = percentile(finder, 99);
    const rows: BenchRow[] = [
      { name: `photos listed (code frames hidden) / codes`, value: listed, unit: `photos / ${codes} codes` },
      {
        name: 'GET /api/finder/{code} p99 (baseline: /healthz p99)',
        value: p99,
        unit: 'ms',
        baseline: percentile(health, 99),
        target: '<= 10 ms',
        pass: p99 <= 10,
      },
      {
        name: 'GET /api/finder/{code} p50',
        value: percentile(finder, 50),
        unit: 'ms',
        baseline: percentile(health, 50),
      },
    ];
    printReport(`finder lookup (${PHOTOS.toLocaleString('en')} photos, ${codes} codes, ${CONCURRENCY} clients)`, rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
