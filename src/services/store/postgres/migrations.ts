/**
 * PostgreSQL schema, as numbered migrations recorded in `order_store_migrations`. Start-up
 * applies the missing ones in one transaction holding an advisory lock, so several server
 * processes starting at once migrate exactly once (the others wait, then find nothing to do).
 * Never edit a released migration: add one.
 *
 * Changes to orders and event settings are announced on the `order_store_changes` channel by
 * triggers (so a change made by hand in psql reaches the caches too); the payload is
 * `order:<id>`, `event:<slug>` or `all`.
 */
export type Migration = { version: number; name: string; sql: string };

export const CHANGE_CHANNEL = 'order_store_changes';

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
];
