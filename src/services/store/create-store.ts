/**
 * `ORDER_STORE` → the adapter (SPEC §10): `sqlite` (default, `DATA_DIR/orders.db`),
 * `postgres` (`DATABASE_URL`), `sheets` (Google Sheets). Not yet initialised: `init()`
 * connects and migrates, and stops start-up with a message naming the variable when the
 * store is misconfigured.
 */
import path from 'node:path';
import type { Config } from '../../config/env.js';
import { ConfigError } from '../../config/env.js';
import type { StoreLogger } from './logger.js';
import type { OrderStore } from './port.js';
import { createPostgresStore } from './postgres/index.js';
import { createSqliteStore } from './sqlite/index.js';

export const SQLITE_FILE = 'orders.db';

export async function createStore(config: Config, log: StoreLogger): Promise<OrderStore> {
  switch (config.ORDER_STORE) {
    case 'sqlite':
      return createSqliteStore({
        file: path.join(config.dataDir, SQLITE_FILE),
        log,
        checkpointIntervalMs: config.SQLITE_CHECKPOINT_INTERVAL_MS,
      });
    case 'postgres':
      if (!config.DATABASE_URL) throw new ConfigError('DATABASE_URL: required when ORDER_STORE=postgres');
      return createPostgresStore({
        connectionString: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        log,
      });
    case 'sheets': {
      // Loaded only when chosen, so googleapis stays out of the other set-ups.
      const { createSheetsStore } = await import('./sheets/index.js');
      return createSheetsStore(config, log);
    }
  }
}
