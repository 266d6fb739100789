/**
 * Each record's table (src/services/store/sql/record-table.ts, built from its port's zod
 * record) against the migrated table on both engines: every field has its column, of the type
 * its storage kind has on that engine, a nullable field a column that takes NULL, and every
 * column of the table is a field or one the record's SQL writes beside them. The migrations
 * are history, written by hand; this keeps the record tables and them in step.
 */
import { expect, test } from 'vitest';
import { TOKENS } from '../../../../src/services/store/sql/admin-tokens.js';
import { BUSINESS_SETTINGS } from '../../../../src/services/store/sql/business-settings.js';
import { CAPTCHA_TOKENS } from '../../../../src/services/store/sql/captcha-tokens.js';
import { COUPONS } from '../../../../src/services/store/sql/coupons.js';
import { DOWNLOAD_GRANTS } from '../../../../src/services/store/sql/download-grants.js';
import { EVENT_SETTINGS } from '../../../../src/services/store/sql/event-settings.js';
import { FACES } from '../../../../src/services/store/sql/faces.js';
import { IDEMPOTENCY_KEYS } from '../../../../src/services/store/sql/idempotency-keys.js';
import { MAIL_JOBS } from '../../../../src/services/store/sql/mail-outbox.js';
import { MIRROR_PROBLEMS, MIRROR_ROWS, MIRROR_STATE } from '../../../../src/services/store/sql/mirror.js';
import { PAYMENT_EVENTS } from '../../../../src/services/store/sql/payment-events.js';
import { PHOTO_CATALOGUE } from '../../../../src/services/store/sql/photo-catalogue-rows.js';
import { SUBSCRIPTIONS as CODE_SUBSCRIPTIONS, PHOTO_CODES } from '../../../../src/services/store/sql/photo-codes.js';
import { PRINT_JOBS } from '../../../../src/services/store/sql/print-jobs.js';
import { SUBSCRIPTIONS } from '../../../../src/services/store/sql/push-subscriptions.js';
import type { RecordTable } from '../../../../src/services/store/sql/record-table.js';
import { TAKEDOWNS } from '../../../../src/services/store/sql/takedowns.js';
import { describeOnEngines } from '../../../support/store-engines.js';
import { TYPES, tableColumns } from '../../../support/table-columns.js';

/** Each table, with the columns its SQL writes beside the record's fields. */
const TABLES: [string, RecordTable<unknown>, string[]][] = [
  ['admin_tokens', TOKENS, []],
  ['business_settings', BUSINESS_SETTINGS, ['id']],
  ['captcha_tokens', CAPTCHA_TOKENS, []],
  ['coupons', COUPONS, []],
  ['download_grants', DOWNLOAD_GRANTS, []],
  ['event_settings', EVENT_SETTINGS, []],
  ['face_index', FACES, []],
  ['idempotency_keys', IDEMPOTENCY_KEYS, []],
  ['mail_jobs', MAIL_JOBS, []],
  ['mirror_problems', MIRROR_PROBLEMS, ['pk']],
  ['mirror_rows', MIRROR_ROWS, []],
  ['mirror_state', MIRROR_STATE, ['id']],
  ['payment_events', PAYMENT_EVENTS, []],
  ['photo_catalogue', PHOTO_CATALOGUE, []],
  ['photo_codes', PHOTO_CODES, []],
  ['photo_code_subscriptions', CODE_SUBSCRIPTIONS, ['target', 'confirm_token']],
  ['print_jobs', PRINT_JOBS, ['position']],
  ['push_subscriptions', SUBSCRIPTIONS, ['order_key']],
  ['takedowns', TAKEDOWNS, ['client']],
];

describeOnEngines('record tables against the migrated tables', (open, engine) => {
  test('every field has its column, with its type, NULL where the field may be null; every column is known', async (t) => {
    const store = await open(t);
    for (const [table, record, rowOnly] of TABLES) {
      const found = await tableColumns(store, engine, table);
      const byName = new Map(found.map((c) => [c.name, c]));
      const expected = record.columns.map((c) => ({
        table,
        name: c.column,
        type: TYPES[engine][c.storage],
        ...(c.nullable ? { nullable: true } : {}),
      }));
      const actual = expected.map((e) => {
        const c = byName.get(e.name);
        if (!c) return { table, name: e.name, missing: true };
        return { table, name: c.name, type: c.type, ...(e.nullable ? { nullable: c.nullable } : {}) };
      });
      expect(actual).toEqual(expected);
      expect(found.map((c) => c.name).sort()).toEqual([...rowOnly, ...record.names].sort());
    }
  });

  test('every table the migrations made is declared: the orders by their field table, the others here', async (t) => {
    const store = await open(t);
    const tables =
      engine === 'sqlite'
        ? await store.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        : await store.db.all<{ name: string }>(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
          );
    // Beside them, PostgreSQL's runner records the versions applied (SQLite keeps it in user_version).
    const runner = engine === 'postgres' ? ['order_store_migrations'] : [];
    const declared = ['orders', ...runner, ...TABLES.map(([table]) => table)];
    expect(tables.map((r) => r.name).sort()).toEqual(declared.sort());
  });
});
