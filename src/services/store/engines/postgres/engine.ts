/**
 * The PostgreSQL engine (`ORDER_STORE=postgres`), for several server processes sharing one
 * database, as the SQL layer's `Db` (sql/db.ts). Values come back as SQLite's do; `Tx.lock` is
 * a transaction-scoped advisory lock. Connection failures are STORE_UNAVAILABLE, and the pool
 * replaces broken connections, so the engine recovers by itself. Every commit is durable
 * (`relaxed` too).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { ConfigError } from '../../../../config/env.js';
import { type Logger, silentLogger } from '../../../../lib/logger.js';
import { logMigrated } from '../../logger.js';
import type { Db, Dialect, Param, Queryable, Row, Tx } from '../../sql/db.js';
import { isUnavailable, mapPgError } from './errors.js';
import { MIGRATION_LOCK_KEY, POSTGRES_MIGRATIONS } from './migrations.js';

export type PostgresEngineOptions = {
  connectionString: string;
  /** Connections this process keeps (DATABASE_POOL_SIZE). */
  poolSize?: number;
  log?: Logger;
  /** How long to wait for a connection before STORE_UNAVAILABLE (ms). */
  connectTimeoutMs?: number;
  /** Client-side limit on one query (ms): a hung server becomes STORE_UNAVAILABLE. */
  queryTimeoutMs?: number;
};

/** `postgres://user@host:port/db` without the password, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

const TIMESTAMPTZ = 1184;
const INT8 = 20;
const parseTimestamp = pg.types.getTypeParser(TIMESTAMPTZ);

/** Timestamps as `toISOString()` text and bigints as numbers, like SQLite's rows (money and counts fit). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ) return (v: string) => (parseTimestamp(v) as Date).toISOString();
    if (oid === INT8) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The advisory lock key of a name: 64 bits of its SHA-256, as a signed bigint (an integer: safe to inline). */
const lockKey = (name: string) => createHash('sha256').update(name).digest().readBigInt64BE(0).toString();

/** Rows per multi-row INSERT (a batch of creates is at most 200). */
const MAX_ROWS = 256;

/** A value written into SQL text: numbers as they are, text quoted by the driver. */
function literal(client: pg.PoolClient, v: Param): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  // NUL can't travel in a query's text; PostgreSQL refuses it as a value too (→ 400).
  if (v.includes('\u0000')) throw mapPgError(Object.assign(new Error('NUL in text'), { code: '22021' }));
  return client.escapeLiteral(v);
}

export class PostgresEngine implements Db {
  readonly dialect: Dialect = {
    engine: 'postgres',
    forUpdate: ' FOR UPDATE',
    forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  };
  private readonly prepared = new Map<string, { name: string; text: string }>();
  /** Statements outside a transaction, each on whichever pooled connection is free. */
  private readonly direct: Queryable;

  private constructor(
    readonly pool: pg.Pool,
    readonly url: string,
  ) {
    this.direct = this.queryable(pool);
  }

  /** Connects and migrates; a database that can't be used stops start-up naming DATABASE_URL. */
  static async open(options: PostgresEngineOptions): Promise<PostgresEngine> {
    const log = options.log ?? silentLogger;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 15_000,
      keepAlive: true,
      application_name: 'photo-order-store',
      types,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
    });
    // A pooled connection that breaks while idle (server restart) must not crash the process:
    // the pool drops it and opens a new one on the next checkout.
    pool.on('error', (err) => log.warn({ err: err.message }, 'order store: idle PostgreSQL connection lost'));
    try {
      await migrate(pool, log);
    } catch (err) {
      await pool.end().catch(() => {});
      if (err instanceof ConfigError) throw err;
      const reason = (err as Error).message || (err as { code?: string }).code || String(err);
      throw new ConfigError(
        `DATABASE_URL: cannot use the PostgreSQL database at ${describeUrl(options.connectionString)}: ${reason}`,
        {
          cause: err,
        },
      );
    }
    log.info({ url: describeUrl(options.connectionString) }, 'order store: PostgreSQL ready');
    return new PostgresEngine(pool, options.connectionString);
  }

  /** The statement for `sql`: `?` numbered, named once per text (unnamed: parsed each time). */
  private statement(sql: string, params: readonly Param[], named = true): pg.QueryConfig {
    let p = this.prepared.get(sql);
    if (!p) {
      let n = 0;
      p = { name: `s${this.prepared.size + 1}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      if (named) this.prepared.set(sql, p);
    }
    return named
      ? { name: p.name, text: p.text, values: params as unknown[] }
      : { text: p.text, values: params as unknown[] };
  }

  private queryable(
    client: pg.Pool | pg.PoolClient,
  ): Queryable & { result(sql: string, params?: readonly Param[], named?: boolean): Promise<pg.QueryResult> } {
    const result = async (sql: string, params: readonly Param[] = [], named = true) => {
      try {
        return await client.query(this.statement(sql, params, named));
      } catch (err) {
        throw mapPgError(err);
      }
    };
    return {
      result,
      all: async <R>(sql: string, params?: readonly Param[]) => (await result(sql, params)).rows as R[],
      get: async <R>(sql: string, params?: readonly Param[]) => (await result(sql, params)).rows[0] as R | undefined,
      run: async (sql, params) => (await result(sql, params)).rowCount ?? 0,
      eachRow: async (sql, params, each) => {
        let rows: unknown[][];
        try {
          rows = (await client.query({ ...this.statement(sql, params), rowMode: 'array' })).rows as unknown[][];
        } catch (err) {
          throw mapPgError(err);
        }
        for (const values of rows) each(values);
        return rows.length;
      },
    };
  }

  all<R = Row>(sql: string, params?: readonly Param[]): Promise<R[]> {
    return this.direct.all<R>(sql, params);
  }

  get<R = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined> {
    return this.direct.get<R>(sql, params);
  }

  run(sql: string, params?: readonly Param[]): Promise<number> {
    return this.direct.run(sql, params);
  }

  eachRow(sql: string, params: readonly Param[], each: (values: unknown[]) => void): Promise<number> {
    return this.direct.eachRow(sql, params, each);
  }

  /**
   * One transaction on one connection; a connection that failed is destroyed, not reused.
   * Round trips are what a transaction costs here (the server's fsync is shared; target: the
   * `store` bench's creates/s at 10 concurrent): BEGIN, a first lock and the first statement go
   * as one message (values inlined, quoted by the driver), and `insert` writes every row in one
   * statement, so a batch of creates costs three round trips.
   */
  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw mapPgError(err);
    }
    // A connection lost between two statements reports it as an event (the next statement then
    // fails, and the connection is destroyed below): without a listener it would crash the process.
    const lost = () => {};
    client.on('error', lost);
    const c = client;
    const q = this.queryable(c);
    let begun = false;
    let lock = '';
    const result = async (sql: string, params: readonly Param[] = [], named = true): Promise<pg.QueryResult> => {
      if (begun) return q.result(sql, params, named);
      begun = true;
      let i = 0;
      const text = sql.replace(/\?/g, () => literal(c, params[i++] ?? null));
      try {
        const results = (await c.query(`BEGIN;${lock} ${text}`)) as unknown as pg.QueryResult[];
        return results[results.length - 1] as pg.QueryResult;
      } catch (err) {
        throw mapPgError(err);
      }
    };
    const tx: Tx = {
      all: async <R>(sql: string, params?: readonly Param[]) => (await result(sql, params)).rows as R[],
      get: async <R>(sql: string, params?: readonly Param[]) => (await result(sql, params)).rows[0] as R | undefined,
      run: async (sql, params) => (await result(sql, params)).rowCount ?? 0,
      eachRow: async (sql, params, each) => {
        // The transaction's first statement travels with BEGIN as text (object rows); the rest as arrays.
        if (begun) return q.eachRow(sql, params, each);
        const { rows } = await result(sql, params);
        for (const row of rows) each(Object.values(row));
        return rows.length;
      },
      insert: async (table, columns, rows, conflict = '') => {
        for (let at = 0; at < rows.length; at += MAX_ROWS) {
          const chunk = rows.slice(at, at + MAX_ROWS);
          const tuple = `(${columns.map(() => '?').join(', ')})`;
          const values = Array.from({ length: chunk.length }, () => tuple).join(', ');
          // Unnamed when several rows: each size would be a prepared statement of its own.
          await result(
            `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values} ${conflict}`,
            chunk.flat(),
            chunk.length === 1,
          );
        }
      },
      lock: async (name) => {
        if (begun) await q.run('SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))', [lockKey(name)]);
        else lock += ` SELECT pg_advisory_xact_lock(${lockKey(name)});`;
      },
    };
    try {
      const out = await fn(tx);
      if (begun) await c.query('COMMIT');
      c.release();
      return out;
    } catch (err) {
      if (isUnavailable(err)) {
        c.release(err as Error);
      } else {
        try {
          await c.query('ROLLBACK');
          c.release();
        } catch (rollbackErr) {
          c.release(rollbackErr as Error);
        }
      }
      throw mapPgError(err);
    } finally {
      // Released: back with the pool's own listener, or ended.
      c.off('error', lost);
    }
  }

  async changeMarker(): Promise<string> {
    const row = await this.direct.get<{ lsn: string }>('SELECT CAST(pg_current_wal_lsn() AS text) AS lsn');
    return row?.lsn ?? '';
  }

  async health(): Promise<{ ok: boolean; details: Record<string, unknown> }> {
    try {
      await this.pool.query('SELECT 1');
      return { ok: true, details: { engine: 'postgres', url: describeUrl(this.url) } };
    } catch (err) {
      return { ok: false, details: { engine: 'postgres', error: (mapPgError(err) as Error).message } };
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

async function migrate(pool: pg.Pool, log: Logger): Promise<void> {
  const client = await pool.connect();
  const lost = () => {};
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS order_store_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM order_store_migrations');
    const current = rows[0]?.v ?? 0;
    const latest = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
    if (current > latest) {
      throw new ConfigError(
        `DATABASE_URL: the database has order store schema version ${current}, newer than this server knows (${latest}); upgrade the server`,
      );
    }
    const steps = POSTGRES_MIGRATIONS.filter((x) => x.version > current);
    for (const m of steps) {
      await client.query(m.sql);
      await client.query('INSERT INTO order_store_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      log.debug({ version: m.version, migration: m.name }, 'order store: PostgreSQL migration applied');
    }
    logMigrated(log, 'the PostgreSQL database', current, steps);
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    client.release(err as Error);
    throw err;
  } finally {
    client.off('error', lost);
  }
}
