/**
 * The real server (`src/server.ts`) in a child process, for fault tests that kill it,
 * restart it on the same data, or starve it of its dependencies:
 *
 *   const server = await startServer(t, { env: { DATA_DIR: dir, ORDER_STORE: 'sqlite' } });
 *   await fetch(`${server.url}/healthz`);
 *   await server.kill('SIGKILL');                        // no goodbye
 *   const again = await startServer(t, { env: server.env, port: server.port });
 *
 * It runs the server as production does, transpiled (scripts/build.mjs's esbuild command),
 * from a copy built once per run into the run's folder (test/support/run-once.ts), so it
 * runs the current sources and never depends on (or overwrites) dist/:
 * `node --import <run>/no-internet.js <run>/server.js` (worker threads inherit the import),
 * so it can't reach the internet either, and `node` is the process killed. Under tsx each
 * start cost about 7.5 s of CPU (the loader, and each thread bundled at start), built about
 * 3.9 s; fault tests start the server by the dozen. Logs are JSON lines, kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'vitest';
import { ADMIN_TOKEN, TEST_WEB_DIR } from '../helpers/build.js';
import { builtServer } from './fault-server-build.js';
import { freePort } from './free-port.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

type LogLine = { level?: number; msg?: string; [key: string]: unknown };

export type ServerProcess = {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** The environment it was started with (to start another on the same data). */
  readonly env: Record<string, string>;
  /** Parsed JSON log lines so far (stdout), and stderr text. */
  readonly logs: LogLine[];
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** The environment tests start from: quiet, no demo library, a known admin token. */
export function serverEnv(dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PHOTOS_DIR: path.join(dataDir, 'photos'),
    DEMO_LIBRARY: 'off',
    ADMIN_TOKENS: ADMIN_TOKEN,
    LIBRARY_RESCAN_INTERVAL_MS: '0',
    // The fixtures write whole files just before start; waiting for them to settle would only
    // make the first orders refer to photos not listed yet (docs/gallery.md, safe intake).
    INTAKE_SETTLE_MS: '0',
    PUBLIC_BASE_URL: 'http://photos.test',
    WEB_DIR: TEST_WEB_DIR,
    ...env,
  };
}

export async function startServer(
  t: TestContext,
  opts: {
    env: Record<string, string>;
    port?: number;
    extraEnv?: Record<string, string>;
    /**
     * A command that runs the server in its place (it must exec it, so `pid` stays the
     * server's), e.g. `['prlimit', '--nofile=512:512', '--']` for a low descriptor limit.
     */
    launcher?: string[];
  },
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const env = { ...opts.env, PORT: String(port) };
  const built = await builtServer();
  const nodeArgs = ['--import', path.join(built, 'no-internet.js'), path.join(built, 'server.js')];
  const [command, ...args] = [...(opts.launcher ?? []), process.execPath, ...nodeArgs] as [string, ...string[]];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? '',
      ...env,
      ...opts.extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let stderr = '';
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      logs.push({ msg: line });
    }
    if (logs.length > 50_000) logs.splice(0, 10_000);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  t.onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });

  // Ready when /healthz answers, or failed when it exits: no deadline of its own (a 60 s one
  // failed on a loaded machine; a start that hangs fails on the test's timeout, and the
  // child is killed when the test ends, which ends this loop).
  const url = `http://127.0.0.1:${port}`;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (true) {
    if (done) throw new Error(`the server exited while starting:\n${stderr}\n${JSON.stringify(logs.slice(-5))}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    pid: child.pid as number,
    env,
    logs,
    stderr: () => stderr,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
