/**
 * The admin token the server generates on its first start (no ADMIN_TOKENS) is a credential:
 * it is shown on the operator's terminal, and only there (docs/contract.md, "Hardening").
 * Logs are collected, shipped and kept by other systems; they name the file that holds the
 * token, never the token.
 *
 * The real server (`src/server.ts`, transpiled as in production) in a child process: once with stdout a pipe (a service
 * manager, Docker, a log collector), once with stdout a pseudo-terminal (`script` from
 * util-linux), as an operator typing `npm start` would have.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type TestContext, test } from 'vitest';
import { tempDir } from '../helpers/build.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { builtServer } from '../support/fault-server-build.js';
import { freePort } from '../support/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN_FILE = 'admin-token';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Every process below `root`, from /proc (Linux): children first read, deepest last. */
async function descendants(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/**
 * The server with its stdout on a pseudo-terminal: `script -q -c <command> /dev/null` runs
 * it on a new pty and copies what it writes to our stdout. Resolves with everything written
 * once `/healthz` answers and the log has written `logged`.
 */
async function startOnTerminal(
  t: TestContext,
  env: Record<string, string>,
  logged: string,
): Promise<{ output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  // The server as startServer runs it: transpiled once per run (test/support/fault-server.ts).
  const built = await builtServer();
  const command = [process.execPath, '--import', path.join(built, 'no-internet.js'), path.join(built, 'server.js')]
    .map(shellQuote)
    .join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? '',
      TERM: 'dumb',
      ...env,
      PORT: String(port),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // its own process group: script, the shell and node end together
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => {
    output += d;
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      // `script` starts the command in a session of its own, so killing script's process
      // group misses the server: kill every descendant, found before script goes.
      const tree = [...(await descendants(child.pid)), child.pid];
      for (const pid of tree) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    }
  };
  t.onTestFinished(stop);
  // Until it answers, or failed when it exits (no deadline: a hang fails on the test's timeout).
  while (true) {
    if (child.exitCode !== null) throw new Error(`the server exited while starting:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // pino-pretty writes from a worker thread: wait until the start-up line naming the token
  // file has come through (every start logs it, after the terminal's own lines).
  while (!output.includes(logged)) {
    if (child.exitCode !== null) throw new Error(`the server exited before logging "${logged}":\n${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { output: () => output, stop };
}

test('stdout not a terminal: the log names the token file, never the token', { timeout: 180_000 }, async (t) => {
  const dataDir = await tempDir(t);
  const server = await startServer(t, { env: serverEnv(dataDir, { ADMIN_TOKENS: '', LOG_LEVEL: 'info' }) });
  await server.kill('SIGTERM');
  const file = path.join(dataDir, TOKEN_FILE);
  const token = (await readFile(file, 'utf8')).trim();
  expect(token.length).toBeGreaterThanOrEqual(24);
  const everything = `${JSON.stringify(server.logs)}\n${server.stderr()}`;
  expect(everything.includes(token)).toBe(false);
  // The operator is told where to find it.
  expect(server.logs.some((l) => JSON.stringify(l).includes(file))).toBe(true);
});

test('stdout a terminal: the token is shown once, on the first start', { timeout: 180_000 }, async (t) => {
  const dataDir = await tempDir(t);
  const env = serverEnv(dataDir, { ADMIN_TOKENS: '', LOG_LEVEL: 'info' });
  const tokenFile = path.join(dataDir, TOKEN_FILE);
  // Both starts log "... stored in <file>" (the terminal's own line says "kept in").
  const first = await startOnTerminal(t, env, `stored in ${tokenFile}`);
  const token = (await readFile(path.join(dataDir, TOKEN_FILE), 'utf8')).trim();
  expect(first.output()).toContain(token);
  expect(first.output()).toContain(path.join(dataDir, TOKEN_FILE));
  await first.stop();

  // A later start uses the stored token and says where it is, without showing it again.
  const again = await startOnTerminal(t, env, `stored in ${tokenFile}`);
  expect(again.output()).toContain(path.join(dataDir, TOKEN_FILE));
  expect(again.output()).not.toContain(token);
});
