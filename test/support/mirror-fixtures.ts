/**
 * The spreadsheet mirror in tests: a Sheets emulator with a spreadsheet and a service-account
 * key, the env that points the app at them, and the sheet's rows as the mirror's layout reads
 * them (src/services/mirror/sheets/layout.ts, every standard column).
 */
import type { TestContext } from 'vitest';
import { ORDER_COLUMNS, type RowCells } from '../../src/services/mirror/sheets/layout.js';
import { tempDir } from '../helpers/build.js';
import { columnLetters } from './sheets-a1.js';
import { writeServiceAccount } from './sheets-credentials.js';
import { type SheetsEmulator, type SheetsEmulatorOptions, startSheetsEmulator } from './sheets-emulator.js';
import { waitUntil } from './wait.js';

/**
 * The Orders sheet's columns A–U, written out rather than taken from the layout, so that a
 * test fails when one moves (the CSV export has the same header).
 */
export const SHEET_COLUMNS_A_TO_U = [
  'orderNumber',
  'createdAt',
  'customerName',
  'customerEmail',
  'customerPhone',
  'fulfillmentType',
  'shippingAddress',
  'city',
  'state',
  'zipCode',
  'items',
  'subtotal',
  'shippingFee',
  'total',
  'status',
  'shippingStatus',
  'feedback',
  'id',
  'eventSlug',
  'trackingNumber',
  'updatedAt',
];

export type MirrorSetup = {
  emu: SheetsEmulator;
  sheetId: string;
  /** Env for the app: the mirror on, looking for changes every 100 ms. */
  env: Record<string, string>;
  /** Every row below the header, as cells by column key. */
  rows(): RowCells[];
};

export async function mirrorSetup(t: TestContext, opts: SheetsEmulatorOptions = {}): Promise<MirrorSetup> {
  const dir = await tempDir(t, 'mirror-key-');
  const account = await writeServiceAccount(dir);
  const emu = await startSheetsEmulator(opts);
  t.onTestFinished(() => emu.close());
  const sheetId = emu.createSpreadsheet({ sheets: ['Orders'] });
  return {
    emu,
    sheetId,
    env: {
      GOOGLE_SHEETS_ID: sheetId,
      GOOGLE_APPLICATION_CREDENTIALS: account.file,
      GOOGLE_SHEETS_ROOT_URL: emu.rootUrl,
      MIRROR_FLUSH_MS: '100',
      ORDER_CACHE_TTL_MS: '60000',
      MIRROR_IMPORT_WAIT_MS: '5000',
    },
    rows: () => sheetRows(emu, sheetId),
  };
}

function sheetRows(emu: SheetsEmulator, sheetId: string): RowCells[] {
  const last = columnLetters(ORDER_COLUMNS.length - 1);
  const lines = emu.getValues(sheetId, `'Orders'!A:${last}`, 'FORMATTED_VALUE');
  return lines.slice(1).map((line) => {
    const cells = {} as RowCells;
    ORDER_COLUMNS.forEach((k, i) => {
      cells[k] = String(line[i] ?? '');
    });
    return cells;
  });
}

/**
 * Polls `check` until it returns true. In a test only the test's own timeout ends the wait
 * (test/support/wait.ts); `ms` bounds it only when called from a hook.
 */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  await waitUntil(check, what, ms);
}
