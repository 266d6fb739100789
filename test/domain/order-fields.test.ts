/**
 * The order record's field table (src/domain/order-fields.ts) against the migrated schema of
 * table `orders` on both engines: every field has its column, of the type its storage kind
 * has on that engine, NULL allowed exactly where the field may be null, and no column of the
 * table is left out (besides `pk` and the order number's parts). The migrations are history,
 * written by hand; this is what keeps the table and them in step.
 */
import { expect, test } from 'vitest';
import { ORDER_FIELD_NAMES, ORDER_FIELDS, type Storage } from '../../src/domain/order-fields.js';
import { describeOnEngines } from '../support/store-engines.js';

/**
 * Each storage kind's column type, as each engine's catalogue names it. PostgreSQL's integer
 * columns are `bigint`, but for `version` (`integer`, PostgreSQL migration 2): either is one kind.
 */
const TYPES: Record<'sqlite' | 'postgres', Record<Storage, string>> = {
  sqlite: { text: 'TEXT', timestamp: 'TEXT', json: 'TEXT', integer: 'INTEGER', boolean: 'INTEGER' },
  postgres: {
    text: 'text',
    timestamp: 'timestamp with time zone',
    json: 'jsonb',
    integer: 'bigint',
    boolean: 'boolean',
  },
};

/** Columns of the row that are no field of the record: insertion order and the order number's parts. */
const ROW_ONLY = ['pk', 'prefix', 'seq'];

type Column = { name: string; type: string; nullable: boolean };

describeOnEngines('order field table against the migrated orders table', (open, engine) => {
  test('every field has its column, with its type and nullability; every column is a field', async (t) => {
    const store = await open(t);
    const columns: Column[] =
      engine === 'sqlite'
        ? (await store.db.all<{ name: string; type: string; notnull: number }>('PRAGMA table_info(orders)')).map(
            (c) => ({ name: c.name, type: c.type, nullable: Number(c.notnull) === 0 }),
          )
        : (
            await store.db.all<{ column_name: string; data_type: string; is_nullable: string }>(
              `SELECT column_name, data_type, is_nullable FROM information_schema.columns
               WHERE table_schema = current_schema() AND table_name = 'orders'`,
            )
          ).map((c) => ({ name: c.column_name, type: c.data_type, nullable: c.is_nullable === 'YES' }));

    const columnType = (c: Column) => (engine === 'postgres' && c.type === 'integer' ? 'bigint' : c.type);
    const found = columns.map((c) => ({ ...c, type: columnType(c) }));
    const byName = new Map(found.map((c) => [c.name, c]));
    const expected = ORDER_FIELD_NAMES.map((field) => {
      const f = ORDER_FIELDS[field];
      return { name: f.column, type: TYPES[engine][f.storage], nullable: f.schema.safeParse(null).success };
    });
    expect(expected.map((c) => byName.get(c.name) ?? { name: c.name, missing: true })).toEqual(expected);
    expect(columns.map((c) => c.name).sort()).toEqual(
      [...ROW_ONLY, ...ORDER_FIELD_NAMES.map((f) => ORDER_FIELDS[f].column)].sort(),
    );
  });
});
