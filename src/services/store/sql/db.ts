/**
 * The shared SQL layer: what the table modules in this folder write their SQL against, once,
 * and what each engine (engines/sqlite, engines/postgres) implements.
 *
 * - SQL text uses `?` placeholders; PostgreSQL's engine numbers them (`$1`, ...). Statements
 *   are prepared once per text and reused.
 * - Parameters are plain values: strings, numbers, booleans, null. SQLite gets booleans as
 *   0/1. JSON goes in as text (JSON.stringify).
 * - Rows come back with the same JS types from both engines, except booleans (SQLite: 0/1)
 *   and JSON columns (SQLite: text): read them with `bool()` and `json()` (values.ts).
 *   Timestamps are ISO strings, integers numbers.
 * - The little that differs in the SQL itself is in `Dialect` (row locks).
 *
 * Why not a query builder: Kysely 0.29 was measured against this on the create path
 * (docs/store.md, "Why a small SQL layer"): it cost about 100 µs of CPU more per order than
 * these cached statements, more than the fsync the order waits for.
 */

export type Row = Record<string, unknown>;
export type Param = string | number | boolean | null;

export interface Queryable {
  /** Every row. */
  all<R = Row>(sql: string, params?: readonly Param[]): Promise<R[]>;
  /** The first row, or undefined. */
  get<R = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
  /**
   * Every row as the array of its columns' values (in the statement's order), handed to `each`
   * one at a time; resolves with how many there were. For reads of very many rows (a restart
   * reads the whole photo catalogue): no object per row, and on SQLite no list of all rows
   * either, so each row can be collected as soon as `each` has used it. `each` must not run
   * statements (SQLite's connection is busy until the last row).
   */
  eachRow(sql: string, params: readonly Param[], each: (values: unknown[]) => void): Promise<number>;
}

/** What a transaction's function gets: the statements run inside the transaction. */
export interface Tx extends Queryable {
  /**
   * Inserts `rows` (values in `columns` order) into `table`: however the engine does that best
   * (SQLite: one prepared statement per row; PostgreSQL: multi-row statements, few round trips).
   * `conflict`, when given, follows the VALUES (`ON CONFLICT (...) DO ...`).
   */
  insert(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly Param[])[],
    conflict?: string,
  ): Promise<void>;
  /**
   * Holds the lock named `name` until the transaction ends: transactions that take the same
   * lock run one after another, also in other processes. (PostgreSQL: an advisory lock;
   * SQLite: a no-op, its write transactions lock the whole database already.)
   */
  lock(name: string): Promise<void>;
}

/**
 * `durable`: the commit is on disk before `transaction` resolves (every change an answer
 * depends on). `grouped`: the same, for a commit that answers several callers at once (a
 * group commit's batch): commits are arriving faster than one at a time, so the engine never
 * holds its thread for the disk on such a one (SQLite: engines/sqlite/wal-sync.ts).
 * `relaxed`: committed, visible at once and kept across a crash of the process, but a power
 * cut may lose it until the next durable commit syncs it along (bookkeeping that is harmless
 * to redo: mail leases, idempotency reservations, CAPTCHA spends).
 */
export type Durability = 'durable' | 'grouped' | 'relaxed';

export interface Dialect {
  readonly engine: 'sqlite' | 'postgres';
  /** Appended to a SELECT inside a write transaction that will update the rows it reads. */
  readonly forUpdate: string;
  /** The same, skipping rows another transaction holds (a queue several processes claim from). */
  readonly forUpdateSkipLocked: string;
}

export interface Db extends Queryable {
  readonly dialect: Dialect;
  /**
   * A value that changes whenever anything was committed to the database since it was last
   * read, by this process or another (SQLite: its data version and this connection's commits;
   * PostgreSQL: the WAL position). Equal markers mean nothing changed in between, so what was
   * read after the first is still current.
   */
  changeMarker(): Promise<string>;
  /**
   * Runs `fn` in one write transaction: committed when it resolves, rolled back when it throws.
   * `fn` must await nothing but statements on `tx` (on SQLite every other statement waits
   * for the transaction to end).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, durability?: Durability): Promise<T>;
}
