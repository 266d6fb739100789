/**
 * PostgreSQL migrations 1 to 2: the first schema (orders, the mail outbox, event settings,
 * push subscriptions, idempotency keys, change notices), then orders numbered by (prefix, seq)
 * with version and history, and no change notices.
 * Applied in order with the rest of POSTGRES_MIGRATIONS (../migrations.ts); never edited once released.
 */
import type { Migration } from '../migrations.js';

const CHANGE_CHANNEL = 'order_store_changes';

export const VERSIONS_1_TO_2: readonly Migration[] = [
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
];
