/**
 * Runs an API suite on both engines of the system of record: each test asks `storeEnv(t)`
 * for the environment of its app (nothing for SQLite; `ORDER_STORE=postgres` and a fresh
 * database of a real embedded PostgreSQL for the other).
 */
import { describe, type TestContext } from 'vitest';
import { usePostgresServer } from './postgres-server.js';
import type { EngineName } from './store-engines.js';

export type StoreEnv = (t: TestContext) => Promise<Record<string, string>>;

export function describeOnAppEngines(title: string, suite: (storeEnv: StoreEnv, engine: EngineName) => void): void {
  describe(`${title} (sqlite)`, () => {
    suite(async () => ({}), 'sqlite');
  });
  describe(`${title} (postgres)`, () => {
    const server = usePostgresServer();
    suite(async (t) => ({ ORDER_STORE: 'postgres', DATABASE_URL: await server().freshDatabase(t) }), 'postgres');
  });
}
