/**
 * The whole service on a free loopback port for the browser tests: a temporary DATA_DIR, the
 * demo photo library generated into it (two events, 60 photos; `DEMO_LIBRARY: 'off'` for a
 * test that needs no photos), the ALTCHA CAPTCHA at a low
 * difficulty (the widget still solves it for real), mail written to files, and the browser
 * app from `webDir`.
 *
 * In a test run the demo library is drawn and indexed once per run and day
 * (test/support/run-once.ts): one server draws it, its intake inspects every photo and renders
 * their thumbnails and tiles, and it stops. Each server then starts on its own copy of that
 * DATA_DIR (photos with the drawing's times, the record, the image cache), so its intake finds
 * every photo inspected at its version and has nothing to do: drawing cost each server start
 * about 4 s of CPU, and indexing 4 s more, in the background of the test that had started.
 * The copy also holds each photo's 160 px tile, which phones at 1× ask for.
 * test/services/photos/demo.test.ts covers the drawing itself, test/services/photos the intake.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/env.js';
import { silentLogger } from '../../src/lib/logger.js';
import { ensureDemoLibrary } from '../../src/services/photos/demo.js';
import { ADMIN_TOKEN } from '../helpers/build.js';
import { waitFor } from './photos-fixtures.js';
import { oncePerRun } from './run-once.js';
import { waitUntil } from './wait.js';

export type WebServer = { url: string; app: FastifyInstance; dataDir: string; close: () => Promise<void> };

/** `port` 0: any free one. */
export async function startWebServer(webDir: string, env: Record<string, string> = {}, port = 0): Promise<WebServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'photo-web-'));
  const demo = (env.DEMO_LIBRARY ?? 'auto') === 'auto';
  // Vitest sets VITEST in its workers; a bench lets the app draw its own.
  if (process.env.VITEST && demo) await copyDemoData(dataDir);
  const app = await startApp(dataDir, webDir, env);
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  // The demo library is drawn and indexed in the background: wait for both events.
  // Called from set-up hooks: bounded by their limit (web-harness.ts, SET_UP_TIMEOUT_MS), not a shorter one.
  let last = '';
  const bothListed = async () => {
    const res = await app.inject({ url: '/event' });
    last = `${res.statusCode} ${res.body.slice(0, 200)}`;
    return res.statusCode === 200 && (res.json() as unknown[]).length >= 2;
  };
  if (demo) await waitUntil(bothListed, () => `the demo library: ${last}`, 300_000);
  return {
    url,
    app,
    dataDir,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app on `dataDir` (not listening yet), configured as every browser test's server is. */
function startApp(dataDir: string, webDir: string, env: Record<string, string>): Promise<FastifyInstance> {
  return buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PHOTOS_DIR: path.join(dataDir, 'photos'),
      DEMO_LIBRARY: 'auto',
      LIBRARY_RESCAN_INTERVAL_MS: '0',
      // Tests write whole files and rescan: no settling wait (test/services/photos/intake.test.ts covers it).
      INTAKE_SETTLE_MS: '0',
      // The owner's token, and a booth helper's (docs/contract.md, "Roles").
      ADMIN_TOKENS: `${ADMIN_TOKEN},staff:${STAFF_TOKEN}`,
      // Mails and push carry this host; the app itself must work whatever it says.
      PUBLIC_BASE_URL: 'http://photos.test',
      WEB_DIR: webDir,
      // A render waits for its turn however long a loaded machine takes: the 10 s default
      // answered 503 BUSY to a gallery's images with six jobs on 2 cores, failing the pages'
      // "no failed request" checks on the machine's speed (test/abuse/render-queue.test.ts
      // covers BUSY itself).
      IMAGE_QUEUE_TIMEOUT_MS: '0',
      CAPTCHA_PROVIDER: 'altcha',
      ALTCHA_MAX_NUMBER: '2000',
      ...env,
    }),
    false,
    // No plugin start-up limit: a loaded machine makes starts slow, not wrong.
    { pluginTimeout: 0 },
  );
}

/**
 * A DATA_DIR holding the demo library as the app draws it, indexed (its dates are relative to
 * today, hence the key): drawn, then an app started on it is closed once its intake has
 * inspected every photo (the first scan queues them all before the app is ready; then photos
 * listed, nothing pending or inspecting).
 */
async function copyDemoData(dataDir: string): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const indexed = await oncePerRun(`demo-data-${today}`, async (dir) => {
    const webDir = path.join(dir, 'no-web');
    await mkdir(webDir);
    const data = path.join(dir, 'data');
    // Drawn whole before the app starts: its first scan finds every photo at once.
    await ensureDemoLibrary({ photosDir: path.join(data, 'photos'), dataDir: data, log: silentLogger });
    const app = await startApp(data, webDir, {});
    try {
      await app.ready();
      // A bound for a hang, not a speed (set-ups took minutes with six jobs on 2 cores).
      await waitFor(
        () => {
          const listed = app.photos.listEvents().reduce((n, ev) => n + ev.photoCount, 0);
          const { pending, inspecting } = app.photos.intake();
          return listed > 0 && pending === 0 && inspecting === 0;
        },
        240_000,
        'the demo library indexed',
      );
      // The tile a phone at 1× asks for (160 px; the intake makes the 240 and 360 px ones
      // itself), made here once instead of by each server the first time a phone shows a
      // gallery (about 30 renders a file): the bytes served are the same either way.
      for (const event of app.photos.listEvents())
        for (const photo of app.photos.photosOf(event.code) ?? []) await app.images.ensure('tile160', photo, 'webp');
    } finally {
      await app.close();
    }
  });
  await cp(path.join(indexed, 'data'), dataDir, { recursive: true, preserveTimestamps: true });
}

/** A staff token the web server accepts (a booth helper). */
export const STAFF_TOKEN = 'staff-token-0123456789abcdefghij';

export const adminInit = (token = ADMIN_TOKEN) =>
  `sessionStorage.setItem('cps.admin.token', ${JSON.stringify(JSON.stringify(token))});`;

/** A loopback port free right now (for a server whose PUBLIC_BASE_URL must name its own port). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
