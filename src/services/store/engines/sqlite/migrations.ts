/**
 * SQLite schema, as numbered migrations. `PRAGMA user_version` records the last one applied;
 * start-up applies the rest in one transaction. Never edit a released migration: add one
 * (and its PostgreSQL twin in engines/postgres/migrations.ts: the table modules in sql/ run
 * the same SQL on both).
 *
 * Timestamps are ISO 8601 UTC text from `toISOString()`, so text order is time order.
 * Money is integer cents. `pk` gives the newest-first order of the lists.
 */
import { VERSIONS_1_TO_3 } from './migrations/versions-1-3.js';
import { VERSIONS_4_TO_9 } from './migrations/versions-4-9.js';

export type Migration = { version: number; name: string; sql: string };

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  ...VERSIONS_1_TO_3,
  ...VERSIONS_4_TO_9,
  {
    version: 10,
    name: 'hardening, round 2',
    // docs/contract.md, "Hardening, round 2": held orders give back the coupon uses they took
    // (their confirmation takes them again); takedowns keep a hash of their client's address
    // (the hide-first limit); email subscriptions wait for their confirmation, whose token is
    // kept hashed. Subscriptions made before count as confirmed.
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
