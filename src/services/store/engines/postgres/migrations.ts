/**
 * PostgreSQL schema, as numbered migrations recorded in `order_store_migrations`. Start-up
 * applies the missing ones in one transaction holding an advisory lock, so several server
 * processes starting at once migrate exactly once. Never edit a released migration: add one
 * (and its SQLite twin in engines/sqlite/migrations.ts: sql/ runs the same SQL on both).
 */
import { VERSIONS_1_TO_2 } from './migrations/versions-1-2.js';
import { VERSIONS_3_TO_8 } from './migrations/versions-3-8.js';

export type Migration = { version: number; name: string; sql: string };

/** Key of the advisory lock held while migrating (any constant unique to this app). */
export const MIGRATION_LOCK_KEY = 7_424_218_001;

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  ...VERSIONS_1_TO_2,
  ...VERSIONS_3_TO_8,
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
