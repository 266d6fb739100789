/**
 * `npm run bench:soak`: 10 minutes of moderate load (the load bench's mix, paced to
 * SOAK_RATE requests/s over SOAK_CONNECTIONS connections) against the server in its own
 * process, sampling its resident memory, heap (after a full GC) and open file descriptors
 * every SOAK_SAMPLE_S seconds.
 *
 * Targets: resident memory at the end within 10 % of what it was after the warm-up
 * (SOAK_WARMUP_S, the first 2 minutes: caches filled, JIT settled), and no file descriptor
 * leaked: once the load has stopped and its connections are closed, the server holds as
 * many descriptors as before the load began. Errors: 0.
 *
 * Knobs: SOAK_DURATION_S (600), SOAK_WARMUP_S (120), SOAK_RATE (400), SOAK_CONNECTIONS (20),
 * SOAK_SAMPLE_S (10), LOAD_LOG_LEVEL (info).
 */
import os from 'node:os';
import { type BenchRow, printReport } from '../lib/report.js';
import { runLoad } from './client.js';
import { errorCount, routeRows } from './rows.js';
import { fdTargets, makeWorld, requestMix, startServer, warmImages } from './server.js';
import type { ServerStats } from './server-child.js';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 600);
const WARMUP_S = Number(process.env.SOAK_WARMUP_S ?? 120);
const RATE = Number(process.env.SOAK_RATE ?? 400);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
const LOG_LEVEL = process.env.LOAD_LOG_LEVEL ?? 'info';

const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const started = Date.now();
  const world = await makeWorld();
  const server = await startServer(world, { logLevel: LOG_LEVEL, exposeGc: true });
  try {
    const mix = await requestMix(server.port);
    await warmImages(server.port, [...mix.thumbnails, ...mix.previews]);
    // A short run of the mix first, so that what starts on first use (the mail thread, with
    // its event loop and pipes) is there before descriptors are counted; then let its
    // keep-alive connections close (5 s server side).
    await runLoad({ port: server.port, connections: CONNECTIONS, durationS: 10, routes: mix.routes, rate: RATE });
    await sleep(6_000);
    const idleBefore = await server.stats();
    const fdsListBefore = await fdTargets(server.child.pid as number);

    process.stdout.write(
      `soak: ${DURATION_S} s at ${RATE} req/s over ${CONNECTIONS} connections; warm-up ${WARMUP_S} s\n`,
    );
    const samples: { t: number; s: ServerStats }[] = [];
    const t0 = Date.now();
    const load = runLoad({
      port: server.port,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      routes: mix.routes,
      rate: RATE,
    });
    let finished = false;
    void load.then(() => {
      finished = true;
    });
    while (!finished) {
      await Promise.race([sleep(SAMPLE_S * 1000), load]);
      if (finished) break;
      const s = await server.stats();
      const t = (Date.now() - t0) / 1000;
      samples.push({ t, s });
      process.stdout.write(
        `  t=${t.toFixed(0).padStart(4)} s  rss ${mb(s.rss).toFixed(1).padStart(6)} MB  heap after GC ${mb(
          s.heapAfterGc ?? s.heapUsed,
        )
          .toFixed(1)
          .padStart(
            6,
          )} MB  external ${mb(s.external).toFixed(1).padStart(6)} MB  fds ${s.fds ?? '?'}  mail queued ${s.pendingMail}\n`,
      );
    }
    const run = await load;
    await sleep(6_000);
    const idleAfter = await server.stats();
    const fdsListAfter = await fdTargets(server.child.pid as number);

    const afterWarmup = samples.find((x) => x.t >= WARMUP_S) ?? samples[0];
    const last = samples[samples.length - 1];
    if (!afterWarmup || !last) throw new Error('no samples: is SOAK_DURATION_S longer than SOAK_SAMPLE_S?');
    const growth = (last.s.rss - afterWarmup.s.rss) / afterWarmup.s.rss;
    const maxAfterWarmup = Math.max(...samples.filter((x) => x.t >= afterWarmup.t).map((x) => x.s.rss));
    const errors = errorCount(run);
    const total = run.routes.reduce((sum, r) => sum + r.count, 0);
    const fdsBefore = idleBefore.fds ?? Number.NaN;
    const fdsAfter = idleAfter.fds ?? Number.NaN;
    const rows: BenchRow[] = [
      { name: `requests served (${total} in ${DURATION_S} s)`, value: Math.round(total / DURATION_S), unit: 'req/s' },
      ...routeRows(run),
      {
        name: `errors${errors.text ? ` (${errors.text})` : ''}`,
        value: errors.total,
        unit: '',
        target: '0',
        pass: errors.total === 0,
      },
      { name: `server RSS after warm-up (t=${afterWarmup.t.toFixed(0)} s)`, value: mb(afterWarmup.s.rss), unit: 'MB' },
      {
        name: `server RSS at the end (t=${last.t.toFixed(0)} s)`,
        value: mb(last.s.rss),
        unit: 'MB',
        baseline: mb(afterWarmup.s.rss),
        target: '< 1.10x after warm-up',
        pass: growth < 0.1,
      },
      { name: '  highest RSS after warm-up', value: mb(maxAfterWarmup), unit: 'MB' },
      {
        name: '  heap after a full GC: after warm-up -> end',
        value: mb(last.s.heapAfterGc ?? last.s.heapUsed),
        unit: 'MB',
        baseline: mb(afterWarmup.s.heapAfterGc ?? afterWarmup.s.heapUsed),
      },
      {
        name: 'open file descriptors, idle: before the load -> after it',
        value: fdsAfter,
        unit: 'fds',
        baseline: fdsBefore,
        target: '<= before + 2',
        pass: fdsAfter <= fdsBefore + 2,
      },
      { name: '  most descriptors during the load', value: Math.max(...samples.map((x) => x.s.fds ?? 0)), unit: 'fds' },
      { name: 'receipts queued for the mail thread at the end', value: last.s.pendingMail, unit: 'mails' },
    ];
    if ((idleAfter.fds ?? 0) > (idleBefore.fds ?? 0) + 2) {
      // Name what is held, so that a leak can be found.
      const extra = [...fdsListAfter];
      for (const t of fdsListBefore) {
        const i = extra.indexOf(t);
        if (i >= 0) extra.splice(i, 1);
      }
      process.stdout.write(`  descriptors held after the load that were not before: ${extra.join(', ')}\n`);
    }
    printReport(
      `soak: ${RATE} req/s for ${DURATION_S} s, ${CONNECTIONS} connections, ${os.availableParallelism()} cores, log level ${LOG_LEVEL}`,
      rows,
    );
    process.stdout.write(`  (took ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    if (!rows.every((r) => r.pass !== false)) process.exitCode = 1;
  } finally {
    await server.stop();
    await world.close();
  }
}

await main();
