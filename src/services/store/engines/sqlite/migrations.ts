/**
 * SQLite schema, as numbered migrations. `PRAGMA user_version` records the last one applied;
 * start-up applies the rest in one transaction. Never edit a released migration: add one
 * (and its PostgreSQL twin in engines/postgres/migrations.ts: the table modules in sql/ run
 * the same SQL on both).
 *
 * Timestamps are ISO 8601 UTC text from `toISOString()`, so text order is time order.
 * Money is integer cents. `pk` gives the newest-first order of the lists.
 */
export type Migration = { version: number; name: string; sql: string };

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
  {
    version: 2,
    name: 'orders numbered by UNIQUE (prefix, seq); no sequence table, no list indexes',
    // Why: with synchronous=FULL every create waits for its WAL commit to reach the disk, and
    // the commit writes each page the insert dirtied. Version 1 dirtied six (the sequence row,
    // the table, and four indexes); this dirties three (the table, `id`, `(prefix, seq)`), so
    // each commit writes and fsyncs half the bytes (one caller: 0.32x -> 0.4-0.5x the raw
    // engine's single-row commits on this VM; README "Reliability and performance").
    // - The next number is max(seq) + 1 read from the (prefix, seq) index inside the BEGIN
    //   IMMEDIATE transaction: a read, no page written. Orders are never deleted, so a number
    //   is never given twice; the unique index refuses it if a bug ever tried.
    // - `order_number` stays the displayed text and must agree with (prefix, seq) (CHECK);
    //   lookups by number go through the (prefix, seq) index.
    // - The list and summary indexes go: lists walk the rowid (NOT INDEXED) and both lists and
    //   the summary are served from the 30-second cache; a scan of 10,000 rows takes
    //   milliseconds, and every create paid for the two indexes.
    // SQLite can't drop a column's UNIQUE, so the table is rebuilt (its documented procedure).
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
    // - `version` (bumped by every write) tells a reader whether its copy is current;
    //   `history` (JSON) lists every change, in the row so that it costs a create no page.
    //   Existing orders start with the create entry their row tells (by whom: customer for
    //   the web checkout, an admin not known for the booth).
    // - Pickup orders' shipping status becomes `pickup` (docs/contract.md, "Status and shipping").
    // - An Idempotency-Key records the order it produced, with the order in one transaction.
    // SQLite can't change a CHECK, so the table is rebuilt (its documented procedure).
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
  {
    version: 4,
    name: 'the spreadsheet mirror: rows written, its state, its problems',
    // The mirror (src/services/mirror) keeps, per order, the version and the cells it last
    // wrote to the sheet: what "changed since" means in both directions (docs/mirror.md).
    sql: `
      CREATE TABLE mirror_rows (
        order_id   TEXT PRIMARY KEY,
        version    INTEGER NOT NULL CHECK (version >= 0),
        cells      TEXT NOT NULL,
        sheet_row  INTEGER,
        removed    INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
        written_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE mirror_state (
        id            INTEGER PRIMARY KEY CHECK (id = 1),
        last_sync_at  TEXT,
        last_error    TEXT,
        last_error_at TEXT,
        imported_at   TEXT
      ) STRICT;
      INSERT INTO mirror_state (id) VALUES (1);

      CREATE TABLE mirror_problems (
        pk           INTEGER PRIMARY KEY,
        kind         TEXT NOT NULL CHECK (kind IN ('conflict', 'rejected', 'unreadable', 'removed', 'duplicate')),
        order_id     TEXT,
        order_number TEXT,
        sheet_row    INTEGER,
        message      TEXT NOT NULL,
        at           TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 5,
    name: 'pickup status and printed lines',
    // docs/contract.md, "Fulfilment": a pickup order's booth status (waiting → ready →
    // collected; null for orders that ship), and the lines marked printed (JSON, in the row:
    // the print queue, the undo of "Mark paid" and the history read them with the order).
    // Existing pickup orders start waiting, nothing printed.
    sql: `
      ALTER TABLE orders ADD COLUMN pickup_status TEXT
        CHECK (pickup_status IN ('waiting', 'ready', 'collected'));
      ALTER TABLE orders ADD COLUMN printed TEXT NOT NULL DEFAULT '[]';
      UPDATE orders SET pickup_status = 'waiting' WHERE fulfillment_type = 'pickup';
    `,
  },
  {
    version: 6,
    name: 'selling: order discount, coupon and payment; coupons; download counts; handled payment events',
    // docs/contract.md, "Selling". Orders taken before keep the discount their figures imply
    // (subtotal + shipping − total, exact under the pricing rules) and no coupon.
    sql: `
      ALTER TABLE orders ADD COLUMN discount_cents INTEGER NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);
      ALTER TABLE orders ADD COLUMN coupon_code TEXT;
      ALTER TABLE orders ADD COLUMN payment TEXT;
      UPDATE orders SET discount_cents = max(0, subtotal_cents + shipping_fee_cents - total_cents);

      CREATE TABLE coupons (
        code               TEXT PRIMARY KEY,
        event_slug         TEXT,
        kind               TEXT NOT NULL CHECK (kind IN ('percent', 'amount', 'freeShipping')),
        value              INTEGER,
        expires_at         TEXT,
        max_uses           INTEGER CHECK (max_uses >= 1),
        uses               INTEGER NOT NULL CHECK (uses >= 0),
        min_subtotal_cents INTEGER NOT NULL CHECK (min_subtotal_cents >= 0),
        created_at         TEXT NOT NULL,
        CHECK (max_uses IS NULL OR uses <= max_uses)
      ) STRICT;

      CREATE TABLE download_grants (
        order_id   TEXT NOT NULL,
        line       INTEGER NOT NULL CHECK (line >= 1),
        used       INTEGER NOT NULL CHECK (used >= 0),
        expires_at TEXT NOT NULL,
        last_at    TEXT NOT NULL,
        PRIMARY KEY (order_id, line)
      ) STRICT;

      CREATE TABLE payment_events (
        event_id    TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        order_id    TEXT,
        received_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 7,
    name: 'takedown requests',
    // One row per request; `decision` NULL while open (docs/contract.md, "Takedown requests").
    sql: `
      CREATE TABLE takedowns (
        id           TEXT PRIMARY KEY,
        event_slug   TEXT NOT NULL,
        photo_id     TEXT NOT NULL,
        photo_number TEXT NOT NULL,
        reason       TEXT NOT NULL CHECK (reason IN ('me', 'copyright', 'other')),
        email        TEXT NOT NULL,
        message      TEXT NOT NULL,
        hides        INTEGER NOT NULL CHECK (hides IN (0, 1)),
        created_at   TEXT NOT NULL,
        decision     TEXT CHECK (decision IN ('remove', 'restore')),
        decided_at   TEXT,
        decided_by   TEXT
      ) STRICT;
      CREATE INDEX takedowns_photo ON takedowns (event_slug, photo_id);
      CREATE INDEX takedowns_created ON takedowns (created_at);
    `,
  },
  {
    version: 8,
    name: 'finder: photo codes and their subscriptions',
    // Issued photo codes (POST /api/finder, card sheets) and who is told when photos join one.
    // `target` is the push endpoint or the lower-cased email: one subscription of each per code.
    sql: `
      CREATE TABLE photo_codes (
        code       TEXT PRIMARY KEY,
        issued_via TEXT NOT NULL CHECK (issued_via IN ('app', 'admin', 'card')),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE photo_code_subscriptions (
        id             TEXT PRIMARY KEY,
        code           TEXT NOT NULL REFERENCES photo_codes (code),
        target         TEXT NOT NULL,
        channel        TEXT NOT NULL CHECK (channel IN ('push', 'email')),
        endpoint       TEXT,
        p256dh         TEXT,
        auth           TEXT,
        email          TEXT,
        notified_count INTEGER NOT NULL CHECK (notified_count >= 0),
        notified_at    TEXT,
        created_at     TEXT NOT NULL,
        UNIQUE (code, target)
      ) STRICT;
      CREATE INDEX photo_code_subscriptions_target ON photo_code_subscriptions (target);
    `,
  },
  {
    version: 9,
    name: 'the photo catalogue',
    // One row per photo file ever seen (docs/store.md, "The photo catalogue"): the numbers
    // (unique per event; NULLs are distinct), the facts a scan read, inspection, presence,
    // the takedowns' hiding, the photographer's rating and metadata; `seq` is the change feed.
    // Size, time and dimensions are NULL only for a retired number taken in at the upgrade.
    sql: `
      CREATE TABLE photo_catalogue (
        event_code  TEXT NOT NULL,
        path        TEXT NOT NULL,
        id          TEXT NOT NULL,
        number      INTEGER CHECK (number >= 1),
        size        INTEGER CHECK (size >= 0),
        mtime_ms    REAL,
        width       INTEGER CHECK (width >= 1),
        height      INTEGER CHECK (height >= 1),
        taken_at_ms INTEGER,
        inspected   INTEGER NOT NULL CHECK (inspected IN (0, 1)),
        photo_code  TEXT,
        present     INTEGER NOT NULL CHECK (present IN (0, 1)),
        hidden      INTEGER NOT NULL CHECK (hidden IN (0, 1)),
        rating      INTEGER CHECK (rating BETWEEN -1 AND 5),
        metadata    TEXT,
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        PRIMARY KEY (event_code, path),
        UNIQUE (event_code, number)
      ) STRICT;
      CREATE INDEX photo_catalogue_seq ON photo_catalogue (seq);
    `,
  },
  {
    version: 10,
    name: 'hardening, round 2',
    // docs/contract.md, "Hardening, round 2":
    // - a held high-value order takes its coupon's use when it is confirmed: the uses held
    //   orders took before are given back (their confirmation takes them again);
    // - takedown requests remember the client address they came from (a hash of it), so
    //   hide-first hides at most a few photos per address per hour, across processes;
    // - a photo code's email subscription waits for its confirmation (`confirmed_at` NULL until
    //   then); `confirm_token` is the hash of the token its confirmation link carries. Push
    //   subscriptions are confirmed when made, and so are the subscriptions made before.
    sql: `
      UPDATE coupons SET uses = MAX(0, uses - (
        SELECT COUNT(*) FROM orders o WHERE o.coupon_code = coupons.code AND o.held = TRUE AND o.status = 'pending'
      ));

      ALTER TABLE takedowns ADD COLUMN client TEXT;
      CREATE INDEX takedowns_client ON takedowns (client, created_at);

      ALTER TABLE photo_code_subscriptions ADD COLUMN confirm_token TEXT;
      ALTER TABLE photo_code_subscriptions ADD COLUMN confirmed_at TEXT;
      UPDATE photo_code_subscriptions SET confirmed_at = created_at;
      CREATE UNIQUE INDEX photo_code_subscriptions_confirm ON photo_code_subscriptions (confirm_token);
    `,
  },
  {
    version: 11,
    name: 'the business settings saved in the dashboard; admin tokens made by the owner',
    // docs/contract.md, "Business settings" and "Roles". One row of settings (the keys saved, as
    // JSON); tokens by the SHA-256 of the token (never the token), kept when revoked.
    sql: `
      CREATE TABLE business_settings (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        settings   TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE admin_tokens (
        id         TEXT PRIMARY KEY,
        role       TEXT NOT NULL CHECK (role IN ('staff', 'viewer')),
        label      TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at TEXT,
        revoked_by TEXT
      ) STRICT;
    `,
  },
  {
    version: 12,
    name: 'printing at the booth: print jobs',
    // Every order line sent to a printer over IPP, from before the Print-Job goes out until the
    // printer says how it ended (ports/print-jobs.ts). One line has at most one job in flight.
    sql: `
      CREATE TABLE print_jobs (
        id            TEXT PRIMARY KEY,
        item_id       TEXT NOT NULL,
        order_id      TEXT NOT NULL,
        line          INTEGER NOT NULL CHECK (line >= 0),
        order_number  TEXT NOT NULL,
        event_slug    TEXT NOT NULL,
        printer       TEXT NOT NULL,
        size          TEXT NOT NULL,
        copies        INTEGER NOT NULL CHECK (copies >= 1),
        job_name      TEXT NOT NULL UNIQUE,
        job_id        INTEGER,
        state         TEXT NOT NULL
                      CHECK (state IN ('sending', 'queued', 'completed', 'canceled', 'aborted', 'refused', 'unsent', 'unknown')),
        printer_state TEXT,
        reason        TEXT,
        auto          INTEGER NOT NULL,
        requested_by  TEXT NOT NULL,
        run_id        TEXT NOT NULL,
        -- The job's place among those begun together (the queue's order), after created_at.
        position      INTEGER NOT NULL,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        finished_at   TEXT
      ) STRICT;
      CREATE UNIQUE INDEX print_jobs_in_flight ON print_jobs (item_id) WHERE state IN ('sending', 'queued');
      CREATE INDEX print_jobs_item ON print_jobs (item_id);
      CREATE INDEX print_jobs_finished ON print_jobs (finished_at) WHERE finished_at IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: 'faces: the face vectors of each photo of events with face search on',
    // One row per photo (docs/contract.md, "Find me by face"): the version and model the vectors were
    // made from, and the vectors themselves (base64); `indexed_at` lets other processes read what is new.
    sql: `
      CREATE TABLE face_index (
        event_slug TEXT NOT NULL,
        photo_id   TEXT NOT NULL,
        version    TEXT NOT NULL,
        model      TEXT NOT NULL,
        faces      INTEGER NOT NULL CHECK (faces >= 0),
        vectors    TEXT NOT NULL,
        indexed_at TEXT NOT NULL,
        PRIMARY KEY (event_slug, photo_id)
      ) STRICT;
      CREATE INDEX face_index_event_time ON face_index (event_slug, indexed_at);
    `,
  },
];
