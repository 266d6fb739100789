import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/no-internet.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on an event, not a clock: its 1 s default failed browser steps when
    // CI ran the face indexer beside them. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
