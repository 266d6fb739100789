/**
 * `npm run bench:load`: the last evening of a convention. A mixed workload at 100
 * connections for 60 s against the whole server (its own process, production defaults,
 * SQLite store, mail to files, JSON logs at `info` to a discarded stdout), on loopback:
 * 85 % gallery pages (asked for gzipped, as browsers do), 10 % thumbnails, 4 % watermarked
 * previews, 1 % order submissions and 1 % order submissions with a package and a coupon
 * (their p99 against the plain orders')
 * (booth orders with admin credentials: each one is stored durably and its receipt, with
 * both labels rendered, is queued for the mail thread).
 *
 * Reports throughput, p50/p99 per route, errors (target 0), the server's resident memory
 * at start, after warm-up and at the end, the CPU each side used, and the mail backlog.
 * Images are fetched once before (warm caches, as hours into an event); cold rendering
 * has its own bench (`npm run bench -- images`). When `wrk` is installed, a second, shorter
 * run of the same mix with wrk cross-checks the throughput (wrk can't give latency per route).
 *
 * Knobs: LOAD_DURATION_S (60), LOAD_CONNECTIONS (100), LOAD_LOG_LEVEL (info),
 * LOAD_WRK=0 skips the wrk pass; LOAD_CPU_PROFILE=<dir> keeps the server's CPU profile;
 * LOAD_SERVER_ENV="NAME=value,..." sets server variables; LOAD_GZIP_PAGES=0 asks for gallery
 * pages without Accept-Encoding (browsers always send it; figures before 2026-11-28 did not).
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasCommand } from '../lib/processes.js';
import { type BenchRow, printReport } from '../lib/report.js';
import { type LoadRun, percentileOf, runLoad } from './client.js';
import { errorCount, routeRows } from './rows.js';
import { couponRace, makeWorld, requestMix, startServer, warmImages } from './server.js';

const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);
const LOG_LEVEL = process.env.LOAD_LOG_LEVEL ?? 'info';
const WARMUP_S = 5;
const WRK_S = 15;

const mb = (b: number) => Math.round(b / 1024 / 1024);

/**
 * p99 of the orders with a package and a coupon against the plain orders' in the same run, and
 * the plain orders' against the gallery page's: with the server at full CPU, every request's
 * p99 is mostly waiting its turn, and that wait moves with the machine from run to run and
 * day to day. An order also waits for its fsync and a turn of the event loop to hear of it
 * (bench/RESULTS.md, 2026-11-24 night): its p99 against the page's of the same run is the
 * order's own cost, comparable across days.
 */
function sellingRows(run: LoadRun): BenchRow[] {
  const p99 = (prefix: string) => {
    const r = run.routes.find((x) => x.name.startsWith(prefix));
    return r && r.latenciesMs.length > 0
      ? percentileOf(
          [...r.latenciesMs].sort((a, b) => a - b),
          99,
        )
      : null;
  };
  const plain = p99('order (POST');
  const selling = p99('order with a package');
  const page = p99('gallery page');
  if (plain === null || selling === null || page === null) return [];
  const ratio = selling / plain;
  const ofPage = plain / page;
  // "No worse" within the run-to-run noise of a p99 over ~600 samples on a shared machine.
  return [
    {
      name: 'p99 orders with a package and a coupon ÷ p99 plain orders (same run)',
      value: Math.round(ratio * 100) / 100,
      unit: '×',
      target: '≤ 1.2',
      pass: ratio <= 1.2,
    },
    {
      // The 2026-11-22 code measured 1.46 and 1.50 on 2026-11-24.
      name: 'p99 plain orders ÷ p99 gallery pages (same run)',
      value: Math.round(ofPage * 100) / 100,
      unit: '×',
      target: '≤ 1.6 (proposed)',
      pass: ofPage <= 1.6,
    },
  ];
}

/** The same mix through wrk (one thread): total throughput and latency over all routes. */
async function wrkPass(port: number, mix: Awaited<ReturnType<typeof requestMix>>, dir: string): Promise<BenchRow[]> {
  // Formatted in init(): at load time wrk has not set the Host header yet (HTTP/1.1 without
  // Host is a 400).
  const lua = [
    'local reqs = {}',
    'init = function(args)',
    ...mix.routes.flatMap((r) => {
      // The same weights: a 100-slot table of pre-formatted requests.
      const slots = Math.round(r.weight);
      return Array.from({ length: slots }, (_, i) => {
        const raw = (r.requests[i % r.requests.length] as Buffer).toString('latin1');
        const [head = '', body = ''] = raw.split('\r\n\r\n');
        const [line = '', ...headerLines] = head.split('\r\n');
        const [method, reqPath] = line.split(' ');
        const headers = headerLines
          // wrk adds Host and Content-Length itself (two Content-Lengths would be a 400).
          .filter((h) => !/^(host|content-length):/i.test(h))
          .map((h) => {
            const k = h.slice(0, h.indexOf(':'));
            return `[${JSON.stringify(k)}]=${JSON.stringify(h.slice(k.length + 1).trim())}`;
          })
          .join(',');
        return `reqs[#reqs+1] = wrk.format(${JSON.stringify(method)}, ${JSON.stringify(reqPath)}, {${headers}}, ${body ? JSON.stringify(body) : 'nil'})`;
      });
    }),
    'end',
    'math.randomseed(42)',
    'request = function() return reqs[math.random(#reqs)] end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nRESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout + e.status))',
    'end',
  ].join('\n');
  const script = path.join(dir, 'mix.lua');
  await writeFile(script, lua);
  const out = execFileSync(
    'wrk',
    ['-t1', `-c${CONNECTIONS}`, `-d${WRK_S}s`, '--timeout', '10s', '-s', script, `http://127.0.0.1:${port}`],
    {
      encoding: 'utf8',
    },
  );
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`unexpected wrk output:\n${out}`);
  const r = JSON.parse(line.slice(7)) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p99_us: number;
    errors: number;
  };
  return [
    {
      name: `wrk -t1 -c${CONNECTIONS}, same mix, ${WRK_S} s: requests/s (all routes)`,
      value: Math.round(r.requests / (r.duration_us / 1e6)),
      unit: 'req/s',
    },
    { name: '  p50 / p99 over all routes', value: r.p50_us / 1000, unit: `ms / ${(r.p99_us / 1000).toFixed(1)} ms` },
    { name: '  errors (wrk: socket errors and non-2xx)', value: r.errors, unit: '', target: '0', pass: r.errors === 0 },
  ];
}

async function main(): Promise<void> {
  const started = Date.now();
  process.stdout.write(`load: writing the library...\n`);
  const world = await makeWorld();
  const server = await startServer(world, { logLevel: LOG_LEVEL });
  try {
    const atStart = await server.stats();
    const mix = await requestMix(server.port);
    process.stdout.write(
      `load: ${world.photoCount} photos; warming ${mix.thumbnails.length} thumbnails and ${mix.previews.length} previews...\n`,
    );
    const warmMs = await warmImages(server.port, [...mix.thumbnails, ...mix.previews]);
    process.stdout.write(`load: warm-up run (${WARMUP_S} s)...\n`);
    await runLoad({ port: server.port, connections: CONNECTIONS, durationS: WARMUP_S, routes: mix.routes });
    const afterWarmup = await server.stats();

    process.stdout.write(`load: measuring, ${CONNECTIONS} connections for ${DURATION_S} s`);
    const clientCpu = process.cpuUsage();
    const run = await runLoad({
      port: server.port,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      routes: mix.routes,
      onTick: (_, s) => {
        if (Math.round(s) % 10 === 0) process.stdout.write('.');
      },
    });
    const clientUs = process.cpuUsage(clientCpu);
    process.stdout.write('\n');
    const atEnd = await server.stats();

    const total = run.routes.reduce((s, r) => s + r.count, 0);
    const errors = errorCount(run);
    const rows: BenchRow[] = [
      {
        name: `throughput, all routes (${total} requests in ${DURATION_S} s)`,
        value: Math.round(total / DURATION_S),
        unit: 'req/s',
      },
      ...routeRows(run),
      {
        name: `errors${errors.text ? ` (${errors.text})` : ''}`,
        value: errors.total,
        unit: '',
        target: '0',
        pass: errors.total === 0,
      },
      { name: 'server RSS at start (listening, library indexed)', value: mb(atStart.rss), unit: 'MB' },
      { name: 'server RSS after warm-up (images cached)', value: mb(afterWarmup.rss), unit: 'MB' },
      { name: 'server RSS at the end', value: mb(atEnd.rss), unit: 'MB' },
      {
        name: 'server CPU during the run (all threads; 2 = both cores)',
        value: (atEnd.cpuUs - afterWarmup.cpuUs) / 1e6 / DURATION_S,
        unit: 'cores',
      },
      {
        name: 'load client CPU (this process)',
        value: (clientUs.user + clientUs.system) / 1e6 / DURATION_S,
        unit: 'cores',
      },
      { name: 'receipts still queued for the mail thread at the end', value: atEnd.pendingMail, unit: 'mails' },
      { name: 'image warm-up before the run (renders, 4 at a time)', value: Math.round(warmMs), unit: 'ms' },
    ];
    rows.push(...sellingRows(run));
    process.stdout.write("load: 50 orders at once for a coupon's last 5 uses...\n");
    const race = await couponRace(server.port, mix.numbers);
    const raceOk = race.placed === 5 && race.refused === 45 && race.other === 0 && race.uses === 8;
    rows.push({
      name: `coupon race: orders placed of 50 for the last 5 uses (${race.refused} refused, ${race.other} other; coupon uses ${race.uses} of 8)`,
      value: race.placed,
      unit: '',
      target: '5',
      pass: raceOk,
    });
    if (process.env.LOAD_WRK !== '0' && hasCommand('wrk')) {
      process.stdout.write(`load: wrk cross-check (${WRK_S} s)...\n`);
      rows.push(...(await wrkPass(server.port, mix, world.root)));
    }
    printReport(
      `load: mixed workload, ${CONNECTIONS} connections, ${DURATION_S} s, ${os.availableParallelism()} cores, log level ${LOG_LEVEL}, load average at start ${os.loadavg()[0]?.toFixed(2)}`,
      rows,
    );
    process.stdout.write(`  (took ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    if (errors.total > 0 || !raceOk) process.exitCode = 1;
  } finally {
    await server.stop();
    await world.close();
  }
}

await main();
