/**
 * `npm run bench -- finder`
 *
 * Finder lookup: `GET /api/finder/{code}` over loopback against the whole app with 50,000
 * photos and 5,000 photo codes (every tenth frame of a session is a code frame). The files
 * are hard links to one small JPEG, and their index (with the codes found at intake) is
 * written beforehand, as a server restarted on a library it has already inspected finds
 * it: no decode happens here. Target: p99 ≤ 10 ms. Baseline in the same run: `/healthz`.
 */
import { link, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { builtApp, importBuilt } from './lib/built.js';
import { type BenchRow, percentile, printReport } from './lib/report.js';

type PersistModule = typeof import('../src/services/photos/persist.js');

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
  const { saveEventIndex } = await importBuilt<PersistModule>('services/photos/persist.js');
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
    const numbers = new Map<string, number>();
    const sessions: {
      day: string;
      session: string;
      files: [
        string,
        { size: number; mtimeMs: number; width: number; height: number; takenAtMs: number; code: string | null },
      ][];
    }[] = [];
    let n = 1;
    let codes = 0;
    const start = Date.UTC(2026, 6, 3, 9);
    for (let s = 0; s < PHOTOS / PER_SESSION; s++) {
      const day = `Day ${1 + (s % 3)}`;
      const session = `S${String(s).padStart(4, '0')}`;
      await mkdir(path.join(photosDir, event, day, session), { recursive: true });
      const files: (typeof sessions)[number]['files'] = [];
      for (let i = 0; i < PER_SESSION; i++) {
        const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
        await link(one, path.join(photosDir, event, day, session, name));
        const isCode = i % CODE_EVERY === 0;
        const rec = {
          size,
          mtimeMs,
          width: 60,
          height: 40,
          takenAtMs: start + s * 1000_000 + i * 5000,
          code: isCode ? code(codes++) : null,
        };
        files.push([name, rec]);
        if (!isCode) numbers.set(`${day}/${session}/${name}`, n++);
      }
      sessions.push({ day, session, files });
    }
    await saveEventIndex(dir, { code: event, nextNumber: n, numbers, sessions });

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
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const listed = app.photos.getEvent(event)?.photoCount ?? 0;
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
