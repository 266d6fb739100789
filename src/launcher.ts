/**
 * How `npm start` (scripts/start.mjs) runs the server on Linux: as a child process started
 * with glibc's allocator settings below, because glibc reads them only when a process starts.
 *
 * Why: image work (thumbnails, previews, print files) runs in libvips' threads, and glibc
 * keeps what they freed: in an arena per thread, and, once a large block has been freed, in
 * the heap instead of giving blocks of up to that size back to the system (its "dynamic mmap
 * threshold"). Capped at two arenas with the threshold held at its initial 128 KiB, the server
 * peaked at 324-342 MB while a 200-file print ZIP streamed, against 368-380 MB with the cap
 * alone and more without either, at the same rate (bench/RESULTS.md, 2026-11-28; the
 * print-files bench's memory target). The launcher left in between holds about 7 MB of its
 * own (the rest of its RSS is Node's code, shared with the server). The Docker image sets the
 * variables itself; docs/operations.md says how for systemd.
 *
 * Elsewhere (macOS, Windows, musl) and when both variables are set already, the server runs
 * in the launcher's own process, as before.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** The settings, as the variables glibc reads (docs/operations.md, "Memory on Linux"). */
export const ALLOCATOR_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

type Runtime = { platform: NodeJS.Platform; glibc: string | undefined };

function thisRuntime(): Runtime {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return { platform: process.platform, glibc: header?.glibcVersionRuntime };
}

/** The variables to add to `env` for the server's process: those of the settings not set already, on glibc. */
export function allocatorEnv(
  env: Record<string, string | undefined>,
  runtime: Runtime = thisRuntime(),
): Record<string, string> {
  if (runtime.platform !== 'linux' || !runtime.glibc) return {};
  return Object.fromEntries(Object.entries(ALLOCATOR_SETTINGS).filter(([name]) => env[name] === undefined));
}

/** The signals passed on to the server (what npm, a terminal, systemd and Docker send). */
const RELAYED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `node <entry>` with `env` and resolves with the exit code to leave with (128 + the
 * signal's number when the server was killed by one). The server gets its own process group,
 * so that it hears each signal once, from here: a Ctrl-C that reached it from the terminal
 * and again from here would be two, and the server takes a second signal as "stop now,
 * skip the graceful part" (close-with-grace). Being in a group of its own, it would outlive
 * a launcher killed outright (SIGKILL, the OOM killer) and keep the port: the IPC channel
 * between the two tells it when the launcher is gone (`followLauncher`).
 */
export function runAsChild(entry: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, entry], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const relay = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of RELAYED) process.on(signal, relay);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const s of RELAYED) process.off(s, relay);
      if (code !== null) resolve(code);
      else resolve(128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/**
 * In the server: when it was started by `runAsChild` and the launcher goes away without
 * passing a signal on (killed outright), the server stops as on SIGTERM, gracefully. Started
 * any other way (no IPC channel), nothing happens. The channel does not keep the server alive.
 */
export function followLauncher(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
