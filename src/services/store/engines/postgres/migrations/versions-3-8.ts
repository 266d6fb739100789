/**
 * PostgreSQL migrations 3 to 8: the spreadsheet mirror, pickup and printed lines, selling,
 * takedowns, the finder, the photo catalogue.
 * Applied in order with the rest of POSTGRES_MIGRATIONS (../migrations.ts); never edited once released.
 */
import type { Migration } from '../migrations.js';

export const VERSIONS_3_TO_8: readonly Migration[] = [
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
];
