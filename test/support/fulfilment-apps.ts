/**
 * Apps for the fulfilment route tests on either store engine: the admin fixtures' small photo
 * library (one photo per event) with the system of record on SQLite or on a real PostgreSQL.
 *
 *   forEachEngine((engine, app) => {
 *     test('...', async (t) => { const a = await app(t); ... });
 *   });
 */
import { describe, type TestContext } from 'vitest';
import type { OrderLine } from '../../src/domain/order.js';
import type { TestApp } from '../helpers/build.js';
import { AX, appWithEvents } from '../routes/admin/fixtures.js';
import { usePostgresServer } from './postgres-server.js';
import { ENGINES, type EngineName } from './store-engines.js';

export function forEachEngine(suite: (engine: EngineName, app: (t: TestContext) => Promise<TestApp>) => void): void {
  for (const engine of ENGINES) {
    describe(engine, () => {
      const pg = engine === 'postgres' ? usePostgresServer() : undefined;
      suite(engine, async (t) =>
        appWithEvents(t, pg ? { env: { ORDER_STORE: 'postgres', DATABASE_URL: await pg().freshDatabase(t) } } : {}),
      );
    });
  }
}

/** The number of the event's one photo (IMG_0001.jpg, 48 × 32, landscape). */
export function photoNumber(app: TestApp, event = AX): string {
  const photo = app.photos.photosOf(event)?.[0];
  if (!photo) throw new Error(`no photo in ${event}`);
  return photo.number;
}

/** An order line of that photo. */
export function lineOf(number: string, size: string, quantity = 1): OrderLine {
  const unit = size === '8x10' ? 2000 : size === '5x7' ? 1000 : 500;
  return { photoNumber: number, size, quantity, unitCents: unit, lineCents: unit * quantity };
}
