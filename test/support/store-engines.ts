/**
 * Runs a store suite on both engines: SQLite (a file in a temp dir) and PostgreSQL (a real
 * embedded server for the file, a fresh database per test). Each port's conformance suite
 * (test/services/store/ports/) calls it once:
 *
 *   describeOnEngines('orders', (open) => {
 *     test('...', async (t) => {
 *       const store = await open(t);   // migrated, empty, closed when the test ends
 *       await store.orders.create(...);
 *     });
 *   });
 */
import path from 'node:path';
import { describe, type TestContext } from 'vitest';
import type { PostgresEngine } from '../../src/services/store/engines/postgres/engine.js';
import type { SqliteEngine } from '../../src/services/store/engines/sqlite/engine.js';
import { type OpenedStore, openStore } from '../../src/services/store/store.js';
import { tempDir } from '../helpers/build.js';
import { usePostgresServer } from './postgres-server.js';

export type StoreFactory = (t: TestContext) => Promise<OpenedStore>;

export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/** An opened SQLite store in a temp dir, closed when the test ends. */
export async function sqliteStore(t: TestContext, file?: string) {
  const store = await openStore({ engine: 'sqlite', file: file ?? path.join(await tempDir(t), 'orders.db') });
  t.onTestFinished(() => store.close());
  return store;
}

export function describeOnEngines(title: string, suite: (open: StoreFactory, engine: EngineName) => void): void {
  describe(`${title} (sqlite)`, () => {
    suite((t) => sqliteStore(t), 'sqlite');
  });
  describe(`${title} (postgres)`, () => {
    const server = usePostgresServer();
    suite(async (t) => {
      const store = await openStore({ engine: 'postgres', connectionString: await server().freshDatabase(t) });
      t.onTestFinished(() => store.close());
      return store;
    }, 'postgres');
  });
}

/** Another store on the same file or database, as a second server process opens it; closed when the test ends. */
export async function reopenStore(t: TestContext, store: OpenedStore): Promise<OpenedStore> {
  const other =
    store.engine === 'sqlite'
      ? await openStore({ engine: 'sqlite', file: (store.db as SqliteEngine).file })
      : await openStore({ engine: 'postgres', connectionString: (store.db as PostgresEngine).url });
  t.onTestFinished(() => other.close());
  return other;
}
