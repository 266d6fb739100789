/**
 * src/launcher.ts: the allocator settings `npm start` gives the server on glibc, and the
 * launcher between npm and the server: the variables reach the server, a Ctrl-C (which a
 * terminal sends to the whole foreground process group) is one signal for it, every signal
 * sent to the launcher is passed on, a launcher killed outright stops the server too, and
 * the server's exit code, or the signal that killed it, is the launcher's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ALLOCATOR_SETTINGS, allocatorEnv } from '../src/launcher.js';
import { waitFor } from './support/photos-fixtures.js';

const RUN = fileURLToPath(new URL('./support/launcher-run.ts', import.meta.url));

describe('allocatorEnv', () => {
  const glibc = { platform: 'linux' as const, glibc: '2.36' };

  test('caps the arenas and holds the mmap threshold on Linux with glibc', () => {
    expect(allocatorEnv({}, glibc)).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  test('leaves a variable the operator set alone, and adds the other', () => {
    expect(allocatorEnv({ MALLOC_ARENA_MAX: '8' }, glibc)).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(allocatorEnv({ MALLOC_ARENA_MAX: '8', MALLOC_MMAP_THRESHOLD_: '65536' }, glibc)).toEqual({});
  });

  test('adds nothing where glibc is not the allocator (macOS, Windows, musl)', () => {
    expect(allocatorEnv({}, { platform: 'darwin', glibc: undefined })).toEqual({});
    expect(allocatorEnv({}, { platform: 'win32', glibc: undefined })).toEqual({});
    expect(allocatorEnv({}, { platform: 'linux', glibc: undefined })).toEqual({});
  });
});

type Said = { ready?: true; arena?: string | null; mmapThreshold?: string | null; pid?: number; heard?: string[] };

/** The launcher (in a process group of its own, as npm's script is) and what its server says. */
function launch(t: { onTestFinished(fn: () => void): void }, env: Record<string, string> = {}) {
  const launcher = spawn(process.execPath, ['--import', 'tsx', RUN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const lines = createInterface({ input: launcher.stdout as NodeJS.ReadableStream });
  const unread: Said[] = [];
  const waiting: ((s: Said) => void)[] = [];
  let serverPid: number | undefined;
  lines.on('line', (line) => {
    const msg = JSON.parse(line) as Said;
    serverPid ??= msg.pid;
    const reader = waiting.shift();
    if (reader) reader(msg);
    else unread.push(msg);
  });
  const next = () =>
    new Promise<Said>((resolve) => {
      const msg = unread.shift();
      if (msg) resolve(msg);
      else waiting.push(resolve);
    });
  const exited = once(launcher, 'exit') as Promise<[number | null, string | null]>;
  t.onTestFinished(() => {
    for (const pid of [launcher.pid, serverPid]) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {}
    }
  });
  return { launcher, next, exited };
}

/** A Ctrl-C as a terminal delivers it: to the launcher's whole process group. */
const ctrlC = (launcher: ChildProcess) => process.kill(-(launcher.pid as number), 'SIGINT');
/** The process group of `pid` (Linux: the third field after the command in /proc/<pid>/stat). */
const processGroup = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[2];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Whether process `pid` still runs (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runAsChild', () => {
  test('the server gets the environment; a Ctrl-C reaches it once', async (t) => {
    const { launcher, next, exited } = launch(t, ALLOCATOR_SETTINGS);
    const ready = await next();
    expect(ready).toMatchObject({ ready: true, arena: '2', mmapThreshold: '131072' });
    expect(ready.pid).not.toBe(launcher.pid);
    // Its own process group: a terminal's Ctrl-C reaches it only through the launcher.
    expect(processGroup(ready.pid as number)).not.toBe(processGroup(launcher.pid as number));
    ctrlC(launcher);
    expect((await next()).heard).toEqual(['SIGINT']);
    expect(await exited).toEqual([0, null]);
  });

  test('every signal sent to the launcher is passed on (a second one: stop now)', async (t) => {
    const { launcher, next, exited } = launch(t, { SERVER_LISTEN_MS: '1000' });
    await next();
    launcher.kill('SIGTERM');
    await sleep(300);
    launcher.kill('SIGHUP');
    expect((await next()).heard).toEqual(['SIGTERM', 'SIGHUP']);
    await exited;
  });

  test('a launcher killed outright (SIGKILL) stops the server as SIGTERM does: it does not hold the port', async (t) => {
    const { launcher, next, exited } = launch(t);
    const { pid } = await next();
    launcher.kill('SIGKILL');
    expect(await exited).toEqual([null, 'SIGKILL']);
    // Its own process group: the kill did not reach it; the launcher's going did.
    expect((await next()).heard).toEqual(['SIGTERM']);
    await waitFor(() => !alive(pid as number), 2000, 'the server exited');
  });

  test("the server's exit code is the launcher's", async (t) => {
    const { next, exited } = launch(t, { SERVER_EXIT_AT_ONCE: '1', SERVER_EXIT_CODE: '78' });
    await next();
    expect(await exited).toEqual([78, null]);
  });

  test('a server killed by a signal ends the launcher with 128 + its number', async (t) => {
    const { next, exited } = launch(t);
    const { pid } = await next();
    process.kill(pid as number, 'SIGKILL');
    expect(await exited).toEqual([137, null]);
  });
});
