/**
 * `npm run bench -- phone-gallery`
 *
 * An attendee opens an event's gallery on a phone on the convention's Wi-Fi: real Chromium
 * (@sparticuz/chromium through playwright-core, as the browser tests) as a 390×844 phone at 3×,
 * the network held by Chromium's own emulation (CDP `Network.emulateNetworkConditions`), on an
 * event of 60 camera-like 24 MP frames (bench/lib/originals.ts, `cachedScenes`; kept between
 * runs). Two profiles:
 *   - Wi-Fi: 300 ms round trip, 1.6 Mbps down, 750 kbps up;
 *   - Slow 3G: 400 ms round trip, 400 kbps both ways.
 * Measured from the navigation's start: first contentful paint, the first row (3 tiles) and
 * the first screen (12 tiles) loaded, and, on Wi-Fi, the bytes of everything page 1 loads
 * without scrolling, by type (until the network has been quiet for 1.5 s). The bytes are
 * counted on one profile only: the phone asks for the same files on either network (the
 * tile it takes depends on its screen, not its link), and waiting for page 1 to go quiet on
 * Slow 3G would add 15–40 s a visit (page 1 at 400 kbps) for the same figures.
 *
 * Baseline, in the same run: the product as it was before the grid asked for tiles by width
 * (the commit BASELINE_REV, PHONE_BENCH_BASELINE=<rev> for another), built from git into the
 * temp folder once (bench/lib/revision-build.ts) and run the same way beside the current code.
 * Both servers run in child processes on their own data folders, their intake finished and
 * every image page 1 asks for rendered once before anything is timed; each visit is a fresh
 * browser context (an empty cache), RUNS per server and profile in alternating order, and the
 * medians are reported.
 *
 * Targets (issue 38): Wi-Fi first screen ≤ 2.5 s; page 1's image bytes on Wi-Fi ≤ 0.5× the
 * baseline's; Slow 3G first row ≤ 4 s and first screen ≤ 7 s.
 *
 * PHONE_BENCH_TRACE=1 prints each visit's requests (when asked for and done, from the
 * navigation's start), to see where the time goes; PHONE_BENCH_RUNS sets the visits per case.
 */
import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { launchBrowser } from '../test/support/web-browser.js';
import { buildWebApp } from '../test/support/web-build.js';
import { cachedScenes } from './lib/originals.js';
import { startRole, stopChild } from './lib/processes.js';
import { type BenchRow, median, printReport } from './lib/report.js';
import { builtRevision } from './lib/revision-build.js';

/** The last commit before the grid asked for square tiles by width (the bench's baseline). */
const BASELINE_REV = process.env.PHONE_BENCH_BASELINE ?? '3fc4f82c492abd6ad4b8f563f73670a2471a0e97';
const RUNS = Number(process.env.PHONE_BENCH_RUNS ?? 3);
const EVENT = 'Bench Con';
const PHOTOS = 60;
const DISTINCT = 8;
const FIRST_ROW = 3;
const FIRST_SCREEN = 12;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const QUIET_MS = 1500;
const ROLE_VAR = 'PHONE_BENCH_ROLE';
const TRACE = process.env.PHONE_BENCH_TRACE === '1';

type Profile = { name: string; latency: number; down: number; up: number; bytes: boolean };
const PROFILES: Profile[] = [
  { name: 'Wi-Fi', latency: 300, down: 1_600_000, up: 750_000, bytes: true },
  { name: 'Slow 3G', latency: 400, down: 400_000, up: 400_000, bytes: false },
];

// --------------------------------------------------------------------------- the servers

type AppModule = typeof import('../src/app.js');
type EnvModule = typeof import('../src/config/env.js');

/** A server child: the app from `PHONE_BENCH_DIST` (a built dist/), listening, its intake done. */
async function serverChild(): Promise<void> {
  const dist = process.env.PHONE_BENCH_DIST as string;
  const load = <M>(file: string) => import(pathToFileURL(path.join(dist, file)).href) as Promise<M>;
  const [{ buildApp }, { loadConfig }] = await Promise.all([
    load<AppModule>('app.js'),
    load<EnvModule>('config/env.js'),
  ]);
  const app = await buildApp(loadConfig(process.env));
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.photos.ready();
  // Every photo looked at (codes read, thumbnails made): nothing in the background while timed.
  for (;;) {
    const { pending, inspecting } = app.photos.intake();
    if (pending === 0 && inspecting === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  process.send?.({ port: (app.server.address() as { port: number }).port });
}

if (process.env[ROLE_VAR] === 'server') await serverChild();

// --------------------------------------------------------------------------- a visit

type Visit = {
  fcpMs: number;
  firstRowMs: number;
  firstScreenMs: number;
  /** encodedDataLength (headers and body as they went over the wire) by Chromium's resource type. */
  bytes: Record<string, number>;
  imageRequests: number;
  /** What the first screen's images asked for: `tile=360`, `size=2x`, … */
  asked: string[];
  /** Each request: its path, type, and when it was asked for and done (ms from the navigation). */
  trace: { url: string; type: string; start: number; end: number }[];
};

/** Records when each image of the page finished loading; `__tiles(n)` answers once the first n have. */
const RECORDER = `(() => {
  const loaded = new WeakMap();
  document.addEventListener('load', (e) => {
    const t = e.target;
    if (t && t.tagName === 'IMG' && !loaded.has(t)) loaded.set(t, performance.now());
  }, true);
  window.__tiles = (n) => {
    const imgs = [...document.querySelectorAll('.grid .tile img')].slice(0, n);
    if (imgs.length < n || !imgs.every((i) => loaded.has(i))) return null;
    return imgs.map((i) => ({ at: loaded.get(i), src: i.currentSrc }));
  };
})();`;

/** Counts what goes over the wire, by type, and whether anything is still in flight. */
async function watchNetwork(cdp: CDPSession) {
  const types = new Map<string, string>();
  const inFlight = new Set<string>();
  const bytes: Record<string, number> = {};
  const trace = new Map<string, Visit['trace'][number]>();
  let images = 0;
  let origin: number | undefined; // the document request's time, seconds
  let lastActivity = performance.now();
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (e) => {
    // The live count's stream (an EventSource) stays open for as long as the page.
    if (e.type !== 'EventSource') inFlight.add(e.requestId);
    lastActivity = performance.now();
    origin ??= e.timestamp;
    const { pathname, search } = new URL(e.request.url);
    const at = Math.round((e.timestamp - origin) * 1000);
    trace.set(e.requestId, {
      url: `${pathname.slice(0, 40)}${search.slice(-12)}`,
      type: e.type ?? '',
      start: at,
      end: -1,
    });
  });
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    if (e.type === 'Image') images++;
  });
  const finished = (id: string, encoded = 0, timestamp = 0) => {
    const entry = trace.get(id);
    if (entry && origin !== undefined) entry.end = Math.round((timestamp - origin) * 1000);
    inFlight.delete(id);
    lastActivity = performance.now();
    const type = types.get(id) ?? 'Other';
    bytes[type] = (bytes[type] ?? 0) + encoded;
  };
  cdp.on('Network.loadingFinished', (e) => finished(e.requestId, e.encodedDataLength, e.timestamp));
  cdp.on('Network.loadingFailed', (e) => finished(e.requestId, 0, e.timestamp));
  return {
    bytes,
    trace: () => [...trace.values()],
    imageRequests: () => images,
    quiet: () => inFlight.size === 0 && performance.now() - lastActivity >= QUIET_MS,
  };
}

async function visit(context: BrowserContext, url: string, profile: Profile | undefined, untilQuiet: boolean) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const net = await watchNetwork(cdp);
  if (profile) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latency,
      downloadThroughput: profile.down / 8,
      uploadThroughput: profile.up / 8,
    });
  }
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string: the page's Content-Security-Policy allows no eval.
  const tiles = (await (
    await page.waitForFunction(
      (n) => (globalThis as unknown as { __tiles(n: number): unknown }).__tiles(n),
      FIRST_SCREEN,
      { timeout: 180_000, polling: 50 },
    )
  ).jsonValue()) as { at: number; src: string }[];
  if (untilQuiet) {
    while (!net.quiet()) await new Promise((r) => setTimeout(r, 100));
  }
  const fcpMs = (await page.evaluate(
    `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN`,
  )) as number;
  const result: Visit = {
    fcpMs,
    firstRowMs: Math.max(...tiles.slice(0, FIRST_ROW).map((t) => t.at)),
    firstScreenMs: Math.max(...tiles.map((t) => t.at)),
    bytes: { ...net.bytes },
    imageRequests: net.imageRequests(),
    asked: tiles.map((t) => new URL(t.src).search.replace(/^\?v=[^&]*&?/, '') || 'the thumbnail'),
    trace: net.trace(),
  };
  await page.close();
  return result;
}

async function freshVisit(browser: Browser, url: string, profile: Profile | undefined, untilQuiet: boolean) {
  const context = await browser.newContext(PHONE);
  await context.addInitScript(RECORDER);
  try {
    return await visit(context, url, profile, untilQuiet);
  } finally {
    await context.close();
  }
}

// --------------------------------------------------------------------------- the bench

async function writeEvent(root: string): Promise<void> {
  const scenes = await cachedScenes(DISTINCT);
  const dir = path.join(root, EVENT, 'Sat', 'Hall');
  await mkdir(dir, { recursive: true });
  // Hard links: 60 photos of the event (each its own id and URLs) without 400 MB of copies.
  for (let i = 0; i < PHOTOS; i++) {
    await link(scenes[i % DISTINCT] as string, path.join(dir, `IMG_${String(1000 + i)}.jpg`));
  }
}

type Server = { name: string; url: string; stop: () => Promise<void> };

async function startServer(name: string, dist: string, work: string, photosDir: string, webDir?: string) {
  const dataDir = path.join(work, `data-${name}`);
  await mkdir(dataDir);
  const { child, msg } = await startRole<{ port: number }>({
    script: fileURLToPath(import.meta.url),
    roleVar: ROLE_VAR,
    role: 'server',
    env: {
      PHONE_BENCH_DIST: dist,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PHOTOS_DIR: photosDir,
      DEMO_LIBRARY: 'off',
      LIBRARY_RESCAN_INTERVAL_MS: '0',
      ADMIN_TOKENS: 'phone-bench-admin-token-0123456789',
      PUBLIC_BASE_URL: 'http://phone.bench',
      ...(webDir ? { WEB_DIR: webDir } : {}),
    },
  });
  const url = `http://127.0.0.1:${msg.port}/event/${encodeURIComponent(EVENT)}`;
  return { name, url, stop: () => stopChild(child) } satisfies Server;
}

const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;
const secs = (ms: number) => Math.round(ms / 10) / 100;

export default async function phoneGalleryBench(): Promise<void> {
  const say = (line: string) => process.stdout.write(`  ${line}\n`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'phone-bench-'));
  const servers: Server[] = [];
  let browser: Browser | undefined;
  try {
    const photosDir = path.join(work, 'photos');
    const webDir = path.join(work, 'web');
    say('preparing: the event, the baseline build, the current web app');
    await writeEvent(photosDir);
    const baselineRoot = await builtRevision(BASELINE_REV, say);
    await buildWebApp(webDir);
    const repoDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
    // One at a time: each intake has the cores to itself.
    servers.push(await startServer('now', repoDist, work, photosDir, webDir));
    servers.push(await startServer('baseline', path.join(baselineRoot, 'dist'), work, photosDir));
    browser = await launchBrowser();
    // Renders and the servers' memory caches warmed: every image page 1 asks for, once.
    for (const s of servers) await freshVisit(browser, s.url, undefined, true);

    const visits = new Map<string, Visit[]>();
    for (let run = 0; run < RUNS; run++) {
      for (const profile of PROFILES) {
        const order = run % 2 === 0 ? servers : [...servers].reverse();
        for (const s of order) {
          const v = await freshVisit(browser, s.url, profile, profile.bytes);
          const key = `${s.name}/${profile.name}`;
          visits.set(key, [...(visits.get(key) ?? []), v]);
          say(
            `${key}: first row ${secs(v.firstRowMs)} s, first screen ${secs(v.firstScreenMs)} s` +
              (profile.bytes ? `, images ${kib(v.bytes.Image ?? 0)} KiB in ${v.imageRequests} requests` : ''),
          );
          if (TRACE) {
            say(
              `  first contentful paint ${Math.round(v.fcpMs)} ms; tiles loaded by ${Math.round(v.firstScreenMs)} ms`,
            );
            for (const r of v.trace)
              say(`  ${String(r.start).padStart(6)} → ${String(r.end).padStart(6)} ms  ${r.type.padEnd(10)} ${r.url}`);
          }
        }
      }
    }

    const med = (server: string, profile: string, pick: (v: Visit) => number) =>
      median((visits.get(`${server}/${profile}`) ?? []).map(pick));
    const rows: BenchRow[] = [];
    for (const profile of PROFILES) {
      const p = profile.name;
      const row = (name: string, pick: (v: Visit) => number, target?: { text: string; max: number }) => {
        const value = secs(med('now', p, pick));
        rows.push({
          name: `${p}: ${name}`,
          value,
          unit: 's',
          baseline: secs(med('baseline', p, pick)),
          ...(target ? { target: target.text, pass: value <= target.max } : {}),
        });
      };
      row('first contentful paint', (v) => v.fcpMs);
      row(
        `first row (${FIRST_ROW} tiles)`,
        (v) => v.firstRowMs,
        p === 'Slow 3G' ? { text: '<= 4 s', max: 4 } : undefined,
      );
      row(
        `first screen (${FIRST_SCREEN} tiles)`,
        (v) => v.firstScreenMs,
        p === 'Slow 3G' ? { text: '<= 7 s', max: 7 } : { text: '<= 2.5 s', max: 2.5 },
      );
      if (!profile.bytes) continue;
      for (const type of ['Image', 'Document', 'Script', 'Stylesheet', 'Fetch', 'Other']) {
        const value = kib(med('now', p, (v) => v.bytes[type] ?? 0));
        const baseline = kib(med('baseline', p, (v) => v.bytes[type] ?? 0));
        if (value === 0 && baseline === 0) continue;
        const isImage = type === 'Image';
        rows.push({
          name: `${p}: page 1 ${type.toLowerCase()} bytes${isImage ? ' (all 48 tiles, no scrolling)' : ''}`,
          value,
          unit: 'KiB',
          baseline,
          ...(isImage ? { target: '<= 0.5x', pass: value <= 0.5 * baseline } : {}),
        });
      }
    }
    printReport(`phone gallery (390×844 at 3×, ${PHOTOS} 24 MP photos; baseline ${BASELINE_REV.slice(0, 12)})`, rows);
    const asked = (server: string) => [...new Set(visits.get(`${server}/Wi-Fi`)?.[0]?.asked ?? [])].join(', ');
    say(`first screen's images asked for: ${asked('now')} (baseline: ${asked('baseline')})`);
  } finally {
    await browser?.close();
    for (const s of servers) await s.stop();
    await rm(work, { recursive: true, force: true });
  }
}
