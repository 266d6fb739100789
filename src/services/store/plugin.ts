/**
 * The system of record, decorated as `fastify.store` (store.ts): a route or service takes the
 * ports it uses. `ORDER_STORE` picks the engine: `sqlite` (default) or `postgres`; `sheets` is
 * SQLite with the spreadsheet mirror. A misconfigured store stops start-up, naming the
 * variable. It is registered before every service that uses it, so it closes last.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/env.js';
import { ConfigError } from '../../config/env.js';
import type { Logger } from '../../lib/logger.js';
import { openStore, type Store, type StoreOptions } from './store.js';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
  }
}

const SQLITE_FILE = 'orders.db';
/** Where a Google Sheets deployment of the earlier design kept its local data (imported once). */
const SHEETS_SIDE_STORE_FILE = 'sheets-local.db';

/** The engine `ORDER_STORE` names, with its settings from the config (also what the command-line jobs open). */
export function storeOptions(config: Config, log: Logger): StoreOptions {
  const sheetsSideStore = path.join(config.dataDir, SHEETS_SIDE_STORE_FILE);
  if (config.ORDER_STORE === 'postgres') {
    if (!config.DATABASE_URL) throw new ConfigError('DATABASE_URL: required when ORDER_STORE=postgres');
    return {
      engine: 'postgres',
      connectionString: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      log,
      sheetsSideStore,
    };
  }
  return {
    engine: 'sqlite',
    file: path.join(config.dataDir, SQLITE_FILE),
    checkpointIntervalMs: config.SQLITE_CHECKPOINT_INTERVAL_MS,
    log,
    sheetsSideStore,
  };
}

async function storePlugin(fastify: FastifyInstance): Promise<void> {
  const { config } = fastify;
  const log = fastify.log.child({ component: 'store' });
  const store = await openStore(storeOptions(config, log));
  fastify.decorate('store', {
    engine: store.engine,
    orders: store.orders,
    eventSettings: store.eventSettings,
    pushSubscriptions: store.pushSubscriptions,
    idempotencyKeys: store.idempotencyKeys,
    captchaTokens: store.captchaTokens,
    outbox: store.outbox,
    takedowns: store.takedowns,
    coupons: store.coupons,
    downloadGrants: store.downloadGrants,
    paymentEvents: store.paymentEvents,
    mirror: store.mirror,
    photoCodes: store.photoCodes,
    printJobs: store.printJobs,
    faces: store.faces,
    businessSettings: store.businessSettings,
    adminTokens: store.adminTokens,
    photoCatalogue: store.photoCatalogue,
  } satisfies Store);
  fastify.readiness.add('store', () => store.health());
  fastify.addHook('onClose', async () => {
    await store.close();
  });
}

export default fp(storePlugin, { name: 'store', dependencies: ['config', 'readiness'] });
