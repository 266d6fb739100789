/**
 * `npm run bench -- images`
 *
 * (a) Hot path: a cached thumbnail (~30 KB) from the whole app, listening on loopback,
 *     against `@fastify/static` serving the very same bytes from a file. Each server runs
 *     in its own child process. The load comes from `wrk` when it is installed, else from
 *     a thin Node client below; both are light enough not to be the bottleneck, which
 *     autocannon is on 30 KB bodies (IMAGES_BENCH_CLIENT=wrk|thin|autocannon chooses;
 *     IMAGES_BENCH_ONLY=hot|cold runs one part).
 *     Target: >= 2.0x the static server's req/s.
 * (b) Cold page: 50 thumbnails of 24-megapixel JPEGs (6000 x 4000, generated here, cached
 *     in the temp folder between runs), none cached, requested six at a time like a
 *     browser. Target: <= 4 s on 2 cores. Baseline: sharp alone on the same files.
 */
import { execFile, fork } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { builtApp } from './lib/built.js';
import { load } from './lib/http-load.js';
import { cachedOriginals, photoLike } from './lib/originals.js';
import { type BenchRow, median, printReport } from './lib/report.js';

const run = promisify(execFile);
const SELF = fileURLToPath(import.meta.url);
const ROLE_ENV = 'IMAGES_BENCH_ROLE';

const HOT_SECONDS = 8;
const HOT_ROUNDS = 2;
const COLD_PHOTOS = 50;
const COLD_DISTINCT = 4;

// ----------------------------------------------------------------------- child servers

/** `code` comes URL-encoded. */
type ChildReady = { port: number; photos?: { code: string; id: string; version: string }[] };

async function childMain(role: string): Promise<void> {
  let port: number;
  let photos: ChildReady['photos'];
  if (role === 'app') {
    const { buildApp, loadConfig } = await builtApp();
    const app = await buildApp(loadConfig(process.env));
    await app.listen({ host: '127.0.0.1', port: 0 });
    // The photos were written a moment ago: listed once they have settled, as /readyz waits.
    await app.photos.ready();
    port = (app.server.address() as { port: number }).port;
    photos = app.photos.listEvents().flatMap((e) =>
      (app.photos.photosOf(e.code) ?? []).map((p) => ({
        code: encodeURIComponent(p.eventCode),
        id: p.id,
        version: p.version,
      })),
    );
  } else {
    const { default: Fastify } = await import('fastify');
    const { default: fastifyStatic } = await import('@fastify/static');
    const app = Fastify({ logger: false });
    await app.register(fastifyStatic, { root: process.env.STATIC_ROOT as string, prefix: '/static/' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  }
  process.send?.({ port, photos } satisfies ChildReady);
  // CPU time of the whole process (all threads, libvips included) on request.
  process.on('message', (msg) => {
    if (msg === 'cpu') process.send?.({ cpuUs: cpuMicros() });
  });
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

type Child = { ready: ChildReady; cpuMicros(): Promise<number>; stop(): Promise<void> };

function startChild(role: 'app' | 'static', env: Record<string, string>): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env, [ROLE_ENV]: role },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code})`)));
    child.once('message', (ready: ChildReady) => {
      resolve({
        ready,
        cpuMicros: () =>
          new Promise<number>((done) => {
            child.once('message', (m: { cpuUs: number }) => done(m.cpuUs));
            child.send('cpu');
          }),
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

// ----------------------------------------------------------------------- load clients

async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version']).catch((err: { stdout?: string }) => {
      // wrk --version prints its banner and exits 1.
      if (!String(err.stdout ?? '').includes('wrk')) throw err;
    });
    return true;
  } catch {
    return false;
  }
}

async function wrkRps(url: string, seconds: number): Promise<number> {
  const { stdout } = await run('wrk', ['-t1', '-c32', `-d${seconds}s`, url]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1];
  if (!rps) throw new Error(`unexpected wrk output:\n${stdout}`);
  if (non2xx) throw new Error(`${non2xx} error responses from ${url}`);
  return Number(rps);
}

/**
 * A deliberately thin HTTP/1.1 keep-alive client for machines without wrk: it frames
 * responses by Content-Length and never looks at body bytes, so on 30 KB bodies it costs
 * a fraction of what autocannon's full parser does (which tops out near 2k req/s here).
 */
async function thinClientRps(url: string, seconds: number, connections = 32): Promise<number> {
  const { hostname, port, pathname, search } = new URL(url);
  const request = Buffer.from(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  const sockets: net.Socket[] = [];
  let completed = 0;
  let failure: Error | undefined;
  let stopped = false;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      stopped = true;
      resolve();
    }, seconds * 1000);
    for (let i = 0; i < connections; i++) {
      const socket = net.connect(Number(port), hostname);
      socket.setNoDelay(true);
      let head: Buffer | undefined; // an incomplete header block
      let bodyLeft = 0;
      const done = () => {
        completed++;
        if (!stopped) socket.write(request);
      };
      socket.on('connect', () => socket.write(request));
      socket.on('data', (chunk: Buffer) => {
        let buf = chunk;
        while (buf.length > 0) {
          if (bodyLeft > 0) {
            const n = Math.min(bodyLeft, buf.length);
            bodyLeft -= n;
            buf = buf.subarray(n);
            if (bodyLeft === 0) done();
            continue;
          }
          const data = head ? Buffer.concat([head, buf]) : buf;
          const end = data.indexOf('\r\n\r\n');
          if (end < 0) {
            head = Buffer.from(data);
            return;
          }
          head = undefined;
          const text = data.toString('latin1', 0, end);
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1];
          if (!text.startsWith('HTTP/1.1 200') || length === undefined) {
            failure ??= new Error(`unexpected response from ${url}: ${text.split('\r\n')[0]}`);
            clearTimeout(timer);
            stopped = true;
            resolve();
            return;
          }
          bodyLeft = Number(length);
          buf = data.subarray(end + 4);
          if (bodyLeft === 0) done();
        }
      });
      socket.on('error', (err) => {
        failure ??= err;
      });
      sockets.push(socket);
    }
  });
  for (const s of sockets) s.destroy();
  if (failure) throw failure;
  return completed / seconds;
}

async function autocannonRps(url: string, seconds: number): Promise<number> {
  const result = await load({ url, connections: 32, durationS: seconds, workers: 2 });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`errors from ${url}`);
  return result.rps;
}

// ----------------------------------------------------------------------- fixtures

function fetchBuffer(url: string, agent?: http.Agent): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function appEnv(dir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(dir, 'data'),
    PHOTOS_DIR: path.join(dir, 'photos'),
    DEMO_LIBRARY: 'off',
    LIBRARY_RESCAN_INTERVAL_MS: '0',
    ADMIN_TOKENS: 'bench-admin-token-000000000000000000',
    CAPTCHA_PROVIDER: 'altcha',
    ALTCHA_HMAC_KEY: 'bench-hmac-key-0123456789',
    VERIFY_LINK_SECRET: 'bench-verify-secret-0123456789',
    PORT: '0',
  };
}

// ----------------------------------------------------------------------- (a) hot path

async function hotPath(root: string): Promise<BenchRow[]> {
  const dir = path.join(root, 'hot');
  await photoLike(path.join(dir, 'photos', 'BENCH', 'Day 1', 'Main', 'hot.jpg'), 1600, 1200, 7, 2);
  const app = await startChild('app', appEnv(dir));
  let staticServer: Child | undefined;
  try {
    const photo = app.ready.photos?.[0];
    if (!photo) throw new Error('the app indexed no photo');
    const appUrl = `http://127.0.0.1:${app.ready.port}/api/proxy-image/${photo.code}/${photo.id}?v=${photo.version}`;
    const first = await fetchBuffer(appUrl);
    if (first.status !== 200) throw new Error(`thumbnail: HTTP ${first.status}`);
    // The baseline serves exactly these bytes, from a file.
    await mkdir(path.join(dir, 'static'), { recursive: true });
    await writeFile(path.join(dir, 'static', 'thumb.jpg'), first.body);
    staticServer = await startChild('static', { STATIC_ROOT: path.join(dir, 'static') });
    const staticUrl = `http://127.0.0.1:${staticServer.ready.port}/static/thumb.jpg`;
    const check = await fetchBuffer(staticUrl);
    if (!check.body.equals(first.body)) throw new Error('the static server does not serve the same bytes');

    const wanted = process.env.IMAGES_BENCH_CLIENT;
    const client = wanted ?? ((await hasWrk()) ? 'wrk' : 'thin');
    const measure = { wrk: wrkRps, thin: thinClientRps, autocannon: autocannonRps }[client];
    if (!measure) throw new Error(`IMAGES_BENCH_CLIENT must be wrk, thin or autocannon, not ${client}`);
    // Warm both (JIT, connections), then alternate so neither gets the quieter moment.
    await measure(appUrl, 2);
    await measure(staticUrl, 2);
    const appRuns: number[] = [];
    const staticRuns: number[] = [];
    for (let i = 0; i < HOT_ROUNDS; i++) {
      staticRuns.push(await measure(staticUrl, HOT_SECONDS));
      appRuns.push(await measure(appUrl, HOT_SECONDS));
    }
    const appRps = median(appRuns);
    const staticRps = median(staticRuns);
    return [
      {
        name: `cached thumbnail (${(first.body.length / 1024).toFixed(0)} KB), app from memory [${client}, 32 conns]`,
        value: Math.round(appRps),
        unit: 'req/s',
        baseline: Math.round(staticRps),
        target: '>= 2.0x @fastify/static',
        pass: appRps >= 2 * staticRps,
      },
      { name: '  @fastify/static, same file (baseline)', value: Math.round(staticRps), unit: 'req/s' },
    ];
  } finally {
    await staticServer?.stop();
    await app.stop();
  }
}

// ----------------------------------------------------------------------- (b) cold page

async function coldPage(root: string): Promise<BenchRow[]> {
  const dir = path.join(root, 'cold');
  const distinct = await cachedOriginals(COLD_DISTINCT);
  let totalBytes = 0;
  for (let i = 0; i < COLD_PHOTOS; i++) {
    const target = path.join(dir, 'photos', 'COLD', 'Day 1', 'Main', `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(distinct[i % COLD_DISTINCT] as string, target);
    totalBytes += (await stat(target)).size;
  }
  const files = Array.from({ length: COLD_PHOTOS }, (_, i) =>
    path.join(dir, 'photos', 'COLD', 'Day 1', 'Main', `IMG_${String(i + 1).padStart(4, '0')}.jpg`),
  );

  // Baseline: sharp alone, same pipeline settings, one render per core.
  const cores = os.availableParallelism();
  const baselineCpu = cpuMicros();
  const baselineStart = performance.now();
  let nextFile = 0;
  await Promise.all(
    Array.from({ length: cores }, async () => {
      for (let f = files[nextFile++]; f; f = files[nextFile++]) {
        await sharp(f, { failOn: 'error' })
          .autoOrient()
          .resize({ width: 400, height: 400, fit: 'inside', withoutEnlargement: true })
          .jpeg({ quality: 80 })
          .toBuffer();
      }
    }),
  );
  const baselineMs = performance.now() - baselineStart;
  const baselineCpuMs = (cpuMicros() - baselineCpu) / 1000;

  const app = await startChild('app', appEnv(dir));
  try {
    const photos = app.ready.photos ?? [];
    if (photos.length !== COLD_PHOTOS) throw new Error(`the app indexed ${photos.length} photos`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const base = `http://127.0.0.1:${app.ready.port}`;
    const cpuBefore = await app.cpuMicros();
    const started = performance.now();
    const results = await Promise.all(
      photos.map((p) => fetchBuffer(`${base}/api/proxy-image/${p.code}/${p.id}?v=${p.version}`, agent)),
    );
    const pageMs = performance.now() - started;
    const pageCpuMs = ((await app.cpuMicros()) - cpuBefore) / 1000;
    if (results.some((r) => r.status !== 200)) throw new Error('a thumbnail failed');

    const previewStart = performance.now();
    const preview = await fetchBuffer(`${base}/api/preview/${photos[0]?.code}/${photos[0]?.id}`, agent);
    const previewMs = performance.now() - previewStart;
    if (preview.status !== 200) throw new Error('the preview failed');
    agent.destroy();

    const mb = totalBytes / COLD_PHOTOS / 1e6;
    return [
      {
        name: `cold page: ${COLD_PHOTOS} thumbnails of 24 MP JPEGs (${mb.toFixed(1)} MB each), 6 at a time`,
        value: Math.round(pageMs),
        unit: 'ms',
        baseline: Math.round(baselineMs),
        target: '<= 4000 ms',
        pass: pageMs <= 4000,
      },
      { name: `  sharp alone, ${cores} at a time (baseline)`, value: Math.round(baselineMs), unit: 'ms' },
      {
        // Wall time on a machine that is busy with other work says little; CPU time does.
        name: `  app CPU time for the page / ${cores} cores (not slowed by other load)`,
        value: Math.round(pageCpuMs / cores),
        unit: 'ms',
        baseline: Math.round(baselineCpuMs / cores),
        target: '<= 4000 ms',
        pass: pageCpuMs / cores <= 4000,
      },
      { name: '  cold watermarked preview of one 24 MP JPEG', value: Math.round(previewMs), unit: 'ms' },
    ];
  } finally {
    await app.stop();
  }
}

// ----------------------------------------------------------------------- entry points

export default async function imagesBench(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'images-bench-'));
  try {
    const only = process.env.IMAGES_BENCH_ONLY; // 'hot' or 'cold' runs one part
    const hot = only === 'cold' ? [] : await hotPath(root);
    const cold = only === 'hot' ? [] : await coldPage(root);
    printReport(`images (${os.availableParallelism()} cores)`, [...hot, ...cold]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const role = process.env[ROLE_ENV];
if (role) {
  childMain(role).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
