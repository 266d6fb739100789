/**
 * The SQLite engine (the default): `DATA_DIR/orders.db` through better-sqlite3, as the SQL
 * layer's `Db` (sql/db.ts). Durability: wal-sync.ts and checkpointer.ts. Every write
 * transaction is BEGIN IMMEDIATE (the whole database locked, also against other processes);
 * while one is open, every other statement of this connection waits for it (it would see
 * uncommitted rows). A failed sync stops the engine until a restart (STORE_UNAVAILABLE).
 */
import { closeSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../../../config/env.js';
import { isAppError } from '../../../../errors/catalogue.js';
import { type Logger, silentLogger } from '../../../../lib/logger.js';
import { outcomeUnknown, storeUnavailable } from '../../errors.js';
import { logMigrated } from '../../logger.js';
import type { Db, Dialect, Durability, Param, Queryable, Row, Tx } from '../../sql/db.js';
import { Checkpointer } from './checkpointer.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { openWal, type WalSync } from './wal-sync.js';
import { WalSyncThread } from './wal-sync-thread.js';

export type SqliteEngineOptions = {
  /** The database file, normally `DATA_DIR/orders.db`. */
  file: string;
  log?: Logger;
  /** How long a write waits for another process's lock before STORE_UNAVAILABLE. */
  busyTimeoutMs?: number;
  /** The variable to name when the file can't be opened (default DATA_DIR). */
  configVariable?: string;
  /** WAL checkpoints in a thread of their own every this many ms; 0 leaves them to SQLite. Default 200. */
  checkpointIntervalMs?: number;
  /** How a durable commit is synced (wal-sync.ts); tests inject one. */
  walSync?: WalSync;
};

const DEFAULT_CHECKPOINT_INTERVAL_MS = 200;

/** SQLite result codes that mean "the store can't be used right now", not a bug (→ 503). */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|NOLFS|AUTH|PERM)(_|$)/;
const STOPPED = 'The order database stopped after a failed sync to its disk; restart the server';

/** Engine errors as the SQL layer sees them: 503 for an unusable database; unique columns named. */
function mapError(err: unknown): unknown {
  if (isAppError(err)) return err;
  const { code, message = '' } = err as { code?: unknown; message?: string };
  if (typeof code === 'string' && UNAVAILABLE.test(code))
    return storeUnavailable('The order database is not available', err);
  if (err instanceof TypeError && /database connection is not open/.test(message)) {
    return storeUnavailable('The order store is closed', err);
  }
  const unique = /^UNIQUE constraint failed: (.*)$/.exec(message);
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' && unique) {
    // "orders.prefix, orders.seq" → "prefix,seq"
    const columns = (unique[1] ?? '').split(', ').map((c) => c.slice(c.indexOf('.') + 1));
    return Object.assign(err as Error, { uniqueColumns: columns.join(',') });
  }
  return err;
}

const bind = (params: readonly Param[]) => params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));

/**
 * Write transactions queue here, one queue per database file in this process: a transaction
 * spans several turns of the microtask queue, and a second connection to the same file (a
 * second store in one process: tests, tools) starting its own BEGIN IMMEDIATE meanwhile would
 * wait for the lock on the event loop, which the first can then never release.
 */
const queues = new Map<string, { tail: Promise<void> }>();

function queueOf(file: string): { tail: Promise<void> } {
  let key: string;
  try {
    key = realpathSync(file);
  } catch {
    key = path.resolve(file);
  }
  let q = queues.get(key);
  if (!q) {
    q = { tail: Promise.resolve() };
    queues.set(key, q);
  }
  return q;
}

export class SqliteEngine implements Db {
  readonly dialect: Dialect = { engine: 'sqlite', forUpdate: '', forUpdateSkipLocked: '' };
  private readonly statements = new Map<string, Database.Statement>();
  /** The same, returning rows as arrays (`eachRow`): a statement's mode is its own, so kept apart. */
  private readonly rawStatements = new Map<string, Database.Statement>();
  /** The transaction under way, if any: every other statement waits for it. */
  private open: Promise<void> | undefined;
  /** Transactions queue behind this (queueOf). */
  private readonly queue: { tail: Promise<void> };
  private wal: { fd: number; sync: WalSync } | undefined;
  private broken: Error | undefined;
  /** Transactions this connection committed (its own commits don't change `data_version`). */
  private commits = 0;
  private readonly tx: Tx;

  private constructor(
    private db: Database.Database | undefined,
    readonly file: string,
    private readonly log: Logger,
    /** The checkpoint thread, unless turned off. */
    readonly checkpointer: Checkpointer | undefined,
    /** The WAL sync thread, unless a test injected a sync. */
    readonly syncThread: WalSyncThread | undefined,
  ) {
    this.queue = queueOf(file);
    // Each call runs at once (better-sqlite3 is synchronous); errors come out mapped.
    const exec = <T>(sql: string, params: readonly Param[], how: (st: Database.Statement, p: unknown[]) => T) => {
      try {
        return Promise.resolve(how(this.statement(sql), bind(params)));
      } catch (err) {
        return Promise.reject(mapError(err));
      }
    };
    this.tx = {
      all: (sql, params = []) => exec(sql, params, (st, p) => st.all(...p) as never),
      get: (sql, params = []) => exec(sql, params, (st, p) => st.get(...p) as never),
      run: (sql, params = []) => exec(sql, params, (st, p) => st.run(...p).changes),
      eachRow: (sql, params, each) => {
        try {
          let n = 0;
          for (const values of this.rawStatement(sql).iterate(...bind(params))) {
            each(values as unknown[]);
            n++;
          }
          return Promise.resolve(n);
        } catch (err) {
          return Promise.reject(mapError(err));
        }
      },
      // One prepared statement, a row at a time: no round trips to save here.
      insert: async (table, columns, rows, conflict = '') => {
        const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ${conflict}`;
        for (const row of rows) await exec(sql, row, (st, p) => st.run(...p));
      },
      lock: () => Promise.resolve(),
    };
  }

  /** Opens (creating the file and its folder), migrates, and starts the threads. */
  static async open(options: SqliteEngineOptions): Promise<SqliteEngine> {
    const log = options.log ?? silentLogger;
    const busyTimeoutMs = Math.trunc(options.busyTimeoutMs ?? 5000);
    let db: Database.Database | undefined;
    try {
      mkdirSync(path.dirname(options.file), { recursive: true });
      db = new Database(options.file, { timeout: busyTimeoutMs });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      migrate(db, log);
    } catch (err) {
      db?.close();
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(
        `${options.configVariable ?? 'DATA_DIR'}: cannot open the order database ${options.file}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const intervalMs = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
    const checkpointer =
      intervalMs > 0 ? new Checkpointer({ db, file: options.file, intervalMs, busyTimeoutMs, log }) : undefined;
    const fd = openWal(options.file);
    const syncThread = fd !== undefined && !options.walSync ? new WalSyncThread() : undefined;
    const engine = new SqliteEngine(db, options.file, log, checkpointer, syncThread);
    if (fd === undefined) {
      log.warn({ file: options.file }, 'order store: no WAL file to sync; every commit syncs itself (FULL)');
    } else {
      engine.wal = { fd, sync: options.walSync ?? (syncThread as WalSyncThread).sync };
      db.pragma('synchronous = NORMAL');
    }
    log.info({ file: options.file }, 'order store: SQLite ready');
    return engine;
  }

  /** The connection's `PRAGMA synchronous` (1: NORMAL, 2: FULL), or undefined when closed. */
  get synchronous(): number | undefined {
    return this.db?.open ? (this.db.pragma('synchronous', { simple: true }) as number) : undefined;
  }

  private connection(): Database.Database {
    if (this.broken) throw storeUnavailable(STOPPED);
    if (!this.db?.open) throw storeUnavailable('The order store is closed');
    return this.db;
  }

  private statement(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.connection().prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private rawStatement(sql: string): Database.Statement {
    let st = this.rawStatements.get(sql);
    if (!st) {
      st = this.connection().prepare(sql).raw(true);
      this.rawStatements.set(sql, st);
    }
    return st;
  }

  /** A statement outside any transaction: after the one under way, if any. */
  private async outside<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    while (this.open) await this.open;
    try {
      this.connection();
      return await fn(this.tx);
    } catch (err) {
      throw mapError(err);
    }
  }

  all<R = Row>(sql: string, params?: readonly Param[]): Promise<R[]> {
    return this.outside((q) => q.all<R>(sql, params));
  }

  get<R = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined> {
    return this.outside((q) => q.get<R>(sql, params));
  }

  run(sql: string, params?: readonly Param[]): Promise<number> {
    this.commits++;
    return this.outside((q) => q.run(sql, params));
  }

  eachRow(sql: string, params: readonly Param[], each: (values: unknown[]) => void): Promise<number> {
    return this.outside((q) => q.eachRow(sql, params, each));
  }

  async changeMarker(): Promise<string> {
    return this.outside(async () => `${this.statement('PRAGMA data_version').pluck().get()}:${this.commits}`);
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, durability: Durability = 'durable'): Promise<T> {
    const before = this.queue.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.queue.tail = mine;
    await before;
    let result: T;
    try {
      // A WAL the checkpoint thread could not start over for a while: let it, with no commit under way.
      if (this.checkpointer?.wantsQuiet) await this.checkpointer.quietCheckpoint();
      this.open = mine;
      const db = this.connection();
      this.statement('BEGIN IMMEDIATE').run();
      try {
        result = await fn(this.tx);
        this.statement('COMMIT').run();
        this.commits++;
      } catch (err) {
        if (db.inTransaction) this.statement('ROLLBACK').run();
        throw err;
      }
    } catch (err) {
      throw mapError(err);
    } finally {
      this.open = undefined;
      done();
    }
    const wal = this.wal;
    if (durability !== 'relaxed' && wal) {
      try {
        // Alone: one caller's commit with no other transaction queued behind it (wal-sync.ts).
        await wal.sync(wal.fd, durability === 'durable' && this.queue.tail === mine);
      } catch (err) {
        this.stop(err);
        throw outcomeUnknown('The order database could not confirm a write on its disk; restart the server', err);
      }
    }
    return result;
  }

  /**
   * After a failed sync the commit may not be on disk, and no later sync on this file can be
   * trusted (wal-sync.ts): refuse everything until a restart. Logged once.
   */
  private stop(err: unknown): void {
    if (this.broken) return;
    this.broken = err instanceof Error ? err : new Error(String(err));
    this.log.error(
      { err },
      'order store: a commit could not be made durable; the store refuses everything until restarted',
    );
  }

  async health(): Promise<{ ok: boolean; details: Record<string, unknown> }> {
    // The file's name only: /readyz is public, and the server's folders are nobody's business.
    try {
      await this.get('SELECT 1');
      return { ok: true, details: { engine: 'sqlite', file: path.basename(this.file) } };
    } catch (err) {
      return { ok: false, details: { engine: 'sqlite', error: (err as Error).message } };
    }
  }

  /** Waits for the transaction under way, stops the threads, closes the file. */
  async close(): Promise<void> {
    await this.queue.tail;
    await this.syncThread?.stop();
    if (this.wal) closeSync(this.wal.fd);
    this.wal = undefined;
    await this.checkpointer?.stop();
    const db = this.db;
    this.db = undefined;
    this.statements.clear();
    this.rawStatements.clear();
    if (db?.open) db.close();
  }
}

/**
 * Applies the migrations newer than `user_version`, all in one BEGIN IMMEDIATE transaction
 * (the version is read inside it, so two processes starting at once don't both migrate).
 */
function migrate(db: Database.Database, log: Logger): void {
  const latest = SQLITE_MIGRATIONS.at(-1)?.version ?? 0;
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > latest) {
      throw new ConfigError(
        `DATA_DIR: ${db.name} has schema version ${current}, newer than this server knows (${latest}); upgrade the server`,
      );
    }
    const steps = SQLITE_MIGRATIONS.filter((x) => x.version > current);
    for (const m of steps) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
      log.debug({ version: m.version, migration: m.name }, 'order store: SQLite migration applied');
    }
    logMigrated(log, db.name, current, steps);
  }).immediate();
}
