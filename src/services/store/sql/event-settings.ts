/** Event settings on either engine (ports/event-settings.ts): table `event_settings`, one JSON document per event. */
import { EventSettings, type EventSettingsPatch, type EventSettingsPort } from '../ports/event-settings.js';
import type { Db } from './db.js';
import { definedOnly, json } from './values.js';

const parse = (settings: unknown): EventSettings => EventSettings.parse(json(settings));

export class SqlEventSettings implements EventSettingsPort {
  constructor(private readonly db: Db) {}

  async get(eventSlug: string): Promise<EventSettings | null> {
    const row = await this.db.get('SELECT settings FROM event_settings WHERE event_slug = ?', [eventSlug]);
    return row ? parse(row.settings) : null;
  }

  async list(): Promise<EventSettings[]> {
    const rows = await this.db.all('SELECT settings FROM event_settings ORDER BY event_slug');
    return rows.map((r) => parse(r.settings));
  }

  put(eventSlug: string, patch: EventSettingsPatch): Promise<EventSettings> {
    const updatedAt = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      // Read, merge, write under the event's lock: concurrent patches of different keys all land.
      await tx.lock(`event-settings:${eventSlug}`);
      const row = await tx.get(`SELECT settings FROM event_settings WHERE event_slug = ?${this.db.dialect.forUpdate}`, [
        eventSlug,
      ]);
      const next = EventSettings.parse({
        ...(row ? parse(row.settings) : {}),
        ...definedOnly(patch),
        eventSlug,
        updatedAt,
      });
      await tx.run(
        `INSERT INTO event_settings (event_slug, settings, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (event_slug) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
        [eventSlug, JSON.stringify(next), updatedAt],
      );
      return next;
    });
  }
}
