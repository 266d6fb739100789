/**
 * SQLite migrations 1 to 3: the first schema (orders, the mail outbox, event settings, push
 * subscriptions, idempotency keys), then the orders table rebuilt twice: numbered by (prefix,
 * seq); version and history.
 * Applied in order with the rest of SQLITE_MIGRATIONS (../migrations.ts); never edited once released.
 */
import type { Migration } from '../migrations.js';

/** Migration 2: the order columns copied unchanged into the rebuilt table. */
const V2_CARRIED = `event_slug, created_at, updated_at, customer_name, customer_email, customer_phone,
  fulfillment_type, shipping_address, city, state, zip_code, items, subtotal_cents,
  shipping_fee_cents, total_cents, status, shipping_status, tracking_number, feedback, held,
  hold_expires_at, address_verified, channel`;

/** Migration 3: the order columns copied unchanged into the rebuilt table. */
const V3_CARRIED = `pk, id, order_number, prefix, seq, event_slug, created_at, updated_at, customer_name,
  customer_email, customer_phone, fulfillment_type, shipping_address, city, state, zip_code, items,
  subtotal_cents, shipping_fee_cents, total_cents, status, tracking_number, feedback, held,
  hold_expires_at, address_verified, channel`;

export const VERSIONS_1_TO_3: readonly Migration[] = [
  {
    version: 1,
    name: 'orders, sequences, mail outbox, event settings, push subscriptions, idempotency keys',
    sql: `
      CREATE TABLE order_sequences (
        prefix TEXT PRIMARY KEY,
        last   INTEGER NOT NULL CHECK (last >= 1)
      ) STRICT;

      CREATE TABLE orders (
        pk                 INTEGER PRIMARY KEY, -- the rowid: orders are never deleted, so it only grows
        id                 TEXT NOT NULL UNIQUE,
        order_number       TEXT NOT NULL UNIQUE,
        event_slug         TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        customer_name      TEXT NOT NULL,
        customer_email     TEXT NOT NULL,
        customer_phone     TEXT NOT NULL,
        fulfillment_type   TEXT NOT NULL CHECK (fulfillment_type IN ('ship', 'pickup')),
        shipping_address   TEXT NOT NULL,
        city               TEXT NOT NULL,
        state              TEXT NOT NULL,
        zip_code           TEXT NOT NULL,
        items              TEXT NOT NULL,
        subtotal_cents     INTEGER NOT NULL,
        shipping_fee_cents INTEGER NOT NULL,
        total_cents        INTEGER NOT NULL,
        status             TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'void', 'cancelled')),
        shipping_status    TEXT NOT NULL CHECK (shipping_status IN ('ship', 'shipped')),
        tracking_number    TEXT NOT NULL,
        feedback           TEXT NOT NULL,
        held               INTEGER NOT NULL CHECK (held IN (0, 1)),
        hold_expires_at    TEXT,
        address_verified   INTEGER CHECK (address_verified IN (0, 1)),
        channel            TEXT NOT NULL
      ) STRICT;
      -- lists and the summary: by status, by event; expiry sweep of holds
      CREATE INDEX orders_by_status ON orders (held, status, total_cents);
      CREATE INDEX orders_by_event ON orders (event_slug, held, status, total_cents);
      CREATE INDEX orders_holds ON orders (hold_expires_at) WHERE held = 1;

      CREATE TABLE mail_jobs (
        id              TEXT PRIMARY KEY,
        kind            TEXT NOT NULL,
        order_id        TEXT,
        payload         TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error      TEXT,
        created_at      TEXT NOT NULL,
        sent_at         TEXT,
        sent_via        TEXT
      ) STRICT;
      CREATE INDEX mail_jobs_due ON mail_jobs (next_attempt_at) WHERE sent_at IS NULL;

      CREATE TABLE event_settings (
        event_slug TEXT PRIMARY KEY,
        settings   TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE push_subscriptions (
        endpoint   TEXT NOT NULL,
        -- the order id, or '' for admin subscriptions (a primary key can't hold NULL here)
        order_key  TEXT NOT NULL,
        p256dh     TEXT NOT NULL,
        auth       TEXT NOT NULL,
        scope      TEXT NOT NULL CHECK (scope IN ('admin', 'order')),
        order_id   TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (endpoint, order_key)
      ) STRICT;
      CREATE INDEX push_by_order ON push_subscriptions (order_id);
      CREATE INDEX push_by_scope ON push_subscriptions (scope);

      CREATE TABLE idempotency_keys (
        key           TEXT PRIMARY KEY,
        fingerprint   TEXT NOT NULL,
        state         TEXT NOT NULL CHECK (state IN ('pending', 'done')),
        status_code   INTEGER,
        response_body TEXT,
        created_at    TEXT NOT NULL,
        expires_at    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX idempotency_expiry ON idempotency_keys (expires_at);
    `,
  },
  {
    version: 2,
    name: 'orders numbered by UNIQUE (prefix, seq); no sequence table, no list indexes',
    // Each create dirtied six pages (the sequence row, the table, four indexes); this dirties
    // three (the table, `id`, `(prefix, seq)`): half the bytes each commit writes and fsyncs.
    // The next number is max(seq) + 1 under BEGIN IMMEDIATE (a read, no page written); orders
    // are never deleted, so a number is never given twice. `order_number` must agree with
    // (prefix, seq) (CHECK). SQLite can't drop a column's UNIQUE, so the table is rebuilt.
    sql: `
      CREATE TABLE orders_v2 (
        pk                 INTEGER PRIMARY KEY, -- the rowid: orders are never deleted, so it only grows
        id                 TEXT NOT NULL UNIQUE,
        order_number       TEXT NOT NULL,
        prefix             TEXT NOT NULL,
        seq                INTEGER NOT NULL CHECK (seq >= 1),
        event_slug         TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        customer_name      TEXT NOT NULL,
        customer_email     TEXT NOT NULL,
        customer_phone     TEXT NOT NULL,
        fulfillment_type   TEXT NOT NULL CHECK (fulfillment_type IN ('ship', 'pickup')),
        shipping_address   TEXT NOT NULL,
        city               TEXT NOT NULL,
        state              TEXT NOT NULL,
        zip_code           TEXT NOT NULL,
        items              TEXT NOT NULL,
        subtotal_cents     INTEGER NOT NULL,
        shipping_fee_cents INTEGER NOT NULL,
        total_cents        INTEGER NOT NULL,
        status             TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'void', 'cancelled')),
        shipping_status    TEXT NOT NULL CHECK (shipping_status IN ('ship', 'shipped')),
        tracking_number    TEXT NOT NULL,
        feedback           TEXT NOT NULL,
        held               INTEGER NOT NULL CHECK (held IN (0, 1)),
        hold_expires_at    TEXT,
        address_verified   INTEGER CHECK (address_verified IN (0, 1)),
        channel            TEXT NOT NULL,
        UNIQUE (prefix, seq),
        CHECK (order_number = prefix || '-' || printf('%04d', seq))
      ) STRICT;
      INSERT INTO orders_v2 (pk, id, order_number, prefix, seq,
        ${V2_CARRIED})
      SELECT pk, id, order_number,
        substr(order_number, 1, instr(order_number, '-') - 1),
        CAST(substr(order_number, instr(order_number, '-') + 1) AS INTEGER),
        ${V2_CARRIED}
      FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_v2 RENAME TO orders;
      CREATE INDEX orders_holds ON orders (hold_expires_at) WHERE held = 1;
      DROP TABLE order_sequences;
    `,
  },
  {
    version: 3,
    name: 'order version and history, pickup shipping status; Idempotency-Key order; spent CAPTCHA tokens',
    // `history` is in the row so that it costs a create no page; existing orders start with
    // the create entry their row tells. SQLite can't change a CHECK, so the table is rebuilt.
    sql: `
      CREATE TABLE orders_v3 (
        pk                 INTEGER PRIMARY KEY, -- the rowid: orders are never deleted, so it only grows
        id                 TEXT NOT NULL UNIQUE,
        order_number       TEXT NOT NULL,
        prefix             TEXT NOT NULL,
        seq                INTEGER NOT NULL CHECK (seq >= 1),
        event_slug         TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        customer_name      TEXT NOT NULL,
        customer_email     TEXT NOT NULL,
        customer_phone     TEXT NOT NULL,
        fulfillment_type   TEXT NOT NULL CHECK (fulfillment_type IN ('ship', 'pickup')),
        shipping_address   TEXT NOT NULL,
        city               TEXT NOT NULL,
        state              TEXT NOT NULL,
        zip_code           TEXT NOT NULL,
        items              TEXT NOT NULL,
        subtotal_cents     INTEGER NOT NULL,
        shipping_fee_cents INTEGER NOT NULL,
        total_cents        INTEGER NOT NULL,
        status             TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'void', 'cancelled')),
        shipping_status    TEXT NOT NULL CHECK (shipping_status IN ('ship', 'shipped', 'pickup')),
        tracking_number    TEXT NOT NULL,
        feedback           TEXT NOT NULL,
        held               INTEGER NOT NULL CHECK (held IN (0, 1)),
        hold_expires_at    TEXT,
        address_verified   INTEGER CHECK (address_verified IN (0, 1)),
        channel            TEXT NOT NULL,
        version            INTEGER NOT NULL CHECK (version >= 1),
        history            TEXT NOT NULL,
        UNIQUE (prefix, seq),
        CHECK (order_number = prefix || '-' || printf('%04d', seq))
      ) STRICT;
      INSERT INTO orders_v3 (${V3_CARRIED}, shipping_status, version, history)
      SELECT ${V3_CARRIED},
        CASE WHEN fulfillment_type = 'pickup' AND shipping_status = 'ship' THEN 'pickup' ELSE shipping_status END,
        1,
        json_array(json_object('at', created_at, 'action', 'create', 'to', 'pending',
          'by', CASE channel WHEN 'web' THEN 'customer' ELSE 'admin' END))
      FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_v3 RENAME TO orders;
      CREATE INDEX orders_holds ON orders (hold_expires_at) WHERE held = TRUE;

      ALTER TABLE idempotency_keys ADD COLUMN order_id TEXT;

      CREATE TABLE captcha_tokens (
        token_hash TEXT PRIMARY KEY,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX captcha_tokens_expiry ON captcha_tokens (expires_at);
    `,
  },
];
