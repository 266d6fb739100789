/**
 * src/lib/npm-signals.ts: under `npm start` a terminal's Ctrl-C reaches the server twice (the
 * terminal's and npm's copy); the copy does not cut the graceful stop short, another signal
 * still stops at once, and outside npm nothing is heard here.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { signalsRelayedByNpm } from '../../src/lib/npm-signals.js';

const CHILD = fileURLToPath(new URL('../support/npm-signals-child.ts', import.meta.url));

function start(): { child: ChildProcess; next: () => Promise<Record<string, unknown>> } {
  const child = fork(CHILD, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, npm_lifecycle_event: 'start' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = async () => (await once(child, 'message'))[0] as Record<string, unknown>;
  return { child, next };
}

describe('signals under npm start', () => {
  test('only npm runs relay: SIGINT and SIGTERM under npm, none otherwise', () => {
    expect(signalsRelayedByNpm({ npm_lifecycle_event: 'start' })).toEqual(['SIGINT', 'SIGTERM']);
    expect(signalsRelayedByNpm({})).toEqual([]);
  });

  test("npm's copy of the first signal is the same signal: the graceful stop goes on", async () => {
    const { child, next } = start();
    expect(await next()).toEqual({ ready: true });
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    expect(await next()).toEqual({ stopping: 'SIGINT' });
    child.kill('SIGINT');
    child.send('done');
    expect((await exited)[0]).toBe(0);
  });

  test('another signal while stopping stops at once (code 1)', async () => {
    const { child, next } = start();
    expect(await next()).toEqual({ ready: true });
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    expect(await next()).toEqual({ stopping: 'SIGINT' });
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(1);
  });
});
