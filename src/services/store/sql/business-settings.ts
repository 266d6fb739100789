/** Business settings on either engine (ports/business-settings.ts): table `business_settings`, one JSON row. */
import {
  BUSINESS_KEYS,
  type BusinessSettingsPatch,
  type BusinessSettingsPort,
  BusinessSettingsRow,
  SavedBusinessSettings,
} from '../ports/business-settings.js';
import type { Db, Row } from './db.js';
import { recordTable } from './record-table.js';

/** One row, `id` 1 (a column beside the record's). */
export const BUSINESS_SETTINGS = recordTable('business_settings', BusinessSettingsRow);
const SELECT = `SELECT ${BUSINESS_SETTINGS.select} FROM business_settings WHERE id = 1`;
const PUT_SQL = BUSINESS_SETTINGS.insertSql(
  ['id'],
  'ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at',
);
const settingsOf = (row: Row): SavedBusinessSettings => BUSINESS_SETTINGS.toRecord(row).settings;

export class SqlBusinessSettings implements BusinessSettingsPort {
  constructor(private readonly db: Db) {}

  async get(): Promise<SavedBusinessSettings | null> {
    const row = await this.db.get(SELECT);
    return row ? settingsOf(row) : null;
  }

  put(patch: BusinessSettingsPatch, by: string): Promise<SavedBusinessSettings> {
    const updatedAt = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      // Read, merge, write under one lock: concurrent saves of different keys all land.
      await tx.lock('business-settings');
      const row = await tx.get(`${SELECT}${this.db.dialect.forUpdate}`);
      const merged: Record<string, unknown> = row ? { ...settingsOf(row) } : {};
      for (const key of BUSINESS_KEYS) {
        const value = patch[key];
        if (value === null) delete merged[key];
        else if (value !== undefined) merged[key] = value;
      }
      const next = SavedBusinessSettings.parse({ ...merged, updatedAt, updatedBy: by });
      await tx.run(PUT_SQL, BUSINESS_SETTINGS.values({ settings: next, updatedAt }, 1));
      return next;
    });
  }
}
