/**
 * PostgreSQL schema, as numbered migrations recorded in `order_store_migrations`. Start-up
 * applies the missing ones in one transaction holding an advisory lock, so several server
 * processes starting at once migrate exactly once (the others wait, then find nothing to do).
 * Never edit a released migration: add one (and its SQLite twin in
 * engines/sqlite/migrations.ts: the table modules in sql/ run the same SQL on both).
 *
 * Version 1 announced changes on a LISTEN/NOTIFY channel for the read caches of other
 * processes; version 2 drops that (reads are read through now).
 */
export type Migration = { version: number; name: string; sql: string };

const CHANGE_CHANNEL = 'order_store_changes';

/** Key of the advisory lock held while migrating (any constant unique to this app). */
export const MIGRATION_LOCK_KEY = 7_424_218_001;

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'orders, sequences, mail outbox, event settings, push subscriptions, idempotency keys',
    sql: `
      CREATE TABLE order_sequences (
        prefix text PRIMARY KEY,
        last   bigint NOT NULL CHECK (last >= 1)
      );

      CREATE TABLE orders (
        pk                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id                 text NOT NULL UNIQUE,
        order_number       text NOT NULL UNIQUE,
        event_slug         text NOT NULL,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL,
        customer_name      text NOT NULL,
        customer_email     text NOT NULL,
        customer_phone     text NOT NULL,
        fulfillment_type   text NOT NULL CHECK (fulfillment_type IN ('ship', 'pickup')),
        shipping_address   text NOT NULL,
        city               text NOT NULL,
        state              text NOT NULL,
        zip_code           text NOT NULL,
        items              jsonb NOT NULL,
        subtotal_cents     bigint NOT NULL,
        shipping_fee_cents bigint NOT NULL,
        total_cents        bigint NOT NULL,
        status             text NOT NULL CHECK (status IN ('pending', 'paid', 'void', 'cancelled')),
        shipping_status    text NOT NULL CHECK (shipping_status IN ('ship', 'shipped')),
        tracking_number    text NOT NULL,
        feedback           text NOT NULL,
        held               boolean NOT NULL,
        hold_expires_at    timestamptz,
        address_verified   boolean,
        channel            text NOT NULL
      );
      CREATE INDEX orders_by_status ON orders (held, status, pk);
      CREATE INDEX orders_by_event ON orders (event_slug, held, status, pk);
      CREATE INDEX orders_holds ON orders (hold_expires_at) WHERE held;

      CREATE TABLE mail_jobs (
        id              text PRIMARY KEY,
        kind            text NOT NULL,
        order_id        text,
        payload         jsonb NOT NULL,
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error      text,
        created_at      timestamptz NOT NULL,
        sent_at         timestamptz,
        sent_via        text
      );
      CREATE INDEX mail_jobs_due ON mail_jobs (next_attempt_at) WHERE sent_at IS NULL;

      CREATE TABLE event_settings (
        event_slug text PRIMARY KEY,
        settings   jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      );

      CREATE TABLE push_subscriptions (
        endpoint   text NOT NULL,
        -- the order id, or '' for admin subscriptions (primary key columns can't be NULL)
        order_key  text NOT NULL,
        p256dh     text NOT NULL,
        auth       text NOT NULL,
        scope      text NOT NULL CHECK (scope IN ('admin', 'order')),
        order_id   text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (endpoint, order_key)
      );
      CREATE INDEX push_by_order ON push_subscriptions (order_id);
      CREATE INDEX push_by_scope ON push_subscriptions (scope);

      CREATE TABLE idempotency_keys (
        key           text PRIMARY KEY,
        fingerprint   text NOT NULL,
        state         text NOT NULL CHECK (state IN ('pending', 'done')),
        status_code   integer,
        response_body text,
        created_at    timestamptz NOT NULL,
        expires_at    timestamptz NOT NULL
      );
      CREATE INDEX idempotency_expiry ON idempotency_keys (expires_at);

      CREATE FUNCTION order_store_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_LEVEL = 'STATEMENT' THEN
          PERFORM pg_notify('${CHANGE_CHANNEL}', 'all');
        ELSIF TG_TABLE_NAME = 'orders' THEN
          PERFORM pg_notify('${CHANGE_CHANNEL}', 'order:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        ELSE
          PERFORM pg_notify('${CHANGE_CHANNEL}',
            'event:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.event_slug ELSE NEW.event_slug END);
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE OR DELETE ON orders
        FOR EACH ROW EXECUTE FUNCTION order_store_notify();
      CREATE TRIGGER orders_truncated AFTER TRUNCATE ON orders
        FOR EACH STATEMENT EXECUTE FUNCTION order_store_notify();
      CREATE TRIGGER event_settings_changed AFTER INSERT OR UPDATE OR DELETE ON event_settings
        FOR EACH ROW EXECUTE FUNCTION order_store_notify();
      CREATE TRIGGER event_settings_truncated AFTER TRUNCATE ON event_settings
        FOR EACH STATEMENT EXECUTE FUNCTION order_store_notify();
    `,
  },
  {
    version: 2,
    name: 'orders numbered by (prefix, seq); version and history; pickup shipping status; Idempotency-Key order; spent CAPTCHA tokens; no change notices',
    // The same schema as SQLite's version 3 (engines/sqlite/migrations.ts), so one SQL serves both:
    // - numbers: max(seq) + 1 per prefix under an advisory lock (sql/orders.ts), no sequence
    //   table; a lookup by number goes through (prefix, seq);
    // - `version` and `history` (existing orders start with the create entry their row tells);
    // - pickup orders' shipping status becomes `pickup`;
    // - an Idempotency-Key records its order; spent CAPTCHA tokens are kept until they expire.
    sql: `
      DROP TRIGGER orders_changed ON orders;
      DROP TRIGGER orders_truncated ON orders;
      DROP TRIGGER event_settings_changed ON event_settings;
      DROP TRIGGER event_settings_truncated ON event_settings;
      DROP FUNCTION order_store_notify();

      ALTER TABLE orders DROP CONSTRAINT orders_shipping_status_check;
      ALTER TABLE orders ADD COLUMN prefix text, ADD COLUMN seq bigint,
        ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
        ADD COLUMN history jsonb NOT NULL DEFAULT '[]';
      UPDATE orders SET
        prefix = split_part(order_number, '-', 1),
        seq = split_part(order_number, '-', 2)::bigint,
        shipping_status = CASE WHEN fulfillment_type = 'pickup' AND shipping_status = 'ship' THEN 'pickup'
          ELSE shipping_status END,
        history = jsonb_build_array(jsonb_build_object(
          'at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'action', 'create', 'to', 'pending',
          'by', CASE channel WHEN 'web' THEN 'customer' ELSE 'admin' END));
      ALTER TABLE orders ALTER COLUMN prefix SET NOT NULL, ALTER COLUMN seq SET NOT NULL,
        ALTER COLUMN version DROP DEFAULT, ALTER COLUMN history DROP DEFAULT,
        ADD CONSTRAINT orders_shipping_status_check CHECK (shipping_status IN ('ship', 'shipped', 'pickup')),
        ADD CONSTRAINT orders_seq_check CHECK (seq >= 1),
        ADD CONSTRAINT orders_number UNIQUE (prefix, seq),
        DROP CONSTRAINT orders_order_number_key;
      DROP TABLE order_sequences;

      ALTER TABLE idempotency_keys ADD COLUMN order_id text;

      CREATE TABLE captcha_tokens (
        token_hash text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX captcha_tokens_expiry ON captcha_tokens (expires_at);
    `,
  },
  {
    version: 3,
    name: 'the spreadsheet mirror: rows written, its state, its problems',
    // The same tables as SQLite's version 4 (engines/sqlite/migrations.ts).
    sql: `
      CREATE TABLE mirror_rows (
        order_id   text PRIMARY KEY,
        version    integer NOT NULL CHECK (version >= 0),
        cells      jsonb NOT NULL,
        sheet_row  integer,
        removed    boolean NOT NULL DEFAULT false,
        written_at timestamptz NOT NULL
      );

      CREATE TABLE mirror_state (
        id            integer PRIMARY KEY CHECK (id = 1),
        last_sync_at  timestamptz,
        last_error    text,
        last_error_at timestamptz,
        imported_at   timestamptz
      );
      INSERT INTO mirror_state (id) VALUES (1);

      CREATE TABLE mirror_problems (
        pk           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind         text NOT NULL CHECK (kind IN ('conflict', 'rejected', 'unreadable', 'removed', 'duplicate')),
        order_id     text,
        order_number text,
        sheet_row    integer,
        message      text NOT NULL,
        at           timestamptz NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'pickup status and printed lines',
    // The same columns as SQLite's version 5 (engines/sqlite/migrations.ts).
    sql: `
      ALTER TABLE orders ADD COLUMN pickup_status text
          CHECK (pickup_status IN ('waiting', 'ready', 'collected')),
        ADD COLUMN printed jsonb NOT NULL DEFAULT '[]';
      UPDATE orders SET pickup_status = 'waiting' WHERE fulfillment_type = 'pickup';
    `,
  },
  {
    version: 5,
    name: 'selling: order discount, coupon and payment; coupons; download counts; handled payment events',
    // The same schema as SQLite's version 6 (engines/sqlite/migrations.ts); docs/contract.md, "Selling".
    sql: `
      ALTER TABLE orders ADD COLUMN discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
        ADD COLUMN coupon_code text, ADD COLUMN payment jsonb;
      UPDATE orders SET discount_cents = greatest(0, subtotal_cents + shipping_fee_cents - total_cents);

      CREATE TABLE coupons (
        code               text PRIMARY KEY,
        event_slug         text,
        kind               text NOT NULL CHECK (kind IN ('percent', 'amount', 'freeShipping')),
        value              bigint,
        expires_at         timestamptz,
        max_uses           integer CHECK (max_uses >= 1),
        uses               integer NOT NULL CHECK (uses >= 0),
        min_subtotal_cents bigint NOT NULL CHECK (min_subtotal_cents >= 0),
        created_at         timestamptz NOT NULL,
        CHECK (max_uses IS NULL OR uses <= max_uses)
      );

      CREATE TABLE download_grants (
        order_id   text NOT NULL,
        line       integer NOT NULL CHECK (line >= 1),
        used       integer NOT NULL CHECK (used >= 0),
        expires_at timestamptz NOT NULL,
        last_at    timestamptz NOT NULL,
        PRIMARY KEY (order_id, line)
      );

      CREATE TABLE payment_events (
        event_id    text PRIMARY KEY,
        kind        text NOT NULL,
        order_id    text,
        received_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'takedown requests',
    // The same table as SQLite's version 7 (engines/sqlite/migrations.ts).
    sql: `
      CREATE TABLE takedowns (
        id           text PRIMARY KEY,
        event_slug   text NOT NULL,
        photo_id     text NOT NULL,
        photo_number text NOT NULL,
        reason       text NOT NULL CHECK (reason IN ('me', 'copyright', 'other')),
        email        text NOT NULL,
        message      text NOT NULL,
        hides        boolean NOT NULL,
        created_at   timestamptz NOT NULL,
        decision     text CHECK (decision IN ('remove', 'restore')),
        decided_at   timestamptz,
        decided_by   text
      );
      CREATE INDEX takedowns_photo ON takedowns (event_slug, photo_id);
      CREATE INDEX takedowns_created ON takedowns (created_at);
    `,
  },
  {
    version: 7,
    name: 'finder: photo codes and their subscriptions',
    // Issued photo codes (POST /api/finder, card sheets) and who is told when photos join one.
    // `target` is the push endpoint or the lower-cased email: one subscription of each per code.
    sql: `
      CREATE TABLE photo_codes (
        code       text PRIMARY KEY,
        issued_via text NOT NULL CHECK (issued_via IN ('app', 'admin', 'card')),
        created_at timestamptz NOT NULL
      );

      CREATE TABLE photo_code_subscriptions (
        id             text PRIMARY KEY,
        code           text NOT NULL REFERENCES photo_codes (code),
        target         text NOT NULL,
        channel        text NOT NULL CHECK (channel IN ('push', 'email')),
        endpoint       text,
        p256dh         text,
        auth           text,
        email          text,
        notified_count integer NOT NULL CHECK (notified_count >= 0),
        notified_at    timestamptz,
        created_at     timestamptz NOT NULL,
        UNIQUE (code, target)
      );
      CREATE INDEX photo_code_subscriptions_target ON photo_code_subscriptions (target);
    `,
  },
  {
    version: 8,
    name: 'the photo catalogue',
    // The same table as SQLite's version 9 (engines/sqlite/migrations.ts).
    sql: `
      CREATE TABLE photo_catalogue (
        event_code  text NOT NULL,
        path        text NOT NULL,
        id          text NOT NULL,
        number      integer CHECK (number >= 1),
        size        bigint CHECK (size >= 0),
        mtime_ms    double precision,
        width       integer CHECK (width >= 1),
        height      integer CHECK (height >= 1),
        taken_at_ms bigint,
        inspected   boolean NOT NULL,
        photo_code  text,
        present     boolean NOT NULL,
        hidden      boolean NOT NULL,
        rating      integer CHECK (rating BETWEEN -1 AND 5),
        metadata    jsonb,
        seq         bigint NOT NULL CHECK (seq >= 1),
        PRIMARY KEY (event_code, path),
        UNIQUE (event_code, number)
      );
      CREATE INDEX photo_catalogue_seq ON photo_catalogue (seq);
    `,
  },
  {
    version: 9,
    name: 'hardening, round 2',
    // The same changes as SQLite's version 10 (engines/sqlite/migrations.ts).
    sql: `
      UPDATE coupons SET uses = GREATEST(0, uses - (
        SELECT COUNT(*) FROM orders o WHERE o.coupon_code = coupons.code AND o.held = TRUE AND o.status = 'pending'
      ));

      ALTER TABLE takedowns ADD COLUMN client text;
      CREATE INDEX takedowns_client ON takedowns (client, created_at);

      ALTER TABLE photo_code_subscriptions ADD COLUMN confirm_token text;
      ALTER TABLE photo_code_subscriptions ADD COLUMN confirmed_at timestamptz;
      UPDATE photo_code_subscriptions SET confirmed_at = created_at;
      CREATE UNIQUE INDEX photo_code_subscriptions_confirm ON photo_code_subscriptions (confirm_token);
    `,
  },
  {
    version: 10,
    name: 'the business settings saved in the dashboard; admin tokens made by the owner',
    // The same tables as SQLite's version 11 (engines/sqlite/migrations.ts).
    sql: `
      CREATE TABLE business_settings (
        id         integer PRIMARY KEY CHECK (id = 1),
        settings   jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      );

      CREATE TABLE admin_tokens (
        id         text PRIMARY KEY,
        role       text NOT NULL CHECK (role IN ('staff', 'viewer')),
        label      text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        revoked_at timestamptz,
        revoked_by text
      );
    `,
  },
  {
    version: 11,
    name: 'printing at the booth: print jobs',
    // Every order line sent to a printer over IPP, from before the Print-Job goes out until the
    // printer says how it ended (ports/print-jobs.ts). One line has at most one job in flight.
    sql: `
      CREATE TABLE print_jobs (
        id            text PRIMARY KEY,
        item_id       text NOT NULL,
        order_id      text NOT NULL,
        line          integer NOT NULL CHECK (line >= 0),
        order_number  text NOT NULL,
        event_slug    text NOT NULL,
        printer       text NOT NULL,
        size          text NOT NULL,
        copies        integer NOT NULL CHECK (copies >= 1),
        job_name      text NOT NULL UNIQUE,
        job_id        integer,
        state         text NOT NULL
                      CHECK (state IN ('sending', 'queued', 'completed', 'canceled', 'aborted', 'refused', 'unsent', 'unknown')),
        printer_state text,
        reason        text,
        auto          boolean NOT NULL,
        requested_by  text NOT NULL,
        run_id        text NOT NULL,
        -- The job's place among those begun together (the queue's order), after created_at.
        position      integer NOT NULL,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        finished_at   timestamptz
      );
      CREATE UNIQUE INDEX print_jobs_in_flight ON print_jobs (item_id) WHERE state IN ('sending', 'queued');
      CREATE INDEX print_jobs_item ON print_jobs (item_id);
      CREATE INDEX print_jobs_finished ON print_jobs (finished_at) WHERE finished_at IS NOT NULL;
    `,
  },
  {
    version: 12,
    name: 'faces: the face vectors of each photo of events with face search on',
    // The same as SQLite 13.
    sql: `
      CREATE TABLE face_index (
        event_slug text NOT NULL,
        photo_id   text NOT NULL,
        version    text NOT NULL,
        model      text NOT NULL,
        faces      integer NOT NULL CHECK (faces >= 0),
        vectors    text NOT NULL,
        indexed_at timestamptz NOT NULL,
        PRIMARY KEY (event_slug, photo_id)
      );
      CREATE INDEX face_index_event_time ON face_index (event_slug, indexed_at);
    `,
  },
];
