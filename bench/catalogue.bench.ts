/**
 * `npm run bench -- catalogue`: several servers on one photo catalogue (docs/contract.md, "The
 * photo catalogue"; docs/operations.md, "Running several servers").
 *
 * Two servers (the compiled app, each in a child process with a DATA_DIR of its own) on one
 * embedded PostgreSQL (fsync on) and one photo folder, both running. 1,000 photos arrive at
 * once (a session folder written beside the library, then moved into it). Measured: the time
 * from the last file settling (the move + INTAKE_SETTLE_MS, 2 s) until both list all 1,000
 * with the same numbers. Target: ≤ 5 s. Twice: without inspection (INTAKE_INSPECT=off: the
 * catalogue's own cost: scans, numbers in the record, the other server following), and as
 * shipped (each server decodes every new photo for photo codes and renders its thumbnails
 * before listing it, or takes another server's inspection from the record).
 *
 * Baseline in the same run: one server alone on the same database, the same 1,000 photos.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startPostgresServer } from '../test/support/postgres-embedded.js';
import { builtApp } from './lib/built.js';
import { startRole, stopChild } from './lib/processes.js';
import { type BenchRow, printReport } from './lib/report.js';

const PHOTOS = Number(process.env.CATALOGUE_BENCH_PHOTOS ?? 1000);
const EVENT = 'Catalogue Con';
const SETTLE_MS = 2000;
const self = fileURLToPath(import.meta.url);

type Listening = { port: number };

// ----------------------------------------------------------------------------- server child

if (process.env.CATALOGUE_BENCH_ROLE === 'server') {
  const { buildApp, loadConfig } = await builtApp();
  const app = await buildApp(
    loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DEMO_LIBRARY: 'off',
      ORDER_STORE: 'postgres',
      INTAKE_SETTLE_MS: String(SETTLE_MS),
      ADMIN_TOKENS: 'bench-admin-token-0123456789abcdef',
      PUBLIC_BASE_URL: 'http://catalogue.bench',
    }),
    { level: 'warn' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.photos.ready();
  process.send?.({ port: (app.server.address() as AddressInfo).port } satisfies Listening);
}

// ----------------------------------------------------------------------------- parent

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const { child, msg } = await startRole<Listening>({
    script: self,
    roleVar: 'CATALOGUE_BENCH_ROLE',
    role: 'server',
    env,
    boost: true,
  });
  return { child, url: `http://127.0.0.1:${msg.port}` };
}

/** `<id>#<number>` of every photo the server lists, in gallery order. */
async function listing(url: string): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/event/${encodeURIComponent(EVENT)}?limit=100&page=${page}`);
    if (res.status !== 200) return [];
    const body = (await res.json()) as { photos: { id: string; number: string }[]; totalPages: number };
    for (const p of body.photos) out.push(`${p.id}#${p.number}`);
    if (page >= body.totalPages) return out;
  }
}

async function count(url: string): Promise<number> {
  const res = await fetch(`${url}/event/${encodeURIComponent(EVENT)}?limit=1`);
  return res.status === 200 ? ((await res.json()) as { totalCount: number }).totalCount : 0;
}

/**
 * Writes PHOTOS photos into a folder beside the library and moves it into the event: they
 * appear at once. Resolves with the time of the move.
 */
async function arrive(photosDir: string, staging: string, session: string, jpeg: Buffer): Promise<number> {
  const dir = path.join(staging, session);
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < PHOTOS; i++) await writeFile(path.join(dir, `IMG_${String(i).padStart(5, '0')}.jpg`), jpeg);
  const day = path.join(photosDir, EVENT, 'Day 1');
  await mkdir(day, { recursive: true });
  const moved = Date.now();
  await rename(dir, path.join(day, session));
  return moved;
}

/**
 * Waits until every server lists `total` photos with the same numbers: ms after `from`, and
 * how long after the first server the last one got there.
 */
async function allListed(urls: string[], total: number, from: number): Promise<{ all: number; follow: number }> {
  const deadline = Date.now() + 300_000;
  const reached: (number | undefined)[] = urls.map(() => undefined);
  while (Date.now() < deadline) {
    const counts = await Promise.all(urls.map(count));
    const now = Date.now();
    for (const [i, c] of counts.entries()) if (c === total) reached[i] ??= now;
    if (counts.every((c) => c === total)) {
      const lists = await Promise.all(urls.map(listing));
      if (lists.every((l) => l.length === total && l.join() === lists[0]?.join())) {
        const times = reached as number[];
        return { all: now - from, follow: Math.max(...times) - Math.min(...times) };
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`catalogue bench: not every server listed ${total} photos within 5 minutes`);
}

async function scenario(
  pg: Awaited<ReturnType<typeof startPostgresServer>>,
  base: string,
  jpeg: Buffer,
  servers: number,
  inspect: boolean,
): Promise<{ all: number; follow: number }> {
  const name = `${servers}-${inspect ? 'inspect' : 'plain'}`;
  const photosDir = path.join(base, `photos-${name}`);
  await mkdir(path.join(photosDir, EVENT), { recursive: true });
  const databaseUrl = await pg.createDatabase(`catalogue_${name.replace('-', '_')}`);
  const children: ChildProcess[] = [];
  try {
    const urls: string[] = [];
    for (let i = 0; i < servers; i++) {
      const server = await startServer({
        DATA_DIR: path.join(base, `data-${name}-${i}`),
        PHOTOS_DIR: photosDir,
        DATABASE_URL: databaseUrl,
        INTAKE_INSPECT: inspect ? 'on' : 'off',
      });
      children.push(server.child);
      urls.push(server.url);
    }
    const moved = await arrive(photosDir, path.join(base, `staging-${name}`), 'Arrivals', jpeg);
    return await allListed(urls, PHOTOS, moved + SETTLE_MS);
  } finally {
    for (const c of children) await stopChild(c);
  }
}

export default async function catalogueBench(): Promise<void> {
  const base = await mkdtemp(path.join(tmpdir(), 'catalogue-bench-'));
  const pg = await startPostgresServer({ durable: true });
  try {
    // A small camera-like JPEG (EXIF time), so the figure is the catalogue's, not the decoder's.
    const jpeg = await sharp({ create: { width: 320, height: 213, channels: 3, background: '#4477aa' } })
      .jpeg({ quality: 80 })
      .withExif({ IFD2: { DateTimeOriginal: '2026:07:03 10:00:00' } })
      .toBuffer();
    const rows: BenchRow[] = [];
    for (const inspect of [false, true]) {
      const alone = await scenario(pg, base, jpeg, 1, inspect);
      const two = await scenario(pg, base, jpeg, 2, inspect);
      if (!inspect) {
        rows.push({
          name: `${PHOTOS} arrive: both servers list all alike (INTAKE_INSPECT=off)`,
          value: Math.round(two.all),
          unit: 'ms after settling',
          baseline: Math.round(alone.all),
          target: '<= 5000 ms',
          pass: two.all <= 5000,
        });
      } else {
        // Each server decodes every new photo (photo code, its own thumbnails) before listing
        // it: the intake's throughput, not the catalogue's; the second follows the first.
        rows.push({
          name: `${PHOTOS} arrive: both list all alike, inspection on`,
          value: Math.round(two.all),
          unit: 'ms after settling',
          baseline: Math.round(alone.all),
        });
      }
      rows.push({
        name: `  the last server after the first (${inspect ? 'inspection on' : 'INTAKE_INSPECT=off'})`,
        value: Math.round(two.follow),
        unit: 'ms',
      });
    }
    printReport(`catalogue: two servers on one PostgreSQL and one photo folder (${PHOTOS} photos)`, rows);
  } finally {
    await pg.destroy();
    await rm(base, { recursive: true, force: true });
  }
}
