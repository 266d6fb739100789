/**
 * The system of record: one engine (SQLite or PostgreSQL) and the ports built on it, one
 * per kind of record. Consumers get the port they use (`fastify.store.orders`,
 * `fastify.store.outbox`, ...), never the engine. How to add a record: docs/store.md.
 */

import { type Logger, silentLogger } from '../../lib/logger.js';
import type { PostgresEngine, PostgresEngineOptions } from './engines/postgres/engine.js';
import { SqliteEngine, type SqliteEngineOptions } from './engines/sqlite/engine.js';
import { importSheetsSideStore } from './engines/sqlite/import-sheets-side-store.js';
import type { AdminTokensPort } from './ports/admin-tokens.js';
import type { BusinessSettingsPort } from './ports/business-settings.js';
import type { CaptchaTokensPort } from './ports/captcha-tokens.js';
import type { CouponsPort } from './ports/coupons.js';
import type { DownloadGrantsPort } from './ports/download-grants.js';
import type { EventSettingsPort } from './ports/event-settings.js';
import type { FacesPort } from './ports/faces.js';
import type { IdempotencyKeysPort } from './ports/idempotency-keys.js';
import type { MailOutboxPort } from './ports/mail-outbox.js';
import type { MirrorPort } from './ports/mirror.js';
import type { OrdersPort } from './ports/orders.js';
import type { PaymentEventsPort } from './ports/payment-events.js';
import type { PhotoCataloguePort } from './ports/photo-catalogue.js';
import type { PhotoCodesPort } from './ports/photo-codes.js';
import type { PrintJobsPort } from './ports/print-jobs.js';
import type { PushSubscriptionsPort } from './ports/push-subscriptions.js';
import type { TakedownsPort } from './ports/takedowns.js';
import { SqlAdminTokens } from './sql/admin-tokens.js';
import { SqlBusinessSettings } from './sql/business-settings.js';
import { SqlCaptchaTokens } from './sql/captcha-tokens.js';
import { SqlCoupons } from './sql/coupons.js';
import type { Db } from './sql/db.js';
import { SqlDownloadGrants } from './sql/download-grants.js';
import { SqlEventSettings } from './sql/event-settings.js';
import { SqlFaces } from './sql/faces.js';
import { SqlIdempotencyKeys } from './sql/idempotency-keys.js';
import { SqlMailOutbox } from './sql/mail-outbox.js';
import { SqlMirror } from './sql/mirror.js';
import { SqlOrders } from './sql/orders.js';
import { SqlPaymentEvents } from './sql/payment-events.js';
import { SqlPhotoCatalogue } from './sql/photo-catalogue.js';
import { SqlPhotoCodes } from './sql/photo-codes.js';
import { SqlPrintJobs } from './sql/print-jobs.js';
import { SqlPushSubscriptions } from './sql/push-subscriptions.js';
import { SqlTakedowns } from './sql/takedowns.js';

/** What `fastify.store` holds: the ports. */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly orders: OrdersPort;
  readonly eventSettings: EventSettingsPort;
  readonly pushSubscriptions: PushSubscriptionsPort;
  readonly idempotencyKeys: IdempotencyKeysPort;
  readonly captchaTokens: CaptchaTokensPort;
  readonly outbox: MailOutboxPort;
  readonly coupons: CouponsPort;
  readonly downloadGrants: DownloadGrantsPort;
  readonly paymentEvents: PaymentEventsPort;
  /** The spreadsheet mirror's records (src/services/mirror is its one user). */
  readonly mirror: MirrorPort;
  readonly photoCodes: PhotoCodesPort;
  readonly takedowns: TakedownsPort;
  /** Order lines sent to the booth's printers (src/services/printing is its one user). */
  readonly printJobs: PrintJobsPort;
  /** Face search's vectors (src/services/faces is its one user). */
  readonly faces: FacesPort;
  /** The business settings saved in the dashboard (src/services/business-settings is its one user). */
  readonly businessSettings: BusinessSettingsPort;
  /** Admin tokens made by the owner (src/services/admin-auth is their one user besides their routes). */
  readonly adminTokens: AdminTokensPort;
  /** Every photo file seen, with its number (src/services/photos is its one user). */
  readonly photoCatalogue: PhotoCataloguePort;
}

export type StoreOptions = (
  | ({ engine: 'sqlite' } & SqliteEngineOptions)
  | ({ engine: 'postgres' } & PostgresEngineOptions)
) & {
  /** A Google Sheets deployment's `DATA_DIR/sheets-local.db` to take into the record once (docs/store.md). */
  sheetsSideStore?: string;
};

type Engine = Db & {
  health(): Promise<{ ok: boolean; details: Record<string, unknown> }>;
  close(): Promise<void>;
};

/** The store as opened: the ports, the engine under them (for tests and the CLI), and its life. */
export type OpenedStore<E extends Engine = Engine> = Store & {
  readonly db: E;
  readonly orders: SqlOrders;
  /** Reachability for /readyz, with the mail waiting (informational). */
  health(): Promise<{ ok: boolean; details: Record<string, unknown> }>;
  /** Writes what was submitted, then closes the engine. */
  close(): Promise<void>;
};

function portsOn<E extends Engine>(db: E): OpenedStore<E> {
  const orders = new SqlOrders(db);
  return {
    db,
    engine: db.dialect.engine,
    orders,
    eventSettings: new SqlEventSettings(db),
    pushSubscriptions: new SqlPushSubscriptions(db),
    idempotencyKeys: new SqlIdempotencyKeys(db),
    captchaTokens: new SqlCaptchaTokens(db),
    outbox: new SqlMailOutbox(db),
    coupons: new SqlCoupons(db),
    downloadGrants: new SqlDownloadGrants(db),
    paymentEvents: new SqlPaymentEvents(db),
    mirror: new SqlMirror(db),
    photoCodes: new SqlPhotoCodes(db),
    takedowns: new SqlTakedowns(db),
    printJobs: new SqlPrintJobs(db),
    faces: new SqlFaces(db),
    businessSettings: new SqlBusinessSettings(db),
    adminTokens: new SqlAdminTokens(db),
    photoCatalogue: new SqlPhotoCatalogue(db),
    health: () => db.health(),
    async close() {
      await orders.idle();
      await db.close();
    },
  };
}

/**
 * Opens the engine (connecting and migrating; a misconfiguration throws a ConfigError naming
 * the variable) and builds the ports on it.
 */
export async function openStore(options: StoreOptions & { engine: 'sqlite' }): Promise<OpenedStore<SqliteEngine>>;
export async function openStore(options: StoreOptions & { engine: 'postgres' }): Promise<OpenedStore<PostgresEngine>>;
export async function openStore(options: StoreOptions): Promise<OpenedStore>;
export async function openStore(options: StoreOptions): Promise<OpenedStore> {
  const log: Logger = options.log ?? silentLogger;
  const db: Engine =
    options.engine === 'sqlite'
      ? await SqliteEngine.open(options)
      : // Loaded only for PostgreSQL (a SQLite server never reads pg).
        await (await import('./engines/postgres/engine.js')).PostgresEngine.open(options);
  const store = portsOn(db);
  if (options.sheetsSideStore) {
    try {
      await importSheetsSideStore(db, options.sheetsSideStore, log);
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  return store;
}
