/** Event settings on either engine (ports/event-settings.ts): table `event_settings`, one JSON document per event. */
import {
  EventSettings,
  type EventSettingsPatch,
  type EventSettingsPort,
  EventSettingsRow,
} from '../ports/event-settings.js';
import type { Db, Row } from './db.js';
import { recordTable } from './record-table.js';
import { definedOnly } from './values.js';

export const EVENT_SETTINGS = recordTable('event_settings', EventSettingsRow);
const SELECT = `SELECT ${EVENT_SETTINGS.select} FROM event_settings`;
const PUT_SQL = EVENT_SETTINGS.insertSql(
  [],
  'ON CONFLICT (event_slug) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at',
);
const settingsOf = (row: Row): EventSettings => EVENT_SETTINGS.toRecord(row).settings;

export class SqlEventSettings implements EventSettingsPort {
  constructor(private readonly db: Db) {}

  async get(eventSlug: string): Promise<EventSettings | null> {
    const row = await this.db.get(`${SELECT} WHERE event_slug = ?`, [eventSlug]);
    return row ? settingsOf(row) : null;
  }

  async list(): Promise<EventSettings[]> {
    return (await this.db.all(`${SELECT} ORDER BY event_slug`)).map(settingsOf);
  }

  put(eventSlug: string, patch: EventSettingsPatch): Promise<EventSettings> {
    const updatedAt = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      // Read, merge, write under the event's lock: concurrent patches of different keys all land.
      await tx.lock(`event-settings:${eventSlug}`);
      const row = await tx.get(`${SELECT} WHERE event_slug = ?${this.db.dialect.forUpdate}`, [eventSlug]);
      const next = EventSettings.parse({
        ...(row ? settingsOf(row) : {}),
        ...definedOnly(patch),
        eventSlug,
        updatedAt,
      });
      await tx.run(PUT_SQL, EVENT_SETTINGS.values({ eventSlug, settings: next, updatedAt }));
      return next;
    });
  }
}
