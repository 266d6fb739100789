/**
 * SQLite migrations 4 to 9: the spreadsheet mirror, pickup and printed lines, selling,
 * takedowns, the finder, the photo catalogue.
 * Applied in order with the rest of SQLITE_MIGRATIONS (../migrations.ts); never edited once released.
 */
import type { Migration } from '../migrations.js';

export const VERSIONS_4_TO_9: readonly Migration[] = [
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
];
