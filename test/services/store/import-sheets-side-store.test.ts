/**
 * A Google Sheets deployment of the earlier design kept settings, push subscriptions,
 * idempotency keys and mail in DATA_DIR/sheets-local.db: the first start of the record
 * takes them in, once, on either engine (src/services/store/engines/sqlite/import-sheets-side-store.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { openStore } from '../../../src/services/store/store.js';
import { build, tempDir } from '../../helpers/build.js';
import { usePostgresServer } from '../../support/postgres-server.js';

const server = usePostgresServer();

/** A sheets-local.db as the Sheets store of the earlier design left it (its schema version 1). */
function writeSideStore(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE event_settings (event_slug TEXT PRIMARY KEY, settings TEXT NOT NULL);
    CREATE TABLE push_subscriptions (
      endpoint TEXT NOT NULL, order_key TEXT NOT NULL, record TEXT NOT NULL, scope TEXT NOT NULL,
      order_id TEXT, created_at TEXT NOT NULL, PRIMARY KEY (endpoint, order_key));
    CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at TEXT NOT NULL);
    CREATE TABLE mail_jobs (
      id TEXT PRIMARY KEY, job TEXT NOT NULL, next_attempt_at TEXT NOT NULL, created_at TEXT NOT NULL,
      sent_at TEXT, awaiting_order_id TEXT, awaiting_updated_at TEXT);
  `);
  db.pragma('user_version = 1');
  const settings = {
    eventSlug: 'AX2025',
    orderingEnabled: false,
    shippingFeeCents: 700,
    updatedAt: '2026-07-01T00:00:00.000Z',
  };
  db.prepare('INSERT INTO event_settings VALUES (?, ?)').run('AX2025', JSON.stringify(settings));
  const push = {
    endpoint: 'https://push.example.net/send/abc',
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
    scope: 'admin',
    orderId: null,
    createdAt: '2026-07-01T00:00:00.000Z',
  };
  db.prepare('INSERT INTO push_subscriptions VALUES (?, ?, ?, ?, ?, ?)').run(
    push.endpoint,
    '',
    JSON.stringify(push),
    'admin',
    null,
    push.createdAt,
  );
  const key = (k: string, state: string, expiresAt: string) => ({
    key: k,
    fingerprint: 'f',
    state,
    statusCode: state === 'done' ? 201 : null,
    responseBody: state === 'done' ? '{"orderNumber":"AX25-0007"}' : null,
    createdAt: '2026-07-01T00:00:00.000Z',
    expiresAt,
  });
  for (const k of [
    key('done-key', 'done', '2099-01-01T00:00:00.000Z'),
    key('pending-key', 'pending', '2099-01-01T00:00:00.000Z'),
    key('old-key', 'done', '2020-01-01T00:00:00.000Z'),
  ]) {
    db.prepare('INSERT INTO idempotency_keys VALUES (?, ?, ?)').run(k.key, JSON.stringify(k), k.expiresAt);
  }
  const job = (id: string, sentAt: string | null) => ({
    id,
    kind: 'receipt',
    orderId: '00000000-0000-4000-8000-000000000007',
    payload: {},
    attempts: 2,
    nextAttemptAt: '2026-07-01T00:00:00.000Z',
    lastError: 'smtp down',
    createdAt: '2026-07-01T00:00:00.000Z',
    sentAt,
    sentVia: sentAt ? 'smtp' : null,
  });
  const insertJob = db.prepare('INSERT INTO mail_jobs VALUES (?, ?, ?, ?, ?, ?, ?)');
  insertJob.run(
    'm-unsent',
    JSON.stringify(job('m-unsent', null)),
    '2026-07-01T00:00:00.000Z',
    '2026-07-01T00:00:00.000Z',
    null,
    null,
    null,
  );
  insertJob.run(
    'm-awaiting',
    JSON.stringify(job('m-awaiting', null)),
    '2026-07-01T00:00:00.000Z',
    '2026-07-01T00:00:00.000Z',
    null,
    '00000000-0000-4000-8000-000000000007',
    '2026-07-01T00:00:00.000Z',
  );
  insertJob.run(
    'm-sent',
    JSON.stringify(job('m-sent', '2026-07-01T00:01:00.000Z')),
    '2026-07-01T00:00:00.000Z',
    '2026-07-01T00:00:00.000Z',
    '2026-07-01T00:01:00.000Z',
    null,
    null,
  );
  db.close();
}

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`${engine}: the side store's settings, subscriptions, live completed keys and unsent mail are imported once; the file is kept renamed`, async (t) => {
    const dir = await tempDir(t);
    const side = path.join(dir, 'sheets-local.db');
    writeSideStore(side);
    const options =
      engine === 'sqlite'
        ? { engine, file: path.join(dir, 'orders.db'), sheetsSideStore: side }
        : { engine, connectionString: await server().freshDatabase(t), sheetsSideStore: side };
    const store = await openStore(options);
    t.onTestFinished(() => store.close());
    expect(existsSync(side)).toBe(false);
    expect(existsSync(`${side}.imported`)).toBe(true);

    expect(await store.eventSettings.get('AX2025')).toMatchObject({ orderingEnabled: false, shippingFeeCents: 700 });
    expect(await store.pushSubscriptions.list({ scope: 'admin' })).toHaveLength(1);
    const now = new Date().toISOString();
    const reserve = (key: string) =>
      store.idempotencyKeys.reserve({ key, fingerprint: 'f', createdAt: now, expiresAt: '2099-01-02T00:00:00.000Z' });
    expect(await reserve('done-key')).toMatchObject({
      reserved: false,
      existing: { state: 'done', responseBody: '{"orderNumber":"AX25-0007"}' },
    });
    expect(await reserve('pending-key')).toEqual({ reserved: true });
    expect(await reserve('old-key')).toEqual({ reserved: true });
    const jobs = await store.outbox.claimDue(new Date(), 10, 60_000);
    expect(jobs.map((j) => j.id).sort()).toEqual(['m-awaiting', 'm-unsent']);
    expect(jobs[0]).toMatchObject({
      attempts: 2,
      lastError: 'smtp down',
      orderId: '00000000-0000-4000-8000-000000000007',
    });

    // Once: a second start finds nothing to import.
    await store.close();
    const again = await openStore(options);
    t.onTestFinished(() => again.close());
    expect(await again.outbox.pendingCount()).toBe(2);
  });
}

test('the app imports DATA_DIR/sheets-local.db at start', async (t) => {
  const dataDir = await tempDir(t);
  writeSideStore(path.join(dataDir, 'sheets-local.db'));
  const app = await build(t, { dataDir });
  expect(await app.store.eventSettings.get('AX2025')).toMatchObject({ orderingEnabled: false });
  expect(existsSync(path.join(dataDir, 'sheets-local.db.imported'))).toBe(true);
});
