/**
 * The Google Sheets adapter of the order store (SPEC §10), loaded by `createStore` only
 * when ORDER_STORE=sheets so googleapis stays out of the other set-ups.
 */
import type { Config } from '../../../config/env.js';
import type { StoreLogger } from '../logger.js';
import type { OrderStore } from '../port.js';
import { SheetsOrderStore, type SheetsStoreOptions } from './store.js';

export type { SheetsStoreOptions } from './store.js';
export { SheetsOrderStore } from './store.js';

export function createSheetsStore(config: Config, log: StoreLogger, options: SheetsStoreOptions = {}): OrderStore {
  return new SheetsOrderStore(config, log, options);
}
