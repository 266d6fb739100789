/** Business settings on either engine (ports/business-settings.ts): table `business_settings`, one JSON row. */
import {
  BUSINESS_KEYS,
  type BusinessSettingsPatch,
  type BusinessSettingsPort,
  SavedBusinessSettings,
} from '../ports/business-settings.js';
import type { Db } from './db.js';
import { json } from './values.js';

const parse = (settings: unknown): SavedBusinessSettings => SavedBusinessSettings.parse(json(settings));

export class SqlBusinessSettings implements BusinessSettingsPort {
  constructor(private readonly db: Db) {}

  async get(): Promise<SavedBusinessSettings | null> {
    const row = await this.db.get('SELECT settings FROM business_settings WHERE id = 1');
    return row ? parse(row.settings) : null;
  }

  put(patch: BusinessSettingsPatch, by: string): Promise<SavedBusinessSettings> {
    const updatedAt = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      // Read, merge, write under one lock: concurrent saves of different keys all land.
      await tx.lock('business-settings');
      const row = await tx.get(`SELECT settings FROM business_settings WHERE id = 1${this.db.dialect.forUpdate}`);
      const merged: Record<string, unknown> = row ? { ...parse(row.settings) } : {};
      for (const key of BUSINESS_KEYS) {
        const value = patch[key];
        if (value === null) delete merged[key];
        else if (value !== undefined) merged[key] = value;
      }
      const next = SavedBusinessSettings.parse({ ...merged, updatedAt, updatedBy: by });
      await tx.run(
        `INSERT INTO business_settings (id, settings, updated_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
        [JSON.stringify(next), updatedAt],
      );
      return next;
    });
  }
}
