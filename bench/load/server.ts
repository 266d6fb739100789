/**
 * The load benches' world: a convention's photo library (1,000 photos of 1200 × 800 in
 * 2 days × 5 sessions, written once into a temp folder), the server in a child process on
 * it with its production defaults (the allocator's included, as the Docker image sets them), and the
 * request mix of the issue (85 % gallery pages, 10 % thumbnails, 4 % watermarked previews,
 * 1 % order submissions at the booth), plus 1 % orders that use a package and a coupon
 * (docs/selling.md), whose p99 is read against the plain orders' of the same run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { type RouteSpec, rawGet, rawPostJson } from './client.js';
import type { ChildMessage, ServerStats } from './server-child.js';

export const EVENT = 'Load Expo 2026';
/** glibc's allocator variables as the Dockerfile's `ENV` sets them for production. */
const PRODUCTION_ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
const DAYS = ['Day 1', 'Day 2'];
const SESSIONS = ['Cosplay', 'Stage', 'Panels', 'Hall', 'Gala'];
const DISTINCT = 8;
export const ADMIN_TOKEN = 'load-bench-admin-token-0123456789abcdef';

export type World = {
  root: string;
  photosDir: string;
  photoCount: number;
  close(): Promise<void>;
};

/** Writes the library (a few distinct photo-like JPEGs copied under every name). */
export async function makeWorld(perSession = 100): Promise<World> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'load-bench-'));
  const photosDir = path.join(root, 'photos');
  const eventDir = path.join(photosDir, EVENT);
  await mkdir(eventDir, { recursive: true });
  await writeFile(
    path.join(eventDir, 'event.json'),
    JSON.stringify({
      name: EVENT,
      date: '2026-07-03',
      prefix: 'LX26',
      prices: { '4x6': 5, '5x7': 10, '8x10': 20 },
      // Three 4x6 for $12: the plain orders (two 4x6) never reach it; the selling orders do.
      packages: [{ size: '4x6', count: 3, price: 12 }],
      defaultSize: '4x6',
      shippingFee: 5,
      deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  );
  const sources: string[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const file = path.join(root, `source-${i}.jpg`);
    const noise = await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 90 + i * 15, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    await sharp(noise).resize(1200, 800, { kernel: 'cubic' }).blur(1.2).jpeg({ quality: 85 }).toFile(file);
    sources.push(file);
  }
  let n = 0;
  for (const day of DAYS) {
    for (const session of SESSIONS) {
      const dir = path.join(eventDir, day, session);
      await mkdir(dir, { recursive: true });
      for (let i = 0; i < perSession; i++) {
        n++;
        await copyFile(sources[n % DISTINCT] as string, path.join(dir, `IMG_${String(n).padStart(5, '0')}.jpg`));
      }
    }
  }
  return { root, photosDir, photoCount: n, close: () => rm(root, { recursive: true, force: true }) };
}

export type Server = {
  port: number;
  child: ChildProcess;
  stats(): Promise<ServerStats>;
  stop(): Promise<void>;
};

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-child.ts');

/** The server with production defaults (NODE_ENV=production, LOG_LEVEL as given) on a fresh DATA_DIR. */
export async function startServer(
  world: World,
  opts: { logLevel: string; exposeGc?: boolean; env?: Record<string, string> },
): Promise<Server> {
  const dataDir = await mkdtemp(path.join(world.root, 'data-'));
  const child = fork(CHILD, [], {
    execArgv: [
      '--import',
      'tsx',
      ...(opts.exposeGc ? ['--expose-gc'] : []),
      // LOAD_CPU_PROFILE=<dir> writes the server's CPU profile there when it stops (open it in
      // Chrome's DevTools): how a slower figure is traced to the code that costs it.
      ...(process.env.LOAD_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOAD_CPU_PROFILE}`] : []),
    ],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: opts.logLevel,
      DATA_DIR: dataDir,
      PHOTOS_DIR: world.photosDir,
      DEMO_LIBRARY: 'off',
      ADMIN_TOKENS: ADMIN_TOKEN,
      PUBLIC_BASE_URL: 'http://gallery.load',
      // The allocator's settings as the Docker image gives them (Dockerfile, docs/operations.md);
      // others to experiment with (MALLOC_*, or LD_PRELOAD of jemalloc) reach the server too.
      ...PRODUCTION_ALLOCATOR,
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC_'))),
      // LOAD_SERVER_ENV="INTAKE_INSPECT=off,LOG_LEVEL=warn" sets server variables for one run.
      ...(process.env.LOAD_SERVER_ENV
        ? Object.fromEntries(process.env.LOAD_SERVER_ENV.split(',').map((kv) => kv.split('=') as [string, string]))
        : {}),
      ...opts.env,
    },
    // Logs go where a production log shipper would take them: away (JSON lines, not kept).
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) while starting`)));
    child.once('message', (m: ChildMessage) => {
      if (m.kind === 'listening') resolve(m.port);
    });
  });
  child.removeAllListeners('exit');
  return {
    port,
    child,
    stats: () =>
      new Promise((resolve) => {
        const on = (m: ChildMessage) => {
          if (m.kind !== 'stats') return;
          child.off('message', on);
          resolve(m.stats);
        };
        child.on('message', on);
        child.send('stats');
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

type PagePhoto = { number: string; thumbnail: string; fullSize: string };

/** The mix: fetches the gallery as a browser would, and builds every request from what it links to. */
export async function requestMix(
  port: number,
  opts: { previewPool?: number } = {},
): Promise<{ routes: RouteSpec[]; thumbnails: string[]; previews: string[]; numbers: string[] }> {
  const host = `127.0.0.1:${port}`;
  const base = `http://${host}`;
  const enc = encodeURIComponent;
  const pages: string[] = [];
  const photos: PagePhoto[] = [];
  for (let page = 1; ; page++) {
    const url = `/event/${enc(EVENT)}?page=${page}&limit=50`;
    const res = await fetch(base + url);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const body = (await res.json()) as { photos: PagePhoto[]; totalPages: number };
    pages.push(url);
    photos.push(...body.photos);
    if (page >= body.totalPages) break;
  }
  for (const day of DAYS) {
    for (const session of SESSIONS) {
      for (const page of [1, 2]) pages.push(`/event/${enc(EVENT)}/${enc(day)}/${enc(session)}?page=${page}&limit=50`);
    }
  }
  const pathOf = (absolute: string) => {
    const u = new URL(absolute);
    return u.pathname + u.search;
  };
  const thumbnails = photos.map((p) => pathOf(p.thumbnail));
  // Previews: the photos people open, a smaller set.
  const previews = photos.slice(0, opts.previewPool ?? 200).map((p) => pathOf(p.fullSize));
  const numbers = photos.map((p) => p.number);
  const orders = Array.from({ length: 200 }, (_, i) => {
    const pick = () => numbers[Math.floor(Math.random() * numbers.length)] as string;
    const ship = i % 2 === 0;
    return rawPostJson(
      host,
      '/api/orders/create',
      {
        eventSlug: EVENT,
        photos: [pick(), pick(), { number: pick(), size: '5x7', quantity: 2 }],
        customerInfo: { name: `Load Customer ${i}`, email: `customer${i}@example.com` },
        ...(ship ? { shippingAddress: { line1: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701' } } : {}),
      },
      { Authorization: `Bearer ${ADMIN_TOKEN}` },
    );
  });
  // A coupon without a use limit, so every selling order takes a use in its transaction.
  const coupon = await fetch(`${base}/api/coupons`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'LOAD10', kind: 'percent', value: 10 }),
  });
  if (coupon.status !== 201 && coupon.status !== 409) throw new Error(`POST /api/coupons: ${coupon.status}`);
  const selling = Array.from({ length: 200 }, (_, i) => {
    const pick = () => numbers[Math.floor(Math.random() * numbers.length)] as string;
    const ship = i % 2 === 0;
    return rawPostJson(
      host,
      '/api/orders/create',
      {
        eventSlug: EVENT,
        photos: [pick(), pick(), pick(), { number: pick(), size: '5x7', quantity: 2 }],
        couponCode: 'load10',
        customerInfo: { name: `Load Customer ${i}`, email: `customer${i}@example.com` },
        ...(ship ? { shippingAddress: { line1: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701' } } : {}),
      },
      { Authorization: `Bearer ${ADMIN_TOKEN}` },
    );
  });
  // LOAD_WEIGHTS="85,10,4,0.5,0.5" changes the mix (pages, thumbnails, previews, orders, orders
  // with a package and a coupon), to find which part of the work a figure comes from. Orders
  // stay 1 % of requests in all, as before selling orders joined the mix: an order costs about
  // ten gallery pages of CPU plus its receipt, so doubling their share halves the throughput.
  const weights = (process.env.LOAD_WEIGHTS ?? '85,10,4,0.5,0.5').split(',').map(Number);
  // Gallery pages are asked for as browsers ask (Accept-Encoding: gzip), so they come gzipped
  // (a tenth of the bytes). LOAD_GZIP_PAGES=0 asks without, as the figures before 2026-11-28.
  const gzipPages = process.env.LOAD_GZIP_PAGES !== '0';
  const routes: RouteSpec[] = [
    {
      name: `gallery page (GET /event/...${gzipPages ? ', Accept-Encoding: gzip' : ''})`,
      weight: 85,
      requests: pages.map((p) => rawGet(host, p, gzipPages ? { 'Accept-Encoding': 'gzip' } : {})),
      expect: 200,
    },
    {
      name: 'thumbnail (GET /api/proxy-image/...)',
      weight: 10,
      requests: thumbnails.map((p) => rawGet(host, p)),
      expect: 200,
    },
    { name: 'preview (GET /api/preview/...)', weight: 4, requests: previews.map((p) => rawGet(host, p)), expect: 200 },
    { name: 'order (POST /api/orders/create, booth)', weight: 1, requests: orders, expect: 201 },
    {
      name: 'order with a package and a coupon (same route)',
      weight: 1,
      requests: selling,
      expect: 201,
    },
  ];
  routes.forEach((r, i) => {
    r.weight = weights[i] ?? r.weight;
  });
  return { thumbnails, previews, numbers, routes: routes.filter((r) => r.weight > 0) };
}

/**
 * The coupon race of docs/selling.md ("Coupons"): a coupon limited to 8 uses, 3 of them taken
 * one after another, then 50 orders at once for the last 5. Exactly 5 may be placed (201);
 * the others are refused (400 COUPON_INVALID), and the coupon's count stops at 8.
 */
export async function couponRace(
  port: number,
  numbers: string[],
): Promise<{ placed: number; refused: number; other: number; uses: number }> {
  const base = `http://127.0.0.1:${port}`;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/coupons`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ code: 'RACE5', kind: 'amount', value: 1, maxUses: 8 }),
  });
  if (created.status !== 201) throw new Error(`POST /api/coupons: ${created.status}`);
  const order = (i: number) =>
    fetch(`${base}/api/orders/create`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        eventSlug: EVENT,
        photos: [numbers[i % numbers.length]],
        couponCode: 'RACE5',
        customerInfo: { name: `Racer ${i}`, email: `racer${i}@example.com` },
      }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  for (let i = 0; i < 3; i++) {
    const status = await order(i);
    if (status !== 201) throw new Error(`coupon race: early order ${status}`);
  }
  const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => order(100 + i)));
  const list = (await (await fetch(`${base}/api/coupons`, { headers: admin })).json()) as {
    coupons: { code: string; uses: number }[];
  };
  return {
    placed: statuses.filter((s) => s === 201).length,
    refused: statuses.filter((s) => s === 400).length,
    other: statuses.filter((s) => s !== 201 && s !== 400).length,
    uses: list.coupons.find((c) => c.code === 'RACE5')?.uses ?? -1,
  };
}

/** Fetches every image once, a few at a time, so the measured run sees warm caches. */
export async function warmImages(port: number, paths: string[], concurrency = 4): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < paths.length; i = next++) {
        const res = await fetch(`http://127.0.0.1:${port}${paths[i]}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${paths[i]}: ${res.status}`);
      }
    }),
  );
  return performance.now() - started;
}

/** What the process's open descriptors point at (Linux; empty elsewhere), for finding a leak. */
export async function fdTargets(pid: number): Promise<string[]> {
  const dir = `/proc/${pid}/fd`;
  const fds = await readdir(dir).catch(() => [] as string[]);
  const targets = await Promise.all(fds.map((fd) => readlink(`${dir}/${fd}`).catch(() => '?')));
  return targets.map((t) => t.replace(/\[\d+\]$/, '[...]')).sort();
}
