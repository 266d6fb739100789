/**
 * The shared SQL layer the table modules write against, implemented by each engine.
 * SQL uses `?` placeholders (PostgreSQL's engine numbers them); statements are prepared once
 * per text. Parameters and rows are plain values, except booleans (SQLite: 0/1) and JSON
 * (SQLite: text): read them with `bool()` and `json()` (values.ts). Row locks: `Dialect`.
 * Why not a query builder: docs/store.md, "Why a small SQL layer".
 */

export type Row = Record<string, unknown>;
export type Param = string | number | boolean | null;

export interface Queryable {
  all<R = Row>(sql: string, params?: readonly Param[]): Promise<R[]>;
  get<R = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(sql: string, params?: readonly Param[]): Promise<number>;
  /**
   * Every row as its columns' values, handed to `each` one at a time; resolves with the count.
   * For very large reads (a restart reads the whole photo catalogue): no object per row, and on
   * SQLite no list of all rows. `each` must not run statements (SQLite's connection is busy).
   */
  eachRow(sql: string, params: readonly Param[], each: (values: unknown[]) => void): Promise<number>;
}

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
 * `durable`: on disk before `transaction` resolves. `grouped`: the same, for a commit that
 * answers several callers (a group commit's batch), never synced on the event loop
 * (engines/sqlite/wal-sync.ts). `relaxed`: survives a crash of the process, but a power cut
 * may lose it until the next durable commit (bookkeeping that is harmless to redo).
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
