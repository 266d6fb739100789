/**
 * The order record's field table (src/domain/order-fields.ts) against the migrated schema of
 * table `orders` on both engines: every field has its column, of the type its storage kind
 * has on that engine, NULL allowed exactly where the field may be null, and no column of the
 * table is left out (besides `pk` and the order number's parts). The migrations are history,
 * written by hand; this is what keeps the table and them in step.
 */
import { expect, test } from 'vitest';
import { ORDER_FIELD_NAMES, ORDER_FIELDS } from '../../src/domain/order-fields.js';
import { describeOnEngines } from '../support/store-engines.js';
import { TYPES, tableColumns } from '../support/table-columns.js';

/** Columns of the row that are no field of the record: insertion order and the order number's parts. */
const ROW_ONLY = ['pk', 'prefix', 'seq'];

describeOnEngines('order field table against the migrated orders table', (open, engine) => {
  test('every field has its column, with its type and nullability; every column is a field', async (t) => {
    const store = await open(t);
    const found = await tableColumns(store, engine, 'orders');
    const byName = new Map(found.map((c) => [c.name, c]));
    const expected = ORDER_FIELD_NAMES.map((field) => {
      const f = ORDER_FIELDS[field];
      return { name: f.column, type: TYPES[engine][f.storage], nullable: f.schema.safeParse(null).success };
    });
    expect(expected.map((c) => byName.get(c.name) ?? { name: c.name, missing: true })).toEqual(expected);
    expect(found.map((c) => c.name).sort()).toEqual(
      [...ROW_ONLY, ...ORDER_FIELD_NAMES.map((f) => ORDER_FIELDS[f].column)].sort(),
    );
  });
});
