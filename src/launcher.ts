/**
 * How `npm start` (scripts/start.mjs) runs the server on Linux: as a child process started
 * with `MALLOC_ARENA_MAX=2`, because glibc reads that variable only when a process starts.
 *
 * Why: image work (thumbnails, previews, print files) runs in libvips' threads, and glibc
 * keeps what each thread freed in an arena of its own. Capped at two arenas, the server grew
 * 86-151 MB (median 127) while a 200-file print ZIP streamed, against 172-179 MB without
 * (bench/RESULTS.md, 2026-11-25; the print-files bench's target is 150 MB). The launcher
 * left in between holds about 7 MB of its own (the rest of its RSS is Node's code, shared
 * with the server). The Docker image sets the variable itself; docs/operations.md says how
 * for systemd.
 *
 * Elsewhere (macOS, Windows, musl) and when MALLOC_ARENA_MAX is already set, the server runs
 * in the launcher's own process, as before.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const ARENA_CAP = '2';

type Runtime = { platform: NodeJS.Platform; glibc: string | undefined };

function thisRuntime(): Runtime {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return { platform: process.platform, glibc: header?.glibcVersionRuntime };
}

/** The variables to add to `env` for the server's process: the arena cap on glibc, unless set. */
export function allocatorEnv(
  env: Record<string, string | undefined>,
  runtime: Runtime = thisRuntime(),
): Record<string, string> {
  if (runtime.platform !== 'linux' || !runtime.glibc || env.MALLOC_ARENA_MAX !== undefined) return {};
  return { MALLOC_ARENA_MAX: ARENA_CAP };
}

/** The signals passed on to the server (what npm, a terminal, systemd and Docker send). */
const RELAYED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `node <entry>` with `env` and resolves with the exit code to leave with (128 + the
 * signal's number when the server was killed by one). The server gets its own process group,
 * so that it hears each signal once, from here: a Ctrl-C that reached it from the terminal
 * and again from here would be two, and the server takes a second signal as "stop now,
 * skip the graceful part" (close-with-grace).
 */
export function runAsChild(entry: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, entry], { env, stdio: 'inherit', detached: true });
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
