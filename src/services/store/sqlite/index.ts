/**
 * The SQLite order store (the default): one file, `DATA_DIR/orders.db`, through better-sqlite3.
 *
 * Durability: WAL with `synchronous=FULL`, so each commit is fsynced to the WAL before
 * `createOrder` (or any write) resolves; a crash or power loss can't take back an
 * acknowledged order. Creates arriving together are group-committed (group-commit.ts); a
 * batch of several commits with NORMAL and is fsynced in a thread of its own before any of its
 * orders resolves, so the event loop isn't held for the fsync (wal-sync.ts). Every write is
 * one `BEGIN IMMEDIATE` transaction that reads the row, checks the SPEC §5 rules
 * (src/domain/transitions.ts) and writes the row and its mail jobs, so checks and writes are
 * atomic, also against another process on the same file. better-sqlite3 is synchronous: a
 * statement runs to completion on the calling tick, which is faster here than any thread
 * hop. WAL checkpoints, which would otherwise run inside the commit that crosses 1,000
 * pages, have a thread of their own (checkpointer.ts).
 */
import { closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ConfigError } from '../../../config/env.js';
import { NewOrder, type OrderRecord, parseOrderNumber, type SalesSummaryCents } from '../../../domain/order.js';
import { isAppError } from '../../../errors/catalogue.js';
import { GroupCommit, type Outcome } from '../group-commit.js';
import type { StoreLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import {
  EventSettings,
  type EventSettingsPatch,
  type IdempotencyRecord,
  type MailJob,
  type MailJobInput,
  type OrderListQuery,
  type OrderPatch,
  type OrderStore,
  type PushSubscriptionRecord,
  type ShippingPatch,
  type StoreHealth,
  type UpdateResult,
} from '../port.js';
import {
  type Applied,
  applyFeedback,
  applyHoldExpiry,
  applyOrderPatch,
  applyRelease,
  applyShipping,
  buildMailJobs,
  buildNewOrder,
  duplicateOrderId,
  isoTime,
  LIST_SLICE,
  newOrderId,
  orderNotFound,
  outcomeUnknown,
  refKeys,
  type StatusTotals,
  storeUnavailable,
  summaryFromTotals,
} from '../rules.js';
import { Checkpointer } from './checkpointer.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import {
  type IdempotencyRow,
  type MailRow,
  mailToRow,
  ORDER_COLUMNS,
  type OrderRow,
  orderToRow,
  type PushRow,
  parseSettings,
  rowFromValues,
  rowToIdempotency,
  rowToMail,
  rowToOrder,
  rowToPush,
  rowValues,
} from './rows.js';
import { openWal, SyncLevelError, type WalSync, withoutSync } from './wal-sync.js';
import { WalSyncThread } from './wal-sync-thread.js';

export type SqliteStoreOptions = {
  /** The database file, normally `DATA_DIR/orders.db`. */
  file: string;
  log?: StoreLogger;
  /** How long a write waits for another process's lock before STORE_UNAVAILABLE. */
  busyTimeoutMs?: number;
  /** The variable to name when the file can't be opened (default DATA_DIR). */
  configVariable?: string;
  /**
   * WAL checkpoints in a thread of their own every this many ms (checkpointer.ts); 0 leaves
   * them to SQLite, inside the commit that crosses 1,000 pages. Default 200.
   */
  checkpointIntervalMs?: number;
  /** How a batch of creates is made durable after its NORMAL commit (wal-sync.ts); tests inject one. */
  walSync?: WalSync;
};

/** SQLite result codes that mean "the store can't be used right now", not a bug (→ 503). */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|NOLFS|AUTH|PERM)(_|$)/;

const STOPPED = 'The order database stopped after a failed sync to its disk; restart the server';

const isEngineFailure = (err: unknown) => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && UNAVAILABLE.test(code);
};

type PendingCreate = { parsed: NewOrder; now: Date; id: string; jobs: MailJob[] };

function mapError(err: unknown): unknown {
  if (isAppError(err)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE.test(code)) {
    return storeUnavailable('The order database is not available', err);
  }
  if (err instanceof TypeError && /database connection is not open/.test(err.message)) {
    return storeUnavailable('The order store is closed', err);
  }
  return err;
}

const UPDATE_ORDER_SQL = `
  UPDATE orders SET
    updated_at = @updated_at, customer_name = @customer_name, customer_email = @customer_email,
    customer_phone = @customer_phone, fulfillment_type = @fulfillment_type,
    shipping_address = @shipping_address, city = @city, state = @state, zip_code = @zip_code,
    status = @status, shipping_status = @shipping_status, tracking_number = @tracking_number,
    feedback = @feedback, held = @held, hold_expires_at = @hold_expires_at,
    address_verified = @address_verified
  WHERE id = @id`;

// Positional: the values come from rowValues() (ORDER_COLUMNS order), then prefix and seq.
// Exported with NEXT_SEQUENCE_SQL for bench/store.bench.ts, which times them without the store.
export const INSERT_ORDER_SQL = `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}, prefix, seq)
  VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')}, ?, ?)`;

// A read of the (prefix, seq) index. Run inside the write transaction, so nobody else can
// take the number before the insert (migration 2).
export const NEXT_SEQUENCE_SQL = 'SELECT coalesce(max(seq), 0) + 1 FROM orders WHERE prefix = ?';

const INSERT_MAIL_SQL = `
  INSERT INTO mail_jobs (id, kind, order_id, payload, attempts, next_attempt_at, last_error, created_at, sent_at, sent_via)
  VALUES (@id, @kind, @order_id, @payload, @attempts, @next_attempt_at, @last_error, @created_at, @sent_at, @sent_via)`;

export const DEFAULT_CHECKPOINT_INTERVAL_MS = 200;

export type SqliteOrderStore = OrderStore & {
  /** The checkpoint thread while the store is open (unless turned off). */
  readonly checkpointer: Checkpointer | undefined;
  /** The WAL sync thread while the store is open (unless a test injected `walSync`). */
  readonly syncThread: WalSyncThread | undefined;
  /** The connection's `PRAGMA synchronous` between writes (2: FULL), or undefined when closed. */
  readonly synchronous: number | undefined;
};

export function createSqliteStore(options: SqliteStoreOptions): SqliteOrderStore {
  const log = options.log ?? silentLogger;
  const busyTimeoutMs = Math.trunc(options.busyTimeoutMs ?? 5000);
  const variable = options.configVariable ?? 'DATA_DIR';
  let db: Database.Database | undefined;
  let stmts: ReturnType<typeof prepare> | undefined;
  let checkpointer: Checkpointer | undefined;
  const listStatements = new Map<string, Database.Statement>();
  let lastPurge = 0;
  /** The WAL sync thread (wal-sync-thread.ts), unless a test injects `walSync`. */
  let syncThread: WalSyncThread | undefined;
  /** The WAL file and how a batch's commit is synced in it (wal-sync.ts); undefined: every commit syncs itself (FULL). */
  let wal: { fd: number; sync: WalSync } | undefined;
  /** Set when a commit could not be made durable: the store refuses everything from then on (stop()). */
  let broken: Error | undefined;

  function prepare(d: Database.Database) {
    // Made once: better-sqlite3 transaction functions are costly to create. Called inside a
    // transaction, the same function runs as a SAVEPOINT.
    const inTx = d.transaction(<T>(fn: () => T): T => fn());
    return {
      inTx: inTx as unknown as (<T>(fn: () => T) => T) & { immediate<T>(fn: () => T): T },
      nextSequence: d.prepare<[string], number>(NEXT_SEQUENCE_SQL).pluck(),
      insertOrder: d.prepare<unknown[]>(INSERT_ORDER_SQL),
      updateOrder: d.prepare<[OrderRow]>(UPDATE_ORDER_SQL),
      // By number through (prefix, seq): a CHECK ties order_number to them (migration 2).
      orderByRef: d.prepare<[string, string, string, number], OrderRow>(
        'SELECT * FROM orders WHERE id = ? OR id = ? OR (prefix = ? AND seq = ?)',
      ),
      expiredHolds: d.prepare<[string], OrderRow>(
        `SELECT * FROM orders WHERE held = 1 AND status = 'pending' AND hold_expires_at <= ? ORDER BY pk`,
      ),
      summaryAll: d.prepare<[], { status: string; n: number; total: number }>(
        'SELECT status, count(*) AS n, sum(total_cents) AS total FROM orders WHERE held = 0 GROUP BY status',
      ),
      summaryEvent: d.prepare<[string], { status: string; n: number; total: number }>(
        `SELECT status, count(*) AS n, sum(total_cents) AS total FROM orders
         WHERE event_slug = ? AND held = 0 GROUP BY status`,
      ),
      insertMail: d.prepare<[MailRow]>(INSERT_MAIL_SQL),
      dueMail: d.prepare<[string, number], MailRow>(
        `SELECT * FROM mail_jobs WHERE sent_at IS NULL AND next_attempt_at <= ?
         ORDER BY next_attempt_at, created_at LIMIT ?`,
      ),
      leaseMail: d.prepare<[string, string]>('UPDATE mail_jobs SET next_attempt_at = ? WHERE id = ?'),
      mailSent: d.prepare<[string, string, string]>(
        'UPDATE mail_jobs SET sent_at = ?, sent_via = ? WHERE id = ? AND sent_at IS NULL',
      ),
      mailFailed: d.prepare<[string, string, string]>(
        `UPDATE mail_jobs SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
         WHERE id = ? AND sent_at IS NULL`,
      ),
      pendingMail: d.prepare<[], { n: number }>('SELECT count(*) AS n FROM mail_jobs WHERE sent_at IS NULL'),
      getSettings: d.prepare<[string], { settings: string }>(
        'SELECT settings FROM event_settings WHERE event_slug = ?',
      ),
      allSettings: d.prepare<[], { settings: string }>('SELECT settings FROM event_settings ORDER BY event_slug'),
      putSettings: d.prepare<[string, string, string]>(
        `INSERT INTO event_settings (event_slug, settings, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (event_slug) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
      ),
      findPush: d.prepare<[string, string], { endpoint: string }>(
        'SELECT endpoint FROM push_subscriptions WHERE endpoint = ? AND order_key = ?',
      ),
      upsertPush: d.prepare<[PushRow]>(
        `INSERT INTO push_subscriptions (endpoint, order_key, p256dh, auth, scope, order_id, created_at)
         VALUES (@endpoint, @order_key, @p256dh, @auth, @scope, @order_id, @created_at)
         ON CONFLICT (endpoint, order_key) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
           scope = excluded.scope`,
      ),
      pushByScope: d.prepare<[string], PushRow>('SELECT * FROM push_subscriptions WHERE scope = ? ORDER BY created_at'),
      pushByOrder: d.prepare<[string], PushRow>(
        'SELECT * FROM push_subscriptions WHERE order_id = ? ORDER BY created_at',
      ),
      deletePush: d.prepare<[string]>('DELETE FROM push_subscriptions WHERE endpoint = ?'),
      getKey: d.prepare<[string], IdempotencyRow>('SELECT * FROM idempotency_keys WHERE key = ?'),
      putKey: d.prepare<[string, string, string, string]>(
        `INSERT OR REPLACE INTO idempotency_keys (key, fingerprint, state, status_code, response_body, created_at, expires_at)
         VALUES (?, ?, 'pending', NULL, NULL, ?, ?)`,
      ),
      completeKey: d.prepare<[number, string, string]>(
        `UPDATE idempotency_keys SET state = 'done', status_code = ?, response_body = ? WHERE key = ?`,
      ),
      releaseKey: d.prepare<[string]>(`DELETE FROM idempotency_keys WHERE key = ? AND state = 'pending'`),
      purgeKeys: d.prepare<[string]>('DELETE FROM idempotency_keys WHERE expires_at <= ?'),
    };
  }

  function open(): { db: Database.Database; s: NonNullable<typeof stmts> } {
    if (broken) throw storeUnavailable(STOPPED);
    if (!db || !stmts) throw storeUnavailable('The order store is not open');
    return { db, s: stmts };
  }

  /**
   * Runs `fn` in one BEGIN IMMEDIATE transaction, mapping engine errors to AppErrors.
   *
   * 'unsynced' commits it with synchronous=NORMAL: no fsync, so the event loop isn't held for
   * one. For writes whose loss to a power cut costs nothing: the outbox's bookkeeping (a
   * claim's lease, "sent", "failed"; one write per mail: losing the last of them only means
   * that a mail goes out again, which the outbox allows anyway, as a delivery cut off by a
   * crash is retried) and idempotency reservations (see there). They reach the disk with the
   * next sync of the WAL: the next create, any other write, or the checkpoint, which syncs
   * the WAL before copying it.
   */
  function write<T>(fn: (s: NonNullable<typeof stmts>) => T, sync: 'full' | 'unsynced' = 'full'): T {
    try {
      const { db: d, s } = open();
      const tx = () => s.inTx.immediate(() => fn(s));
      return sync === 'full' ? tx() : withoutSync(d, tx);
    } catch (err) {
      if (err instanceof SyncLevelError) {
        failStop(err, 0);
        throw storeUnavailable(STOPPED, err);
      }
      throw mapError(err);
    }
  }

  /**
   * Like write(), and durable before it resolves, without holding the event loop for the
   * fsync: commits at NORMAL, then waits for an fdatasync of the WAL in the sync thread, as a
   * batch of creates does (wal-sync.ts), and shares that fdatasync with whatever else asked
   * for one meanwhile. A FULL commit when there is no WAL descriptor to sync.
   */
  async function writeDurable<T>(fn: (s: NonNullable<typeof stmts>) => T): Promise<T> {
    const w = wal;
    if (w === undefined) return write(fn);
    const out = write(fn, 'unsynced');
    try {
      await w.sync(w.fd);
    } catch (err) {
      throw unconfirmed(err, 0);
    }
    return out;
  }

  function read<T>(fn: (s: NonNullable<typeof stmts>, d: Database.Database) => T): T {
    try {
      const { db: d, s } = open();
      return fn(s, d);
    } catch (err) {
      throw mapError(err);
    }
  }

  function findOrder(s: NonNullable<typeof stmts>, ref: string): OrderRecord | null {
    const k = refKeys(ref);
    // Text that isn't an order number matches no (prefix, seq): '' is no prefix, 0 no seq.
    const n = parseOrderNumber(k.orderNumber);
    const row = s.orderByRef.get(k.id, k.idLower, n?.prefix ?? '', n?.sequence ?? 0);
    return row ? rowToOrder(row) : null;
  }

  function insertMail(s: NonNullable<typeof stmts>, jobs: readonly MailJob[]): void {
    for (const job of jobs) s.insertMail.run(mailToRow(job));
  }

  /** Read, apply, write (if changed) and enqueue mail (if changed), in one transaction. */
  function modify(ref: string, mail: readonly MailJobInput[] | undefined, apply: (o: OrderRecord) => Applied) {
    return write((s) => {
      const current = findOrder(s, ref);
      if (!current) throw orderNotFound(ref);
      const result = apply(current);
      if (result.changed) {
        s.updateOrder.run(orderToRow(result.order));
        if (mail?.length) insertMail(s, buildMailJobs(mail, new Date(), current.id));
      }
      return result;
    });
  }

  /**
   * Creates that arrive in the same event-loop turn share one transaction (one fsync); each
   * runs in its own savepoint, so one that fails is rolled back alone. A failure of the
   * engine itself (disk, lock) fails the whole batch: nothing of it is committed.
   * A batch of several commits with synchronous=NORMAL and resolves after an fdatasync of
   * the WAL in a thread of its own, so the event loop goes on meanwhile (wal-sync.ts).
   * When the checkpoint thread fell behind steady writes, a batch first waits for one
   * checkpoint with no commit under way, so that the WAL starts over (checkpointer.ts).
   */
  const creates = new GroupCommit<PendingCreate, OrderRecord>((batch) => {
    const ckpt = checkpointer;
    if (ckpt?.wantsQuiet) return ckpt.quietCheckpoint().then(() => commitCreates(batch));
    return commitCreates(batch);
  });

  function commitCreates(batch: PendingCreate[]): Outcome<OrderRecord>[] | Promise<Outcome<OrderRecord>[]> {
    const w = batch.length > 1 ? wal : undefined;
    let outcomes: Outcome<OrderRecord>[];
    try {
      const { db: d, s } = open();
      // The next number of each prefix, read once per batch and counted on from there.
      const next = new Map<string, number>();
      const commit = () =>
        s.inTx.immediate(() =>
          batch.map((p): Outcome<OrderRecord> => {
            try {
              // A savepoint only around several statements: one INSERT that fails is undone
              // by SQLite on its own (statement rollback), the transaction going on.
              const alone = batch.length === 1 || p.jobs.length === 0;
              return { ok: true, value: alone ? insertOne(s, p, next) : s.inTx(() => insertOne(s, p, next)) };
            } catch (error) {
              if (batch.length === 1 || isEngineFailure(error) || !d.inTransaction) throw error;
              return { ok: false, error: mapError(error) };
            }
          }),
        );
      outcomes = w === undefined ? commit() : withoutSync(d, commit);
    } catch (err) {
      if (err instanceof SyncLevelError) return stop(err, batch.length);
      const error = mapError(err);
      return batch.map(() => ({ ok: false as const, error }));
    }
    if (w === undefined) return outcomes;
    return w.sync(w.fd).then(
      () => outcomes,
      (err: unknown) => stop(err, batch.length),
    );
  }

  /**
   * Fail-stop after a sync that failed (or a connection that stayed at NORMAL): the batch's
   * orders are committed but maybe not on disk, and no later sync on this file can be trusted
   * (wal-sync.ts), so every operation answers STORE_UNAVAILABLE until a restart, whose
   * recovery keeps what reached the disk. The batch's callers learn that the outcome is
   * unknown, so an Idempotency-Key stays taken.
   */
  function stop(err: unknown, orders: number): Outcome<OrderRecord>[] {
    const error = unconfirmed(err, orders);
    return Array.from({ length: orders }, () => ({ ok: false as const, error }));
  }

  /** Fail-stops the store and gives the error for writes whose durability is now unknown. */
  function unconfirmed(err: unknown, orders: number) {
    failStop(err, orders);
    return outcomeUnknown('The order database could not confirm a write on its disk; restart the server', err);
  }

  /** From now on every operation answers STORE_UNAVAILABLE (see stop()); logged once. */
  function failStop(err: unknown, orders: number): void {
    if (broken) return;
    broken = err instanceof Error ? err : new Error(String(err));
    log.error(
      { err, orders },
      'order store: a commit could not be made durable; the store refuses everything until the server restarts',
    );
  }

  function insertOne(s: NonNullable<typeof stmts>, p: PendingCreate, next: Map<string, number>): OrderRecord {
    const seq = next.get(p.parsed.prefix) ?? s.nextSequence.get(p.parsed.prefix);
    if (seq === undefined) throw new Error('the next order number query returned nothing');
    const order = buildNewOrder(p.parsed, seq, p.now, p.id);
    try {
      s.insertOrder.run(...rowValues(orderToRow(order)), p.parsed.prefix, seq);
    } catch (err) {
      // The savepoint (or the transaction) rolls back with it: the number is not used.
      const { code, message } = err as { code?: unknown; message?: string };
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' && /orders\.id\b/.test(message ?? '')) throw duplicateOrderId(p.id, err);
      throw err;
    }
    insertMail(s, p.jobs);
    // Only once all of it is written: a create that fails leaves its number to the next one.
    next.set(p.parsed.prefix, seq + 1);
    return order;
  }

  const store: SqliteOrderStore = {
    kind: 'sqlite',

    get checkpointer() {
      return checkpointer;
    },

    get syncThread() {
      return syncThread;
    },

    get synchronous() {
      return db?.open ? (db.pragma('synchronous', { simple: true }) as number) : undefined;
    },

    async init() {
      if (db) return;
      const dir = path.dirname(options.file);
      let opened: Database.Database | undefined;
      try {
        mkdirSync(dir, { recursive: true });
        opened = new Database(options.file, { timeout: busyTimeoutMs });
        opened.pragma('journal_mode = WAL');
        opened.pragma('synchronous = FULL');
        opened.pragma(`busy_timeout = ${busyTimeoutMs}`);
        migrate(opened, log);
        stmts = prepare(opened);
        db = opened;
      } catch (err) {
        opened?.close();
        if (err instanceof ConfigError) throw err;
        const reason = (err as Error).message;
        throw new ConfigError(`${variable}: cannot open the order database ${options.file}: ${reason}`, {
          cause: err,
        });
      }
      const intervalMs = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
      if (intervalMs > 0) checkpointer = new Checkpointer({ db, file: options.file, intervalMs, busyTimeoutMs, log });
      const fd = openWal(options.file);
      if (fd === undefined) {
        log.warn({ file: options.file }, 'order store: no WAL file to sync; every commit syncs itself');
      } else if (options.walSync) {
        wal = { fd, sync: options.walSync };
      } else {
        syncThread = new WalSyncThread();
        wal = { fd, sync: syncThread.sync };
      }
      log.info({ file: options.file }, 'order store: SQLite ready');
    },

    async close() {
      await creates.idle();
      await syncThread?.stop();
      syncThread = undefined;
      if (wal) closeSync(wal.fd);
      wal = undefined;
      await checkpointer?.stop();
      checkpointer = undefined;
      const d = db;
      db = undefined;
      stmts = undefined;
      listStatements.clear();
      if (d?.open) d.close();
    },

    async health(): Promise<StoreHealth> {
      try {
        const n = read((s) => s.pendingMail.get()?.n ?? 0);
        // The file's name only: /readyz is public, and the server's folders are nobody's business.
        return { ok: true, details: { backend: 'sqlite', file: path.basename(options.file), pendingMail: n } };
      } catch (err) {
        return { ok: false, details: { backend: 'sqlite', error: (err as Error).message } };
      }
    },

    async createOrder(input, opts) {
      const parsed = NewOrder.parse(input);
      const now = new Date();
      const id = newOrderId(parsed);
      // Built before the transaction so a bad job fails before a number is used.
      const jobs = buildMailJobs(opts?.mail ?? [], now, id);
      return creates.submit({ parsed, now, id, jobs });
    },

    async getOrder(ref) {
      return read((s) => findOrder(s, ref));
    },

    async listOrders(query: OrderListQuery = {}) {
      if (query.statuses && query.statuses.length === 0) return [];
      const where: string[] = ['pk < ?'];
      const params: unknown[] = [];
      if (!query.includeHeld) where.push('held = 0');
      if (query.statuses) {
        where.push(`status IN (${query.statuses.map(() => '?').join(', ')})`);
        params.push(...query.statuses);
      }
      if (query.eventSlug !== undefined) {
        where.push('event_slug = ?');
        params.push(query.eventSlug);
      }
      // Newest first, a page at a time (keyset on pk), yielding to the event loop between pages:
      // 10,000 orders read and parsed in one go hold it for hundreds of milliseconds. Each page
      // is one statement, so an order changed meanwhile is seen as it was before or after the
      // change, never twice. NOT INDEXED walks the rowid backwards and stops at the page's end;
      // through the (held, status) index SQLite would sort every matching row for each page.
      const sql = `SELECT ${ORDER_COLUMNS.join(', ')}, pk FROM orders NOT INDEXED WHERE ${where.join(' AND ')}
        ORDER BY pk DESC LIMIT ${LIST_SLICE}`;
      const orders: OrderRecord[] = [];
      let before = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const page = read((_, d) => {
          let stmt = listStatements.get(sql);
          if (!stmt) {
            stmt = d.prepare(sql).raw(true);
            listStatements.set(sql, stmt);
          }
          return stmt.all(before, ...params) as unknown[][];
        });
        for (const values of page) orders.push(rowToOrder(rowFromValues(values)));
        if (page.length < LIST_SLICE) return orders;
        before = page[page.length - 1]?.[ORDER_COLUMNS.length] as number;
        await setImmediate();
      }
    },

    async updateOrder(ref: string, patch: OrderPatch, opts): Promise<UpdateResult> {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyOrderPatch(o, patch, now));
    },

    async setShipping(ref: string, patch: ShippingPatch, opts): Promise<UpdateResult> {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyShipping(o, patch, now));
    },

    async appendFeedback(ref, text, at) {
      const now = new Date();
      return modify(ref, undefined, (o) => ({ order: applyFeedback(o, text, at, now), changed: true })).order;
    },

    async releaseHold(ref, opts) {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyRelease(o, now));
    },

    async expireHolds(now) {
      const at = new Date();
      return write((s) =>
        s.expiredHolds.all(now.toISOString()).map((row) => {
          const order = applyHoldExpiry(rowToOrder(row), at);
          s.updateOrder.run(orderToRow(order));
          return order;
        }),
      );
    },

    async summary(query = {}): Promise<SalesSummaryCents> {
      return read((s) => {
        const rows = query.eventSlug === undefined ? s.summaryAll.all() : s.summaryEvent.all(query.eventSlug);
        const totals: StatusTotals = {};
        for (const r of rows) totals[r.status as keyof StatusTotals] = { count: r.n, totalCents: r.total };
        return summaryFromTotals(totals);
      });
    },

    // ---------------------------------------------------------------- event settings

    async getEventSettings(eventSlug) {
      return read((s) => {
        const row = s.getSettings.get(eventSlug);
        return row ? parseSettings(row.settings) : null;
      });
    },

    async listEventSettings() {
      return read((s) => s.allSettings.all().map((r) => parseSettings(r.settings)));
    },

    async putEventSettings(eventSlug: string, patch: EventSettingsPatch) {
      const now = new Date().toISOString();
      return write((s) => {
        const row = s.getSettings.get(eventSlug);
        const next = EventSettings.parse({
          ...(row ? parseSettings(row.settings) : {}),
          ...definedOnly(patch),
          eventSlug,
          updatedAt: now,
        });
        s.putSettings.run(eventSlug, JSON.stringify(next), now);
        return next;
      });
    },

    // ---------------------------------------------------------------- push subscriptions

    async savePushSubscription(sub: PushSubscriptionRecord) {
      const orderKey = sub.orderId ?? '';
      return write((s) => {
        const existed = s.findPush.get(sub.endpoint, orderKey) !== undefined;
        s.upsertPush.run({
          endpoint: sub.endpoint,
          order_key: orderKey,
          p256dh: sub.p256dh,
          auth: sub.auth,
          scope: sub.scope,
          order_id: sub.orderId,
          created_at: isoTime(sub.createdAt),
        });
        return { created: !existed };
      });
    },

    async listPushSubscriptions(query) {
      return read((s) =>
        ('scope' in query ? s.pushByScope.all(query.scope) : s.pushByOrder.all(query.orderId)).map(rowToPush),
      );
    },

    async deletePushSubscription(endpoint) {
      write((s) => s.deletePush.run(endpoint));
    },

    // ---------------------------------------------------------------- idempotency

    // Idempotency keys cost the event loop no fsync (each was a FULL commit on it: two per
    // order from the web checkout and the booth, which send a key with every order).
    // - A reservation commits unsynced: what it guards is the create that follows, and the
    //   create's own sync makes the reservation durable with it (it is earlier in the same
    //   WAL, and a checkpoint syncs the WAL before copying it). Lost to a power cut before
    //   any create, it only frees a key under which no order exists.
    // - Completion and release are durable before they resolve (writeDurable): the stored
    //   response is what a retry with the key is answered with, so it must not be lost after
    //   the 201 went out.
    async reserveIdempotencyKey(rec) {
      const createdAt = isoTime(rec.createdAt);
      const expiresAt = isoTime(rec.expiresAt);
      return write((s): { reserved: true } | { reserved: false; existing: IdempotencyRecord } => {
        // Expired keys are dropped now and then, so the table stays small.
        if (Date.now() - lastPurge > 60_000) {
          lastPurge = Date.now();
          s.purgeKeys.run(new Date().toISOString());
        }
        const row = s.getKey.get(rec.key);
        if (row && row.expires_at > createdAt) return { reserved: false, existing: rowToIdempotency(row) };
        s.putKey.run(rec.key, rec.fingerprint, createdAt, expiresAt);
        return { reserved: true };
      }, 'unsynced');
    },

    async completeIdempotencyKey(key, statusCode, responseBody) {
      await writeDurable((s) => s.completeKey.run(statusCode, responseBody, key));
    },

    async releaseIdempotencyKey(key) {
      await writeDurable((s) => s.releaseKey.run(key));
    },

    // ---------------------------------------------------------------- mail outbox

    async enqueueMail(inputs) {
      const jobs = buildMailJobs(inputs, new Date());
      write((s) => insertMail(s, jobs));
      return jobs;
    },

    async claimDueMail(now, limit, leaseMs) {
      const leaseEnd = new Date(now.getTime() + leaseMs).toISOString();
      return write(
        (s) =>
          s.dueMail.all(now.toISOString(), limit).map((row) => {
            s.leaseMail.run(leaseEnd, row.id);
            return rowToMail({ ...row, next_attempt_at: leaseEnd });
          }),
        'unsynced',
      );
    },

    async markMailSent(id, via, at) {
      write((s) => s.mailSent.run(at.toISOString(), via, id), 'unsynced');
    },

    async markMailFailed(id, error, nextAttemptAt) {
      write((s) => s.mailFailed.run(error, nextAttemptAt.toISOString(), id), 'unsynced');
    },

    async pendingMailCount() {
      return read((s) => s.pendingMail.get()?.n ?? 0);
    },
  };
  return store;
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Applies the migrations newer than `user_version`, all in one BEGIN IMMEDIATE transaction
 * (the version is read inside it, so two processes starting at once don't both migrate).
 */
function migrate(db: Database.Database, log: StoreLogger): void {
  const latest = SQLITE_MIGRATIONS.at(-1)?.version ?? 0;
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > latest) {
      throw new ConfigError(
        `DATA_DIR: ${db.name} has schema version ${current}, newer than this server knows (${latest}); upgrade the server`,
      );
    }
    for (const m of SQLITE_MIGRATIONS.filter((x) => x.version > current)) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
      log.info({ version: m.version, name: m.name }, 'order store: SQLite migration applied');
    }
  }).immediate();
}
