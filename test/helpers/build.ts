/**
 * `build(t)`: an app on a fresh temporary DATA_DIR, closed (and the folder removed)
 * when the test finishes. Nothing is shared between tests.
 *
 *   const app = await build(t, { env: { ORDER_STORE: 'sqlite' } });
 *   const res = await app.inject({ url: '/healthz' });
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { TestContext } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config/env.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export type TestApp = FastifyInstance & { dataDir: string };

/** A temporary folder removed when the test finishes. */
export async function tempDir(t: TestContext, prefix = 'photo-svc-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** test/fixtures/web-build: a minimal built web app (index.html, one asset, sw.js). */
export const TEST_WEB_DIR = fileURLToPath(new URL('../fixtures/web-build', import.meta.url));

/** The configuration tests start from: quiet, no demo library, a known admin token. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PHOTOS_DIR: path.join(dataDir, 'photos'),
    DEMO_LIBRARY: 'off',
    ADMIN_TOKENS: ADMIN_TOKEN,
    LIBRARY_RESCAN_INTERVAL_MS: '0',
    // New files are indexed at once (tests of the intake's settling set their own value).
    INTAKE_SETTLE_MS: '0',
    PUBLIC_BASE_URL: 'http://photos.test',
    // A stand-in build, so no test depends on whether `npm run build` has run here.
    WEB_DIR: TEST_WEB_DIR,
    ...env,
  });
}

export type BuildOptions = {
  /** Environment overrides on top of `testConfig`. */
  env?: Record<string, string>;
  /** Use this DATA_DIR instead of a fresh one (e.g. to restart on the same data). */
  dataDir?: string;
  /** Skip `ready()`, so the test can add routes before the app boots. */
  noReady?: boolean;
  /** Collect the app's log lines (JSON, as written; level `info` unless env says LOG_LEVEL) here. */
  logLines?: string[];
};

/** A logger writing each JSON line into `lines`. */
function collectingLogger(level: string, lines: string[]) {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { level, stream };
}

export async function build(t: TestContext, opts: BuildOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? (await tempDir(t));
  const level = opts.env?.LOG_LEVEL ?? 'info';
  const env = opts.logLines ? { LOG_LEVEL: level, ...opts.env } : opts.env;
  const logger = opts.logLines ? collectingLogger(level, opts.logLines) : undefined;
  // No plugin start-up limit: a loaded machine makes starts slow, not wrong (a hung one still
  // fails, on the test's timeout).
  const app = (await buildApp(testConfig(dataDir, env), logger, { pluginTimeout: 0 })) as unknown as TestApp;
  app.dataDir = dataDir;
  t.onTestFinished(() => app.close());
  if (!opts.noReady) await app.ready();
  return app;
}

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
