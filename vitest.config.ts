import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/no-internet.ts'],
    // A folder for work done once per run (the browser app's build), and one PostgreSQL
    // server for the run (a fresh database per test) instead of one per file.
    globalSetup: ['test/setup/run-dir.ts', 'test/setup/postgres-shared.ts'],
    pool: 'forks',
    // Two workers on two cores: much of a file's time is spent waiting on its own child
    // processes (PostgreSQL, servers, Chromium), which the other worker fills.
    maxWorkers: 2,
    // A worker keeps its module graph from file to file: importing the app afresh for each of
    // ~210 files cost about 300 s of a run. Tests keep their state per test (build(t), temp
    // dirs, fresh databases), never in module globals, so a file can't see another's state.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on an event, not a clock: its 1 s default failed browser steps when
    // CI ran the face indexer beside them. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
