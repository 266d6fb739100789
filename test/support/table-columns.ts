/**
 * A migrated table's columns as each engine's catalogue describes them, and the column type
 * each storage kind (src/domain/order-fields.ts `Storage`) has there: what the field tables
 * (the order's, and each record's in src/services/store/sql/record-table.ts) are checked against.
 */
import type { Storage } from '../../src/domain/order-fields.js';
import type { OpenedStore } from '../../src/services/store/store.js';
import type { EngineName } from './store-engines.js';

/**
 * Each storage kind's column type, as each engine's catalogue names it. PostgreSQL's integer
 * columns are `bigint` or `integer` (the migrations use both): either is one kind.
 */
export const TYPES: Record<EngineName, Record<Storage, string>> = {
  sqlite: { text: 'TEXT', timestamp: 'TEXT', json: 'TEXT', integer: 'INTEGER', real: 'REAL', boolean: 'INTEGER' },
  postgres: {
    text: 'text',
    timestamp: 'timestamp with time zone',
    json: 'jsonb',
    integer: 'bigint',
    real: 'double precision',
    boolean: 'boolean',
  },
};

export type TableColumn = { name: string; type: string; nullable: boolean };

/** The table's columns (PostgreSQL's `integer` read as `bigint`, see TYPES). */
export async function tableColumns(store: OpenedStore, engine: EngineName, table: string): Promise<TableColumn[]> {
  if (engine === 'sqlite') {
    const rows = await store.db.all<{ name: string; type: string; notnull: number }>(`PRAGMA table_info(${table})`);
    return rows.map((c) => ({ name: c.name, type: c.type, nullable: Number(c.notnull) === 0 }));
  }
  const rows = await store.db.all<{ column_name: string; data_type: string; is_nullable: string }>(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ?`,
    [table],
  );
  return rows.map((c) => ({
    name: c.column_name,
    type: c.data_type === 'integer' ? 'bigint' : c.data_type,
    nullable: c.is_nullable === 'YES',
  }));
}
