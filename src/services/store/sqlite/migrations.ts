/**
 * SQLite schema, as numbered migrations. `PRAGMA user_version` records the last one applied;
 * start-up applies the rest in one transaction. Never edit a released migration: add one.
 *
 * Timestamps are ISO 8601 UTC text from `toISOString()`, so text order is time order.
 * Money is integer cents. `pk` gives the newest-first order of the lists.
 */
export type Migration = { version: number; name: string; sql: string };

export const SQLITE_MIGRATIONS: readonly Migration[] = [
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
];
