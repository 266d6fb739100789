/**
 * The PostgreSQL order store (`ORDER_STORE=postgres`, `DATABASE_URL`), for several server
 * processes sharing one database.
 *
 * - Creates are group-committed (group-commit.ts): those arriving together are written by ONE
 *   statement per prefix (data-modifying CTEs) that takes n numbers from the prefix's row in
 *   `order_sequences` (`INSERT ... ON CONFLICT DO UPDATE SET last = last + n RETURNING last`,
 *   which locks that row until commit), inserts the orders numbered from it in arrival order,
 *   and inserts their mail jobs. Numbers are unique and consecutive under any number of
 *   writers in any number of processes; a failed create uses up no number; and the fsync and
 *   the row lock are paid once per batch instead of once per order.
 * - Status, shipping, feedback and hold changes read the row `FOR UPDATE` in a transaction,
 *   check the SPEC §5 rules (src/services/store/rules.ts) and write it with its mail jobs.
 * - Mail claims take due jobs `FOR UPDATE SKIP LOCKED`, so workers in several processes never
 *   send the same job twice at once.
 * - Connection failures become AppError STORE_UNAVAILABLE (503); the pool drops broken
 *   connections and opens new ones, so the store recovers by itself when the server is back.
 * - Triggers NOTIFY every committed change; `changes` (a ChangeFeed) passes them to the read
 *   cache of this process (see cached-store.ts).
 */
import pg from 'pg';
import { ConfigError } from '../../../config/env.js';
import { formatOrderNumber, NewOrder, type OrderRecord } from '../../../domain/order.js';
import type { StoreWithChangeFeed } from '../change-feed.js';
import { GroupCommit, type Outcome } from '../group-commit.js';
import { type StoreLogger, silentLogger } from '../logger.js';
import {
  EventSettings,
  type EventSettingsPatch,
  type IdempotencyRecord,
  type MailJob,
  type MailJobInput,
  type OrderListQuery,
  type StoreHealth,
  type UpdateResult,
} from '../port.js';
import {
  type Applied,
  applyFeedback,
  applyOrderPatch,
  applyRelease,
  applyShipping,
  buildMailJobs,
  buildNewOrder,
  isoTime,
  newOrderId,
  orderNotFound,
  parseInSlices,
  refKeys,
  type StatusTotals,
  summaryFromTotals,
} from '../rules.js';
import { ChangeListener } from './change-listener.js';
import { isUnavailable, mapPgError } from './errors.js';
import { MIGRATION_LOCK_KEY, POSTGRES_MIGRATIONS } from './migrations.js';
import {
  type IdempotencyRow,
  type MailRow,
  ORDER_COLUMNS,
  type OrderRow,
  type PushRow,
  parseSettings,
  rowToIdempotency,
  rowToMail,
  rowToOrder,
  rowToPush,
} from './rows.js';

export type PostgresStoreOptions = {
  connectionString: string;
  /** Connections this process keeps (DATABASE_POOL_SIZE). */
  poolSize?: number;
  log?: StoreLogger;
  /** How long to wait for a connection before STORE_UNAVAILABLE (ms). */
  connectTimeoutMs?: number;
  /** Client-side limit on one query (ms): a hung server becomes STORE_UNAVAILABLE. */
  queryTimeoutMs?: number;
  /** Start the LISTEN connection that feeds the cache (default true). */
  changeFeed?: boolean;
};

export type PostgresOrderStore = StoreWithChangeFeed & { readonly pool: pg.Pool };

/** `postgres://user@host:port/db` without the password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Creates a batch of orders of one prefix in one statement: takes `$2` numbers from the
 * prefix's sequence row (locked until commit), inserts the orders numbered in batch order
 * (`i` = 1..n) and their mail jobs. Returns the last number taken.
 */
const CREATE_BATCH_SQL = `
  WITH seq AS (
    INSERT INTO order_sequences AS s (prefix, last) VALUES ($1, $2)
    ON CONFLICT (prefix) DO UPDATE SET last = s.last + $2
    RETURNING last
  ), ins AS (
    INSERT INTO orders (${ORDER_COLUMNS})
    SELECT o.id, $1 || '-' || CASE WHEN n.s < 10000 THEN lpad(n.s::text, 4, '0') ELSE n.s::text END,
      o.event_slug, o.created_at, o.updated_at, o.customer_name, o.customer_email, o.customer_phone,
      o.fulfillment_type, o.shipping_address, o.city, o.state, o.zip_code, o.items, o.subtotal_cents,
      o.shipping_fee_cents, o.total_cents, o.status, o.shipping_status, o.tracking_number, o.feedback, o.held,
      o.hold_expires_at, o.address_verified, o.channel
    FROM jsonb_to_recordset($3::jsonb) AS o(
      i int, id text, event_slug text, created_at timestamptz, updated_at timestamptz, customer_name text,
      customer_email text, customer_phone text, fulfillment_type text, shipping_address text, city text,
      state text, zip_code text, items jsonb, subtotal_cents bigint, shipping_fee_cents bigint,
      total_cents bigint, status text, shipping_status text, tracking_number text, feedback text,
      held boolean, hold_expires_at timestamptz, address_verified boolean, channel text)
    CROSS JOIN LATERAL (SELECT (SELECT last FROM seq) - $2 + o.i AS s) n
    ORDER BY o.i
    RETURNING 1
  ), mail AS (
    INSERT INTO mail_jobs (id, kind, order_id, payload, attempts, next_attempt_at, created_at)
    SELECT j.id, j.kind, j.order_id, j.payload, 0, j.next_attempt_at, j.created_at
    FROM jsonb_to_recordset($4::jsonb)
      AS j(id text, kind text, order_id text, payload jsonb, next_attempt_at timestamptz, created_at timestamptz)
  )
  SELECT (SELECT last FROM seq)::bigint AS last, (SELECT count(*) FROM ins)::int AS inserted`;

/** A create waiting for its batch: the order, complete but for its number. */
type PendingCreate = { draft: OrderRecord; prefix: string; jobs: MailJob[] };

const draftJson = (d: OrderRecord, i: number) => ({
  i,
  id: d.id,
  event_slug: d.eventSlug,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
  customer_name: d.customerName,
  customer_email: d.customerEmail,
  customer_phone: d.customerPhone,
  fulfillment_type: d.fulfillmentType,
  shipping_address: d.shippingAddress,
  city: d.city,
  state: d.state,
  zip_code: d.zipCode,
  items: d.items,
  subtotal_cents: d.subtotalCents,
  shipping_fee_cents: d.shippingFeeCents,
  total_cents: d.totalCents,
  status: d.status,
  shipping_status: d.shippingStatus,
  tracking_number: d.trackingNumber,
  feedback: d.feedback,
  held: d.held,
  hold_expires_at: d.holdExpiresAt,
  address_verified: d.addressVerified,
  channel: d.channel,
});

const UPDATE_SQL = `
  UPDATE orders SET updated_at = $2, customer_name = $3, customer_email = $4, customer_phone = $5,
    fulfillment_type = $6, shipping_address = $7, city = $8, state = $9, zip_code = $10, status = $11,
    shipping_status = $12, tracking_number = $13, feedback = $14, held = $15, hold_expires_at = $16,
    address_verified = $17
  WHERE id = $1`;

const updateValues = (o: OrderRecord) => [
  o.id,
  o.updatedAt,
  o.customerName,
  o.customerEmail,
  o.customerPhone,
  o.fulfillmentType,
  o.shippingAddress,
  o.city,
  o.state,
  o.zipCode,
  o.status,
  o.shippingStatus,
  o.trackingNumber,
  o.feedback,
  o.held,
  o.holdExpiresAt,
  o.addressVerified,
];

const INSERT_MAIL_SQL = `
  INSERT INTO mail_jobs (id, kind, order_id, payload, attempts, next_attempt_at, created_at)
  SELECT j.id, j.kind, j.order_id, j.payload, 0, j.next_attempt_at, j.created_at
  FROM jsonb_to_recordset($1::jsonb)
    AS j(id text, kind text, order_id text, payload jsonb, next_attempt_at timestamptz, created_at timestamptz)`;

const mailJson = (jobs: readonly MailJob[]) =>
  JSON.stringify(
    jobs.map((j) => ({
      id: j.id,
      kind: j.kind,
      order_id: j.orderId,
      payload: j.payload,
      next_attempt_at: j.nextAttemptAt,
      created_at: j.createdAt,
    })),
  );

export function createPostgresStore(options: PostgresStoreOptions): PostgresOrderStore {
  const log = options.log ?? silentLogger;
  const clientConfig: pg.ClientConfig = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: options.queryTimeoutMs ?? 15_000,
    keepAlive: true,
    application_name: 'photo-order-store',
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 });
  // A pooled connection that breaks while idle (server restart) must not crash the process:
  // the pool drops it and opens a new one on the next checkout.
  pool.on('error', (err) => log.warn({ err: err.message }, 'order store: idle PostgreSQL connection lost'));
  const listener = new ChangeListener(clientConfig, log);
  let lastPurge = 0;
  let closed = false;
  let initialised = false;

  async function q<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<pg.QueryResult<R>> {
    try {
      return await pool.query<R>(name ? { name, text, values } : { text, values });
    } catch (err) {
      throw mapPgError(err);
    }
  }

  /** One transaction on one connection; a connection that failed is destroyed, not reused. */
  async function tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw mapPgError(err);
    }
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (err) {
      if (isUnavailable(err)) {
        client.release(err as Error);
      } else {
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch (rollbackErr) {
          client.release(rollbackErr as Error);
        }
      }
      throw mapPgError(err);
    }
  }

  async function lockOrder(c: pg.PoolClient, ref: string): Promise<OrderRecord | null> {
    const k = refKeys(ref);
    const { rows } = await c.query<OrderRow>({
      name: 'order_by_ref_for_update',
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 OR id = $2 OR order_number = $3 FOR UPDATE`,
      values: [k.id, k.idLower, k.orderNumber],
    });
    return rows[0] ? rowToOrder(rows[0]) : null;
  }

  /** Lock, apply, write (if changed) and enqueue mail (if changed), in one transaction. */
  function modify(ref: string, mail: readonly MailJobInput[] | undefined, apply: (o: OrderRecord) => Applied) {
    return tx(async (c) => {
      const current = await lockOrder(c, ref);
      if (!current) throw orderNotFound(ref);
      const result = apply(current);
      if (result.changed) {
        await c.query({ name: 'update_order', text: UPDATE_SQL, values: updateValues(result.order) });
        if (mail?.length) {
          await c.query(INSERT_MAIL_SQL, [mailJson(buildMailJobs(mail, new Date(), current.id))]);
        }
      }
      return result;
    });
  }

  /** Writes one prefix's creates with one statement on `db`; the numbers they got, in order. */
  async function insertGroup(db: pg.Pool | pg.PoolClient, prefix: string, group: PendingCreate[]): Promise<number[]> {
    const { rows } = await db.query<{ last: string; inserted: number }>({
      name: 'create_orders',
      text: CREATE_BATCH_SQL,
      values: [
        prefix,
        group.length,
        JSON.stringify(group.map((p, i) => draftJson(p.draft, i + 1))),
        mailJson(group.flatMap((p) => p.jobs)),
      ],
    });
    const last = Number(rows[0]?.last);
    if (rows[0]?.inserted !== group.length || !Number.isSafeInteger(last)) {
      throw new Error('order batch insert did not insert every order');
    }
    return group.map((_, i) => last - group.length + 1 + i);
  }

  /** One transaction for the batch (a single statement when it has one prefix). */
  async function insertBatch(batch: PendingCreate[]): Promise<OrderRecord[]> {
    const groups = new Map<string, PendingCreate[]>();
    for (const p of batch) groups.set(p.prefix, [...(groups.get(p.prefix) ?? []), p]);
    const numbers = new Map<PendingCreate, number>();
    const run = async (db: pg.Pool | pg.PoolClient) => {
      for (const [prefix, group] of groups) {
        const seqs = await insertGroup(db, prefix, group);
        for (const [i, p] of group.entries()) numbers.set(p, seqs[i] as number);
      }
    };
    if (groups.size === 1) await run(pool);
    else await tx(run);
    return batch.map((p) => ({ ...p.draft, orderNumber: formatOrderNumber(p.prefix, numbers.get(p) as number) }));
  }

  const creates = new GroupCommit<PendingCreate, OrderRecord>(async (batch) => {
    try {
      return (await insertBatch(batch)).map((value) => ({ ok: true as const, value }));
    } catch (err) {
      if (batch.length === 1 || isUnavailable(err))
        return batch.map(() => ({ ok: false as const, error: mapPgError(err) }));
      // One bad order must not fail the others: write them one by one (nothing was committed).
      const out: Outcome<OrderRecord>[] = [];
      for (const p of batch) {
        try {
          out.push({ ok: true, value: (await insertBatch([p]))[0] as OrderRecord });
        } catch (e) {
          out.push({ ok: false, error: mapPgError(e) });
        }
      }
      return out;
    }
  });

  async function migrate(): Promise<void> {
    const client = await pool.connect();
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
      for (const m of POSTGRES_MIGRATIONS.filter((x) => x.version > current)) {
        await client.query(m.sql);
        await client.query('INSERT INTO order_store_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        log.info({ version: m.version, name: m.name }, 'order store: PostgreSQL migration applied');
      }
      await client.query('COMMIT');
      client.release();
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(err as Error);
      throw err;
    }
  }

  const store: PostgresOrderStore = {
    kind: 'postgres',
    pool,
    changes: listener,

    async init() {
      if (initialised) return;
      try {
        await migrate();
        if (options.changeFeed !== false) await listener.start();
      } catch (err) {
        await pool.end().catch(() => {});
        await listener.stop();
        if (err instanceof ConfigError) throw err;
        const reason = (err as Error).message || (err as { code?: string }).code || String(err);
        throw new ConfigError(
          `DATABASE_URL: cannot use the PostgreSQL database at ${describeUrl(options.connectionString)}: ${reason}`,
          { cause: err },
        );
      }
      initialised = true;
      log.info({ database: describeUrl(options.connectionString) }, 'order store: PostgreSQL ready');
    },

    async close() {
      if (closed) return;
      closed = true;
      await creates.idle();
      await listener.stop();
      await pool.end();
    },

    async health(): Promise<StoreHealth> {
      const details: Record<string, unknown> = {
        backend: 'postgres',
        database: describeUrl(options.connectionString),
        changeFeed: options.changeFeed === false ? 'off' : listener.coherent ? 'listening' : 'reconnecting',
        pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      };
      try {
        const { rows } = await q<{ n: number }>('SELECT count(*)::int AS n FROM mail_jobs WHERE sent_at IS NULL');
        return { ok: true, details: { ...details, pendingMail: rows[0]?.n ?? 0 } };
      } catch (err) {
        return { ok: false, details: { ...details, error: (err as Error).message } };
      }
    },

    // ---------------------------------------------------------------- orders

    async createOrder(input, opts) {
      const parsed = NewOrder.parse(input);
      const now = new Date();
      const id = newOrderId(parsed);
      const jobs = buildMailJobs(opts?.mail ?? [], now, id);
      // Everything but the number is known now; the number comes with the batch's commit.
      const draft = buildNewOrder(parsed, 1, now, id);
      return creates.submit({ draft, prefix: parsed.prefix, jobs });
    },

    async getOrder(ref) {
      const k = refKeys(ref);
      const { rows } = await q<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 OR id = $2 OR order_number = $3`,
        [k.id, k.idLower, k.orderNumber],
        'order_by_ref',
      );
      return rows[0] ? rowToOrder(rows[0]) : null;
    },

    async listOrders(query: OrderListQuery = {}) {
      if (query.statuses && query.statuses.length === 0) return [];
      const where: string[] = [];
      const values: unknown[] = [];
      if (!query.includeHeld) where.push('NOT held');
      if (query.statuses) {
        values.push([...query.statuses]);
        where.push(`status = ANY($${values.length}::text[])`);
      }
      if (query.eventSlug !== undefined) {
        values.push(query.eventSlug);
        where.push(`event_slug = $${values.length}`);
      }
      const sql = `SELECT ${ORDER_COLUMNS} FROM orders${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY pk DESC`;
      const { rows } = await q<OrderRow>(sql, values);
      return parseInSlices(rows, rowToOrder);
    },

    updateOrder(ref, patch, opts): Promise<UpdateResult> {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyOrderPatch(o, patch, now));
    },

    setShipping(ref, patch, opts): Promise<UpdateResult> {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyShipping(o, patch, now));
    },

    async appendFeedback(ref, text, at) {
      const now = new Date();
      return (await modify(ref, undefined, (o) => ({ order: applyFeedback(o, text, at, now), changed: true }))).order;
    },

    releaseHold(ref, opts) {
      const now = new Date();
      return modify(ref, opts?.mail, (o) => applyRelease(o, now));
    },

    async expireHolds(now) {
      // One statement: concurrent sweeps in several processes each take a row at most once.
      const { rows } = await q<OrderRow & { pk: string }>(
        `UPDATE orders SET status = 'cancelled', held = false, hold_expires_at = NULL, updated_at = $2
         WHERE held AND status = 'pending' AND hold_expires_at <= $1
         RETURNING pk, ${ORDER_COLUMNS}`,
        [now.toISOString(), new Date().toISOString()],
      );
      return rows.sort((a, b) => Number(a.pk) - Number(b.pk)).map(rowToOrder);
    },

    async summary(query = {}) {
      const byEvent = query.eventSlug !== undefined;
      const { rows } = await q<{ status: string; n: number; total: string }>(
        `SELECT status, count(*)::int AS n, coalesce(sum(total_cents), 0)::bigint AS total FROM orders
         WHERE NOT held${byEvent ? ' AND event_slug = $1' : ''} GROUP BY status`,
        byEvent ? [query.eventSlug] : [],
      );
      const totals: StatusTotals = {};
      for (const r of rows) totals[r.status as keyof StatusTotals] = { count: r.n, totalCents: Number(r.total) };
      return summaryFromTotals(totals);
    },

    // ---------------------------------------------------------------- event settings

    async getEventSettings(eventSlug) {
      const { rows } = await q<{ settings: unknown }>('SELECT settings FROM event_settings WHERE event_slug = $1', [
        eventSlug,
      ]);
      return rows[0] ? parseSettings(rows[0].settings) : null;
    },

    async listEventSettings() {
      const { rows } = await q<{ settings: unknown }>('SELECT settings FROM event_settings ORDER BY event_slug');
      return rows.map((r) => parseSettings(r.settings));
    },

    async putEventSettings(eventSlug: string, patch: EventSettingsPatch) {
      const updatedAt = new Date().toISOString();
      // The patch is checked on its own; `||` merges it key by key into what is stored, in one
      // statement, so concurrent patches of different keys both land.
      const doc = EventSettings.parse({ ...definedOnly(patch), eventSlug, updatedAt });
      const { rows } = await q<{ settings: unknown }>(
        `INSERT INTO event_settings (event_slug, settings, updated_at) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (event_slug) DO UPDATE
           SET settings = event_settings.settings || excluded.settings, updated_at = excluded.updated_at
         RETURNING settings`,
        [eventSlug, JSON.stringify(doc), updatedAt],
      );
      return parseSettings(rows[0]?.settings);
    },

    // ---------------------------------------------------------------- push subscriptions

    async savePushSubscription(sub) {
      const { rows } = await q<{ created: boolean }>(
        `INSERT INTO push_subscriptions (endpoint, order_key, p256dh, auth, scope, order_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (endpoint, order_key) DO UPDATE
           SET p256dh = excluded.p256dh, auth = excluded.auth, scope = excluded.scope
         RETURNING (xmax = 0) AS created`,
        [sub.endpoint, sub.orderId ?? '', sub.p256dh, sub.auth, sub.scope, sub.orderId, isoTime(sub.createdAt)],
      );
      return { created: rows[0]?.created === true };
    },

    async listPushSubscriptions(query) {
      const { rows } =
        'scope' in query
          ? await q<PushRow>('SELECT * FROM push_subscriptions WHERE scope = $1 ORDER BY created_at', [query.scope])
          : await q<PushRow>('SELECT * FROM push_subscriptions WHERE order_id = $1 ORDER BY created_at', [
              query.orderId,
            ]);
      return rows.map(rowToPush);
    },

    async deletePushSubscription(endpoint) {
      await q('DELETE FROM push_subscriptions WHERE endpoint = $1', [endpoint]);
    },

    // ---------------------------------------------------------------- idempotency

    async reserveIdempotencyKey(rec) {
      if (Date.now() - lastPurge > 60_000) {
        lastPurge = Date.now();
        await q('DELETE FROM idempotency_keys WHERE expires_at <= now()');
      }
      const createdAt = isoTime(rec.createdAt);
      const expiresAt = isoTime(rec.expiresAt);
      // Insert, or take over an expired record, atomically; else report the live one. A record
      // released between the two statements makes us go round again.
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await q(
          `INSERT INTO idempotency_keys AS k (key, fingerprint, state, status_code, response_body, created_at, expires_at)
           VALUES ($1, $2, 'pending', NULL, NULL, $3, $4)
           ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending', status_code = NULL,
             response_body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
           WHERE k.expires_at <= excluded.created_at
           RETURNING key`,
          [rec.key, rec.fingerprint, createdAt, expiresAt],
        );
        if (inserted.rowCount === 1) return { reserved: true as const };
        const { rows } = await q<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE key = $1', [rec.key]);
        if (rows[0]) return { reserved: false as const, existing: rowToIdempotency(rows[0]) as IdempotencyRecord };
      }
      throw new Error(`idempotency key ${rec.key} could not be reserved`);
    },

    async completeIdempotencyKey(key, statusCode, responseBody) {
      await q(`UPDATE idempotency_keys SET state = 'done', status_code = $2, response_body = $3 WHERE key = $1`, [
        key,
        statusCode,
        responseBody,
      ]);
    },

    async releaseIdempotencyKey(key) {
      await q(`DELETE FROM idempotency_keys WHERE key = $1 AND state = 'pending'`, [key]);
    },

    // ---------------------------------------------------------------- mail outbox

    async enqueueMail(inputs) {
      const jobs = buildMailJobs(inputs, new Date());
      if (jobs.length) await q(INSERT_MAIL_SQL, [mailJson(jobs)]);
      return jobs;
    },

    async claimDueMail(now, limit, leaseMs) {
      const { rows } = await q<MailRow>(
        `UPDATE mail_jobs SET next_attempt_at = $2
         WHERE id IN (
           SELECT id FROM mail_jobs WHERE sent_at IS NULL AND next_attempt_at <= $1
           ORDER BY next_attempt_at, created_at LIMIT $3
           FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit],
      );
      return rows.map(rowToMail).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async markMailSent(id, via, at) {
      await q('UPDATE mail_jobs SET sent_at = $2, sent_via = $3 WHERE id = $1 AND sent_at IS NULL', [
        id,
        at.toISOString(),
        via,
      ]);
    },

    async markMailFailed(id, error, nextAttemptAt) {
      await q(
        `UPDATE mail_jobs SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3
         WHERE id = $1 AND sent_at IS NULL`,
        [id, error, nextAttemptAt.toISOString()],
      );
    },

    async pendingMailCount() {
      const { rows } = await q<{ n: number }>('SELECT count(*)::int AS n FROM mail_jobs WHERE sent_at IS NULL');
      return rows[0]?.n ?? 0;
    },
  };
  return store;
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
