/**
 * A Sheets order store on a fresh emulator for one test: service-account key in a temp
 * dir, config through the real env schema, quick retries, everything closed afterwards.
 */
import type { TestContext } from 'vitest';
import type { Config } from '../../src/config/env.js';
import type { StoreLogger } from '../../src/services/store/logger.js';
import { createSheetsStore, type SheetsStoreOptions } from '../../src/services/store/sheets/index.js';
import { tempDir, testConfig } from '../helpers/build.js';
import { type TestServiceAccount, writeServiceAccount } from './sheets-credentials.js';
import { type SheetsEmulator, type SheetsEmulatorOptions, startSheetsEmulator } from './sheets-emulator.js';

/** Retries a few ms apart: the same code paths, without the waiting. */
export const QUICK_RETRY = { attempts: 8, baseMs: 2, maxMs: 20 } as const;

export type LogEntry = { level: 'debug' | 'info' | 'warn' | 'error'; obj: unknown; msg: string | undefined };

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): StoreLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: unknown, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export type SheetsFixtureOptions = {
  emulator?: SheetsEmulator;
  emulatorOptions?: SheetsEmulatorOptions;
  /** Tabs of the new spreadsheet (default: one, "Sheet1", so the adapter adds Orders). */
  tabs?: string[];
  /** Use this spreadsheet instead of a new one. */
  spreadsheetId?: string;
  dataDir?: string;
  env?: Record<string, string>;
  store?: SheetsStoreOptions;
  log?: StoreLogger;
  /** Call init() (default true). */
  init?: boolean;
};

export async function sheetsFixture(t: TestContext, opts: SheetsFixtureOptions = {}) {
  const dataDir = opts.dataDir ?? (await tempDir(t));
  const account: TestServiceAccount = await writeServiceAccount(await tempDir(t, 'sa-'));
  let emu = opts.emulator;
  if (!emu) {
    const started = await startSheetsEmulator({
      publicKeys: { [account.email]: account.publicKey },
      ...opts.emulatorOptions,
    });
    t.onTestFinished(() => started.close());
    emu = started;
  }
  const spreadsheetId = opts.spreadsheetId ?? emu.createSpreadsheet({ sheets: opts.tabs ?? ['Sheet1'] });
  const config: Config = testConfig(dataDir, {
    ORDER_STORE: 'sheets',
    GOOGLE_SHEETS_ID: spreadsheetId,
    GOOGLE_APPLICATION_CREDENTIALS: account.file,
    GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
    ...opts.env,
  });
  const store = createSheetsStore(config, opts.log ?? recordingLogger(), { retry: QUICK_RETRY, ...opts.store });
  t.onTestFinished(() => store.close());
  if (opts.init !== false) await store.init();
  return { store, emu, spreadsheetId, dataDir, config, account };
}
