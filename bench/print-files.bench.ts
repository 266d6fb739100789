/**
 * `npm run bench -- print-files`: a 200-line order's print files as one streamed ZIP
 * (`GET /api/orders/{id}/print-files`) from 24-megapixel originals.
 *
 * - Library: 40 photos of 6000 × 4000 (copies of 8 camera-like originals, bench/lib/originals.ts),
 *   each ordered in five lines: 120 4x6, 40 5x7 and 40 8x10 prints, crops here and there,
 *   as a booth sells them.
 * - Baseline, in the same run: sharp alone rendering the very same 200 print files with the
 *   same pipeline (the app's renderPrintFile, compiled) and as many at a time as the app (one
 *   per core), each written to a file and deleted, as the server spools them. Measured
 *   before and after the ZIP; the mean. Its RSS growth over its own idle (one print
 *   rendered) is printed beside the server's: what libvips and the allocator cost for these
 *   files with no server around them.
 * - Both the app and the baseline run with the same environment: glibc's allocator variables
 *   (MALLOC_*, which the Docker image sets: docs/operations.md) when the bench's caller sets
 *   them, its default allocator otherwise, so that rates and memory compare like with like.
 * - The app (the compiled server, `dist/`) runs alone in a child process; another child
 *   downloads the ZIP over loopback as fast as it comes while it asks for a gallery page
 *   50 times a second (a few visitors browsing). The app samples its resident memory every
 *   50 ms and its event-loop delay.
 * - The server's growth is its peak while the ZIP streams over its cold start (listening,
 *   library indexed, no request yet): a base that moves little from run to run. Its "idle",
 *   after it has answered gallery pages and rendered one print (libvips started), is printed
 *   too; it moves with what V8 holds at that moment. The app renders nothing else: its
 *   thumbnails are taken to be made already, as on the day after the event (INTAKE_INSPECT
 *   off).
 * Every process measured runs at raised priority when the bench runs as root
 * (bench/lib/processes.ts), to depend less on whatever else the machine runs.
 *
 * Targets: the ZIP streams at ≥ 0.8× the baseline's files per second; the server's peak memory
 * (its RSS growth while the ZIP streams, over its cold start) is ≤ 1.0× sharp alone's peak
 * growth rendering the same prints in the same run, over its own cold start (before its first
 * print); gallery p99 ≤ 50 ms while the ZIP runs. The growth in MB is printed too, without a
 * target (it is mostly libvips' and glibc's, and moves with the allocator). CPU time per file
 * and the gallery's p99 without a ZIP are printed too: on a shared machine they tell the cost
 * of the ZIP from the wait for a core.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { builtApp, importBuilt } from './lib/built.js';
import { cachedOriginals } from './lib/originals.js';
import { startRole, stopChild } from './lib/processes.js';
import { percentile, printReport } from './lib/report.js';

const SELF = fileURLToPath(import.meta.url);
const ROLE_VAR = 'PRINT_FILES_BENCH_ROLE';
const EVENT = 'PRINTBENCH';
const TOKEN = 'bench-admin-token-0123456789abcdef';
const DISTINCT = 8;
const PHOTOS = 40;
// Overridable for quick experiments; the default is what the targets are about.
const LINES = Number(process.env.PRINT_FILES_BENCH_LINES ?? 200);
const SIZES = ['4x6', '4x6', '5x7', '4x6', '8x10'] as const;
const INCHES: Record<string, [number, number]> = { '4x6': [4, 6], '5x7': [5, 7], '8x10': [8, 10] };
const GALLERY_PER_S = 50;
const GALLERY_ALONE_S = 10;
const GALLERY_PATH = `/event/${EVENT}?limit=50`;

type Line = { number: string; size: string; quantity: number; crop?: { x: number; y: number } };
type Memory = {
  kind: 'memory';
  rss: number;
  peak: number;
  cpuUs: number;
  loopP99: number;
  busy: number;
  /** Where the memory was, now and at the peak (diagnostics, no target). */
  now: Breakdown;
  atPeak: Breakdown;
};
/** RSS split by the kernel (anonymous, file-backed) and by V8 (heap, memory outside it), in bytes. */
type Breakdown = {
  rss: number;
  anon: number;
  file: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  threads: number;
  /** libvips' operation cache now (sharp.cache()), and its high-water mark, MB. */
  vipsCache: number;
  vipsCacheHigh: number;
};
type ChildMsg =
  | { kind: 'listening'; port: number; numbers: Record<string, string> }
  | Memory
  | { kind: 'baseline'; ms: number; cpuMs: number; growth: number; cold: Breakdown; idle: Breakdown; atPeak: Breakdown }
  | { kind: 'gallery'; latencies: number[]; errors: string[] }
  | { kind: 'zip'; ms: number; bytes: number; entries: number; latencies: number[]; errors: string[] };

const send = (m: ChildMsg) => process.send?.(m);
const need = (name: string) => process.env[name] ?? '';

const { default: sharpLib } = await import('sharp');

/** The process's memory as the kernel, V8 and libvips see it. */
function breakdown(): Breakdown {
  // Linux only; elsewhere the kernel's split and the thread count print as 0.
  const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const { memory } = sharpLib.cache();
  return {
    rss,
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    heapTotal,
    heapUsed,
    external,
    arrayBuffers,
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    vipsCache: memory.current,
    vipsCacheHigh: memory.high,
  };
}

/** Samples the RSS every 50 ms; keeps the breakdown at its highest sample. */
function peakSampler() {
  let atPeak = breakdown();
  const timer = setInterval(() => {
    if (process.memoryUsage.rss() > atPeak.rss) atPeak = breakdown();
  }, 50);
  timer.unref();
  return {
    peak: () => atPeak,
    reset: () => {
      atPeak = breakdown();
    },
    stop: () => clearInterval(timer),
  };
}

const fileName = (i: number) => `IMG_${String(i + 1).padStart(4, '0')}.jpg`;

// ----------------------------------------------------------------------- children

async function appChild(): Promise<void> {
  const { buildApp, loadConfig } = await builtApp();
  const app = await buildApp(
    loadConfig({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DEMO_LIBRARY: 'off',
      LIBRARY_RESCAN_INTERVAL_MS: '0',
      // Print files are made after the event, by a server whose thumbnails were made when the
      // photos came in (a restart finds them cached and renders none). With the intake's
      // renders of the 40 originals right after start-up, the server would hold what the
      // allocator kept from them before the ZIP began, and the ZIP's growth would look smaller
      // than it is.
      INTAKE_INSPECT: 'off',
      ADMIN_TOKENS: TOKEN,
      CAPTCHA_PROVIDER: 'altcha',
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.photos.ready();
  let peak = process.memoryUsage.rss();
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50).unref();
  const sampler = peakSampler();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let elu = perf.eventLoopUtilization();
  process.on('message', (m) => {
    if (m !== 'memory' && m !== 'reset') return;
    const rss = process.memoryUsage.rss();
    const { user, system } = process.cpuUsage();
    const busy = perf.eventLoopUtilization(elu).utilization;
    send({
      kind: 'memory',
      rss,
      peak: Math.max(peak, rss),
      cpuUs: user + system,
      loopP99: loop.percentile(99) / 1e6,
      busy,
      now: breakdown(),
      atPeak: sampler.peak(),
    });
    if (m === 'reset') {
      peak = rss;
      sampler.reset();
      loop.reset();
      elu = perf.eventLoopUtilization();
    }
  });
  const numbers = Object.fromEntries((app.photos.photosOf(EVENT) ?? []).map((p) => [p.fileName, p.number]));
  send({ kind: 'listening', port: (app.server.address() as { port: number }).port, numbers });
}

/** Renders every line with sharp alone, one per core, as the app does. */
async function baselineChild(): Promise<void> {
  const { renderPrintFile } =
    await importBuilt<typeof import('../src/services/prints/render.js')>('services/prints/render.js');
  const lines = JSON.parse(need('BENCH_LINES')) as (Line & { file: string })[];
  // Written to a file and deleted, as the server spools each file for the ZIP.
  const out = await mkdtemp(path.join(os.tmpdir(), 'print-files-baseline-'));
  let n = 0;
  const render = async (l: Line & { file: string }) => {
    const file = path.join(out, `${n++}.jpg`);
    await renderPrintFile(l.file, INCHES[l.size] as [number, number], l.crop, file);
    await rm(file);
  };
  // Idle as the app's: libvips started by one print. The growth over it is what rendering
  // these files costs the allocator without any server around it.
  const cold = breakdown();
  await render(lines[0] as Line & { file: string });
  const idle = process.memoryUsage.rss();
  const idleBreakdown = breakdown();
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  const detail = peakSampler();
  const limit = pLimit(os.availableParallelism());
  const cpu = process.cpuUsage();
  const started = performance.now();
  // Each file deleted once rendered, as the ZIP deletes it once written.
  await Promise.all(
    lines.map((l) =>
      limit(async () => {
        await render(l);
      }),
    ),
  );
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  detail.stop();
  await rm(out, { recursive: true, force: true });
  peak = Math.max(peak, process.memoryUsage.rss());
  send({
    kind: 'baseline',
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    growth: peak - idle,
    cold,
    idle: idleBreakdown,
    atPeak: detail.peak(),
  });
}

/** "0 errors", or how many and of which kind ("2 errors: ECONNRESET × 2"). */
function errorsText(errors: readonly string[]): string {
  if (errors.length === 0) return '0 errors';
  const kinds = new Map<string, number>();
  for (const e of errors) kinds.set(e, (kinds.get(e) ?? 0) + 1);
  const list = [...kinds].map(([kind, n]) => `${kind} × ${n}`).join(', ');
  return `${errors.length} error${errors.length === 1 ? '' : 's'}: ${list}`;
}

function get(port: number, urlPath: string, agent?: http.Agent): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent, headers: { authorization: `Bearer ${TOKEN}` } }, resolve)
      .on('error', reject);
  });
}

/** Asks for the gallery page GALLERY_PER_S times a second (without waiting for answers) until stopped. */
function galleryVisitors(port: number) {
  // First in, first out: every socket is used several times a second. With Node's default
  // (last in, first out) a socket could idle past the server's 5 s keep-alive and be taken
  // again just as the server closes it: an ECONNRESET of the client's making (a browser
  // retries those).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8, scheduling: 'fifo' });
  const latencies: number[] = [];
  // What went wrong, one entry per failed request: the status, or the socket's error code.
  const errors: string[] = [];
  const timer = setInterval(() => {
    const started = performance.now();
    get(port, GALLERY_PATH, agent)
      .then((res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else errors.push(`HTTP ${res.statusCode}`);
        });
      })
      .catch((err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
  }, 1000 / GALLERY_PER_S);
  return async () => {
    clearInterval(timer);
    await new Promise((r) => setTimeout(r, 500));
    agent.destroy();
    return { latencies, errors };
  };
}

async function clientChild(): Promise<void> {
  const port = Number(need('BENCH_PORT'));
  const what = need('BENCH_CLIENT');
  const stop = galleryVisitors(port);
  if (what === 'gallery') {
    await new Promise((r) => setTimeout(r, GALLERY_ALONE_S * 1000));
    send({ kind: 'gallery', ...(await stop()) });
    return;
  }
  const started = performance.now();
  const res = await get(port, `/api/orders/${need('BENCH_ORDER')}/print-files`);
  if (res.statusCode !== 200) throw new Error(`print files: HTTP ${res.statusCode}`);
  let bytes = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of res) {
    bytes += (chunk as Buffer).length;
    tail = Buffer.concat([tail, chunk as Buffer]).subarray(-22);
  }
  const ms = performance.now() - started;
  // The end-of-central-directory record says how many entries the archive has.
  const entries = tail.readUInt32LE(0) === 0x06054b50 ? tail.readUInt16LE(10) : -1;
  send({ kind: 'zip', ms, bytes, entries, ...(await stop()) });
}

// ----------------------------------------------------------------------- parent

function role<M extends ChildMsg>(name: string, env: Record<string, string>) {
  return startRole<M>({ script: SELF, roleVar: ROLE_VAR, role: name, env, boost: true });
}

function ask(child: ChildProcess, what: 'memory' | 'reset'): Promise<Memory> {
  return new Promise((resolve) => {
    const on = (m: ChildMsg) => {
      if (m.kind !== 'memory') return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send(what);
  });
}

/** Runs a child role to its single report. */
async function once<M extends ChildMsg>(name: string, env: Record<string, string>): Promise<M> {
  const { child, msg } = await role<M>(name, env);
  await stopChild(child);
  return msg;
}

/** Five lines per photo, the sizes of SIZES, a crop on every third line. */
function orderLines(numbers: Record<string, string>): Line[] {
  return Array.from({ length: LINES }, (_, i) => {
    const photo = numbers[fileName(i % PHOTOS)] as string;
    const size = SIZES[Math.floor(i / PHOTOS) % SIZES.length] as string;
    return { number: photo, size, quantity: (i % 3) + 1, ...(i % 3 === 0 ? { crop: { x: (i % 7) / 6, y: 0.5 } } : {}) };
  });
}

async function post(port: number, urlPath: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: urlPath,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      },
      async (res) => {
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

export default async function printFilesBench(): Promise<void> {
  const cores = os.availableParallelism();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'print-files-bench-'));
  const photosDir = path.join(dir, 'photos');
  const sessionDir = path.join(photosDir, EVENT, 'Day 1', 'Main');
  try {
    process.stdout.write('  the 24 MP originals (made once, kept between runs)…\n');
    const originals = await cachedOriginals(DISTINCT);
    await mkdir(sessionDir, { recursive: true });
    await writeFile(
      path.join(photosDir, EVENT, 'event.json'),
      JSON.stringify({ prefix: 'PB26', prices: { '4x6': 5, '5x7': 10, '8x10': 20 } }),
    );
    for (let i = 0; i < PHOTOS; i++) {
      await copyFile(originals[i % DISTINCT] as string, path.join(sessionDir, fileName(i)));
    }

    const app = await role<Extract<ChildMsg, { kind: 'listening' }>>('app', {
      DATA_DIR: path.join(dir, 'data'),
      PHOTOS_DIR: photosDir,
    });
    const { port, numbers } = app.msg;
    try {
      const lines = orderLines(numbers);
      const files = Object.fromEntries(Object.entries(numbers).map(([f, n]) => [n, path.join(sessionDir, f)]));
      const baselineEnv = {
        BENCH_LINES: JSON.stringify(lines.map((l) => ({ ...l, file: files[l.number] }))),
      };

      const cold = await ask(app.child, 'memory');
      const created = await post(port, '/api/orders/create', {
        eventSlug: EVENT,
        photos: lines,
        customerInfo: { name: 'Bench Customer', email: 'bench@example.com' },
        fulfillmentType: 'pickup',
      });
      if (created.status !== 201) throw new Error(`order: HTTP ${created.status} ${JSON.stringify(created.json)}`);
      const { orderNumber } = created.json as { orderNumber: string };
      // Warm: one print rendered (libvips started), the gallery page cached.
      const one = await post(port, '/api/orders/create', {
        eventSlug: EVENT,
        photos: lines.slice(0, 1),
        customerInfo: { name: 'Bench Warm-up', email: 'warm@example.com' },
        fulfillmentType: 'pickup',
      });
      const warm = await get(port, `/api/orders/${(one.json as { orderNumber: string }).orderNumber}/print-files`);
      warm.resume();
      await new Promise((r) => warm.once('end', r));

      process.stdout.write('  the gallery alone…\n');
      const alone = await once<Extract<ChildMsg, { kind: 'gallery' }>>('client', {
        BENCH_PORT: String(port),
        BENCH_CLIENT: 'gallery',
      });

      process.stdout.write('  baseline: sharp alone (in another process), gallery visitors meanwhile…\n');
      const [before, contended] = await Promise.all([
        once<Extract<ChildMsg, { kind: 'baseline' }>>('baseline', baselineEnv),
        new Promise((r) => setTimeout(r, 2000)).then(() =>
          once<Extract<ChildMsg, { kind: 'gallery' }>>('client', { BENCH_PORT: String(port), BENCH_CLIENT: 'gallery' }),
        ),
      ]);

      await new Promise((r) => setTimeout(r, 1000));
      const idle = await ask(app.child, 'reset');
      process.stdout.write('  the ZIP, with gallery visitors…\n');
      const zip = await once<Extract<ChildMsg, { kind: 'zip' }>>('client', {
        BENCH_PORT: String(port),
        BENCH_CLIENT: 'zip',
        BENCH_ORDER: orderNumber,
      });
      const during = await ask(app.child, 'memory');
      if (zip.entries !== LINES) throw new Error(`the ZIP has ${zip.entries} entries, not ${LINES}`);

      process.stdout.write('  baseline again…\n');
      const again = await once<Extract<ChildMsg, { kind: 'baseline' }>>('baseline', baselineEnv);

      const baseMs = (before.ms + again.ms) / 2;
      const baseRate = LINES / (baseMs / 1000);
      const zipRate = LINES / (zip.ms / 1000);
      const mb = (b: number) => b / 1024 / 1024;
      // Over the cold start, not over "idle": idle is sampled after the warm-up, when what V8
      // happens to hold moves it by tens of MB from run to run (189-243 MB on 2026-11-28, some
      // runs below the cold start); the cold start moved 208-221 MB.
      const growth = mb(during.peak - cold.rss);
      const baseGrowth = mb((before.growth + again.growth) / 2);
      const baseColdGrowth = mb([before, again].reduce((sum, b) => sum + b.growth + b.idle.rss - b.cold.rss, 0) / 2);
      const p99 = percentile(zip.latencies, 99);
      printReport(
        `print files: ${LINES} lines (120 4x6, 40 5x7, 40 8x10) from ${PHOTOS} 24 MP originals, ${(zip.bytes / 1e6).toFixed(0)} MB ZIP`,
        [
          {
            name: 'ZIP streamed, files per second',
            value: zipRate,
            unit: 'files/s',
            baseline: baseRate,
            target: '>= 0.8x sharp alone',
            pass: zipRate >= 0.8 * baseRate,
          },
          {
            name: `  sharp alone, ${cores} at a time (${(before.ms / 1000).toFixed(0)} s, then ${(again.ms / 1000).toFixed(0)} s)`,
            value: baseRate,
            unit: 'files/s',
          },
          {
            // The absolute figure is mostly libvips' and glibc's (bench/RESULTS.md, 2026-11-24
            // night): this ratio is what the server adds on top of rendering. Both sides are
            // measured from their own cold start, before their first print (libvips not
            // started): until 2026-11-29 sharp alone's was taken after its first print and the
            // server's before it, which charged the server for libvips' start (bench/RESULTS.md,
            // 2026-11-29 session 7).
            name: 'server peak memory ÷ sharp alone’s for the same prints (RSS growth over each one’s cold start)',
            value: growth / baseColdGrowth,
            unit: 'x',
            target: '<= 1.0x',
            pass: growth <= baseColdGrowth,
          },
          {
            name: '  server RSS growth while streaming (peak - cold start)',
            value: growth,
            unit: 'MB',
            baseline: baseColdGrowth,
          },
          {
            name: '  sharp alone: RSS growth over its own cold start (mean of its two runs)',
            value: baseColdGrowth,
            unit: 'MB',
          },
          {
            name: `  server RSS cold ${mb(cold.rss).toFixed(0)} MB, idle ${mb(idle.rss).toFixed(0)} MB, peak`,
            value: mb(during.peak),
            unit: 'MB',
          },
          { name: '  server RSS peak - idle (after the warm-up)', value: mb(during.peak - idle.rss), unit: 'MB' },
          {
            // The measure before 2026-11-29, for comparison with older figures.
            name: '  sharp alone: RSS growth over its idle after one print',
            value: baseGrowth,
            unit: 'MB',
          },
          { name: '  server ÷ that (the measure before 2026-11-29)', value: growth / baseGrowth, unit: 'x' },
          {
            name: `gallery page p99 while streaming (${zip.latencies.length} requests, ${errorsText(zip.errors)})`,
            value: p99,
            unit: 'ms',
            baseline: percentile(alone.latencies, 99),
            target: '<= 50 ms',
            pass: p99 <= 50 && zip.errors.length === 0,
          },
          { name: '  gallery page p50 while streaming', value: percentile(zip.latencies, 50), unit: 'ms' },
          {
            name: `  gallery page p99 without a ZIP (${alone.latencies.length} requests)`,
            value: percentile(alone.latencies, 99),
            unit: 'ms',
          },
          {
            name: '  gallery page p99 while sharp renders in another process (no ZIP)',
            value: percentile(contended.latencies, 99),
            unit: 'ms',
          },
          { name: '  server event-loop delay p99 while streaming', value: during.loopP99, unit: 'ms' },
          { name: '  server event-loop utilisation while streaming', value: during.busy * 100, unit: '%' },
          {
            name: 'server CPU time per file (all threads)',
            value: (during.cpuUs - idle.cpuUs) / 1000 / LINES,
            unit: 'ms',
            baseline: (before.cpuMs + again.cpuMs) / 2 / LINES,
          },
        ],
      );
      // Where each process's memory was (diagnostics, no target): the kernel's split of the
      // RSS, V8's heap and the memory outside it (Buffers), libvips' operation cache.
      const row = (b: Breakdown) =>
        [
          `rss ${mb(b.rss).toFixed(0)}`,
          `anon ${mb(b.anon).toFixed(0)}`,
          `file ${mb(b.file).toFixed(0)}`,
          `heap ${mb(b.heapUsed).toFixed(0)}/${mb(b.heapTotal).toFixed(0)}`,
          `external ${mb(b.external).toFixed(0)} (buffers ${mb(b.arrayBuffers).toFixed(0)})`,
          `vips cache ${b.vipsCache.toFixed(0)} (high ${b.vipsCacheHigh.toFixed(0)})`,
          `${b.threads} threads`,
        ].join(', ');
      process.stdout.write(
        [
          '  memory, MB:',
          `    server cold:          ${row(cold.now)}`,
          `    server idle:          ${row(idle.now)}`,
          `    server at its peak:   ${row(during.atPeak)}`,
          `    server after the ZIP: ${row(during.now)}`,
          ...[before, again].flatMap((b, i) => [
            `    sharp alone ${i + 1} cold:    ${row(b.cold)}`,
            `    sharp alone ${i + 1} idle:    ${row(b.idle)}`,
            `    sharp alone ${i + 1} peak:    ${row(b.atPeak)}`,
          ]),
          '',
        ].join('\n'),
      );
      const malloc = Object.entries(process.env)
        .filter(([name]) => name.startsWith('MALLOC_'))
        .map(([name, value]) => `${name}=${value}`);
      process.stdout.write(
        `  (load average while measuring: ${os.loadavg()[0]?.toFixed(1)} on ${cores} cores; ${malloc.join(' ') || "glibc's default allocator"})\n`,
      );
    } finally {
      await stopChild(app.child);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const childRole = process.env[ROLE_VAR];
if (childRole === 'app') await appChild();
else if (childRole === 'baseline') await baselineChild();
else if (childRole === 'client') await clientChild();
