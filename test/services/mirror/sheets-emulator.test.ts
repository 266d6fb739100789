/**
 * The Sheets v4 emulator (test/support/sheets-emulator.ts), driven by the real `googleapis`
 * client, signing its own bearer JWTs from a generated service-account key: the adapter's
 * tests are only as good as the emulator's fidelity on what they rely on.
 */
import { readFile } from 'node:fs/promises';
import { auth as googleAuth, sheets } from 'googleapis/build/src/apis/sheets/index.js';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../helpers/build.js';
import { writeServiceAccount } from '../../support/sheets-credentials.js';
import { type SheetsEmulatorOptions, startSheetsEmulator } from '../../support/sheets-emulator.js';

type Ctx = Parameters<typeof tempDir>[0];

async function setup(t: Ctx, opts: SheetsEmulatorOptions & { sign?: boolean; freshKey?: boolean } = {}) {
  const dir = await tempDir(t);
  const account = await writeServiceAccount(dir, { fresh: opts.freshKey ?? false });
  const emu = await startSheetsEmulator({
    ...opts,
    ...(opts.sign ? { publicKeys: { [account.email]: account.publicKey } } : {}),
  });
  t.onTestFinished(() => emu.close());
  const key = JSON.parse(await readFile(account.file, 'utf8')) as { private_key: string };
  const auth = new googleAuth.JWT({
    email: account.email,
    key: key.private_key,
    scopes: ['https://www.googleapis.com/auth/spreadsheets'],
  });
  auth.useJWTAccessWithScope = true;
  const api = sheets({ version: 'v4', auth, rootUrl: emu.rootUrl, retry: false });
  const id = emu.createSpreadsheet({ sheets: ['Orders', 'My Orders'] });
  return { emu, api, id, account, auth };
}

function status(err: unknown): number | undefined {
  return (err as { status?: number }).status;
}

async function failure(p: Promise<unknown>): Promise<{ status: number | undefined; message: string }> {
  try {
    await p;
  } catch (err) {
    return { status: status(err), message: (err as Error).message };
  }
  throw new Error('expected the call to fail');
}

describe('Sheets emulator with the real googleapis client', () => {
  test('spreadsheets.get lists the tabs; addSheet adds one and refuses a duplicate title', async (t) => {
    const { api, id } = await setup(t);
    const meta = await api.spreadsheets.get({ spreadsheetId: id, fields: 'sheets.properties' });
    expect(meta.data.sheets?.map((s) => s.properties?.title)).toEqual(['Orders', 'My Orders']);
    expect(meta.data.sheets?.[0]?.properties?.gridProperties).toEqual({ rowCount: 1000, columnCount: 26 });

    const added = await api.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [{ addSheet: { properties: { title: 'Settings' } } }] },
    });
    expect(added.data.replies?.[0]?.addSheet?.properties?.title).toBe('Settings');
    const dup = await failure(
      api.spreadsheets.batchUpdate({
        spreadsheetId: id,
        requestBody: { requests: [{ addSheet: { properties: { title: 'orders' } } }] },
      }),
    );
    expect(dup.status).toBe(400);
    expect(dup.message).toMatch(/already exists/);
  });

  test('an unknown spreadsheet is 404 NOT_FOUND', async (t) => {
    const { api } = await setup(t);
    const res = await failure(api.spreadsheets.get({ spreadsheetId: 'nope' }));
    expect(res.status).toBe(404);
  });

  test('RAW keeps text as text; USER_ENTERED parses formulas, numbers, currency and booleans', async (t) => {
    const { api, emu, id } = await setup(t);
    const row = ['=HYPERLINK("http://x.test","click")', '+1', '@x', '$12.50', 'TRUE', "'007", '-3'];
    await api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Orders!A1',
      valueInputOption: 'RAW',
      requestBody: { values: [row] },
    });
    await api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Orders!A2',
      valueInputOption: 'USER_ENTERED',
      requestBody: { values: [row] },
    });
    expect(emu.cell(id, 'Orders!A1')).toEqual({ value: row[0] });
    expect(emu.cell(id, 'Orders!A2')?.formula).toBe(row[0]);

    const get = (valueRenderOption: string) =>
      api.spreadsheets.values.get({ spreadsheetId: id, range: 'Orders!A1:G2', valueRenderOption });
    expect((await get('FORMATTED_VALUE')).data.values).toEqual([
      row,
      ['click', '1', '@x', '$12.50', 'TRUE', '007', '-3'],
    ]);
    expect((await get('UNFORMATTED_VALUE')).data.values?.[1]).toEqual(['click', 1, '@x', 12.5, true, '007', -3]);
    expect((await get('FORMULA')).data.values?.[1]?.[0]).toBe(row[0]);
  });

  test('writes without valueInputOption are refused, as by the real API', async (t) => {
    const { api, id } = await setup(t);
    const res = await failure(
      api.spreadsheets.values.update({ spreadsheetId: id, range: 'Orders!A1', requestBody: { values: [['x']] } }),
    );
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/valueInputOption/);
  });

  test('reads drop trailing empty cells and rows, keep inner blank rows, and omit values when empty', async (t) => {
    const { api, emu, id } = await setup(t);
    emu.setValues(id, "'My Orders'!A1", [
      ['h1', 'h2', 'h3'],
      ['a', '', 'c', '', ''],
      ['', '', ''],
      ['d'],
      ['', '', ''],
    ]);
    const res = await api.spreadsheets.values.get({ spreadsheetId: id, range: "'My Orders'!A2:U" });
    expect(res.data.range).toBe("'My Orders'!A2:U1000");
    expect(res.data.values).toEqual([['a', '', 'c'], [], ['d']]);
    const cols = await api.spreadsheets.values.get({
      spreadsheetId: id,
      range: "'My Orders'!A:C",
      majorDimension: 'COLUMNS',
    });
    expect(cols.data.values).toEqual([['h1', 'a', '', 'd'], ['h2'], ['h3', 'c']]);
    const empty = await api.spreadsheets.values.get({ spreadsheetId: id, range: 'Orders!A:U' });
    expect(empty.data.values).toBeUndefined();
    const whole = await api.spreadsheets.values.get({ spreadsheetId: id, range: "'My Orders'" });
    expect(whole.data.values?.length).toBe(4);
    const column = await api.spreadsheets.values.get({ spreadsheetId: id, range: "'My Orders'!C:C" });
    expect(column.data.values).toEqual([['h3'], ['c']]);
  });

  test('append writes after the table, answers updatedRange, and INSERT_ROWS shifts rows below', async (t) => {
    const { api, emu, id } = await setup(t);
    emu.setValues(id, 'Orders!A1', [
      ['h1', 'h2'],
      ['r1', 'x'],
    ]);
    emu.setValues(id, 'Orders!AB5', [['note below, outside the table columns']]);
    const res = await api.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Orders!A:Z',
      valueInputOption: 'RAW',
      insertDataOption: 'INSERT_ROWS',
      requestBody: { values: [['r2', '=1+1'], ['r3']] },
    });
    expect(res.data.tableRange).toBe('Orders!A1:B2');
    expect(res.data.updates?.updatedRange).toBe('Orders!A3:B4');
    expect(res.data.updates?.updatedRows).toBe(2);
    expect(emu.getValues(id, 'Orders!A:B')).toEqual([['h1', 'h2'], ['r1', 'x'], ['r2', '=1+1'], ['r3']]);
    expect(emu.cell(id, 'Orders!B3')?.formula).toBeUndefined();
    // Two rows were inserted at row 3, so the note moved from row 5 to row 7.
    expect(emu.cell(id, 'Orders!AB7')?.value).toBe('note below, outside the table columns');
    expect(emu.grid(id, 'Orders').rowCount).toBe(1002);

    const first = await api.spreadsheets.values.append({
      spreadsheetId: id,
      range: "'My Orders'!A1",
      valueInputOption: 'RAW',
      requestBody: { values: [['only']] },
    });
    expect(first.data.updates?.updatedRange).toBe("'My Orders'!A1");
    expect(first.data.tableRange).toBeUndefined();
  });

  test('batchGet, batchUpdate and clear', async (t) => {
    const { api, emu, id } = await setup(t);
    const upd = await api.spreadsheets.values.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        valueInputOption: 'RAW',
        data: [
          { range: 'Orders!A1:B1', values: [['a', 'b']] },
          { range: "'My Orders'!C3", values: [['c']] },
        ],
      },
    });
    expect(upd.data.totalUpdatedCells).toBe(3);
    expect(upd.data.responses?.map((r) => r.updatedRange)).toEqual(['Orders!A1:B1', "'My Orders'!C3"]);
    const got = await api.spreadsheets.values.batchGet({
      spreadsheetId: id,
      ranges: ['Orders!A1:B1', "'My Orders'!A1:C3"],
    });
    expect(got.data.valueRanges?.map((v) => v.values)).toEqual([[['a', 'b']], [[], [], ['', '', 'c']]]);

    // A null skips a cell; "" clears it.
    await api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Orders!A1:B1',
      valueInputOption: 'RAW',
      requestBody: { values: [[null, '']] },
    });
    expect(emu.getValues(id, 'Orders!A1:B1')).toEqual([['a']]);
    const cleared = await api.spreadsheets.values.clear({ spreadsheetId: id, range: 'Orders!A:A' });
    expect(cleared.data.clearedRange).toBe('Orders!A1:A1000');
    expect(emu.getValues(id, 'Orders')).toEqual([]);
  });

  test('updates outside the grid or past the range fail as in the real API', async (t) => {
    const { api, id } = await setup(t);
    const wide = await failure(
      api.spreadsheets.values.update({
        spreadsheetId: id,
        range: 'Orders!Z1',
        valueInputOption: 'RAW',
        requestBody: { values: [['z', 'aa']] },
      }),
    );
    expect(wide.status).toBe(400);
    expect(wide.message).toMatch(/exceeds grid limits/);
    const past = await failure(
      api.spreadsheets.values.update({
        spreadsheetId: id,
        range: 'Orders!A1:B1',
        valueInputOption: 'RAW',
        requestBody: { values: [['a', 'b', 'c']] },
      }),
    );
    expect(past.status).toBe(400);
    await api.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [{ appendDimension: { sheetId: 0, dimension: 'COLUMNS', length: 4 } }] },
    });
    await api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Orders!Z1',
      valueInputOption: 'RAW',
      requestBody: { values: [['z', 'aa']] },
    });
  });

  test('a call without a bearer token is 401', async (t) => {
    const { emu, id } = await setup(t);
    const res = await fetch(`${emu.rootUrl}v4/spreadsheets/${id}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('UNAUTHENTICATED');
  });

  test('signed JWTs are verified, and a sheet not shared with the account is 403', async (t) => {
    const { api, id } = await setup(t, { sign: true });
    expect((await api.spreadsheets.get({ spreadsheetId: id })).status).toBe(200);

    const other = await setup(t, { sharedWith: ['someone-else@x.iam.gserviceaccount.com'] });
    const res = await failure(other.api.spreadsheets.get({ spreadsheetId: other.id }));
    expect(res.status).toBe(403);

    // A key the emulator does not know: the signature check fails.
    const stranger = await setup(t, { freshKey: true });
    const emuKnowingOther = await startSheetsEmulator({
      publicKeys: { [stranger.account.email]: other.account.publicKey },
    });
    t.onTestFinished(() => emuKnowingOther.close());
    const sid = emuKnowingOther.createSpreadsheet();
    const api2 = sheets({
      version: 'v4',
      auth: stranger.auth,
      rootUrl: emuKnowingOther.rootUrl,
      retry: false,
    });
    expect((await failure(api2.spreadsheets.get({ spreadsheetId: sid }))).status).toBe(401);
  });

  test('faults: seeded error rate, outage, apply-then-fail, latency and per-method counts', async (t) => {
    const { api, emu, id } = await setup(t);
    const read = () => api.spreadsheets.values.get({ spreadsheetId: id, range: 'Orders!A1' });

    emu.setFaults({ rate: 0.3, seed: 7 });
    const outcomes = await Promise.allSettled(Array.from({ length: 200 }, read));
    const failed = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(failed.length).toBeGreaterThan(30);
    expect(failed.length).toBeLessThan(90);
    expect(new Set(failed.map((f) => status(f.reason)))).toEqual(new Set([429, 500]));
    expect(emu.stats().faulted).toBe(failed.length);
    expect(emu.stats().calls['values.get']).toBe(200);

    emu.setFaults({ outage: true });
    expect((await failure(read())).status).toBe(503);

    // unreachable: the connection is cut, no answer and no status; nothing is counted
    const before = emu.stats().calls['values.get'];
    emu.setFaults({ unreachable: true });
    const cut = await failure(read());
    expect(cut.status).toBeUndefined();
    expect(emu.stats().calls['values.get']).toBe(before);

    emu.setFaults({ applyThenFail: { count: 1 } });
    const append = (v: string) =>
      api.spreadsheets.values.append({
        spreadsheetId: id,
        range: 'Orders!A:B',
        valueInputOption: 'RAW',
        requestBody: { values: [[v]] },
      });
    expect((await failure(append('landed'))).status).toBe(500);
    await append('second');
    expect(emu.getValues(id, 'Orders!A:A')).toEqual([['landed'], ['second']]);

    emu.setFaults({ applyThenFail: { count: 1, mode: 'reset' } });
    await expect(append('reset')).rejects.toThrow();
    expect(emu.getValues(id, 'Orders!A:A')).toEqual([['landed'], ['second'], ['reset']]);

    emu.setFaults({});
    emu.resetStats();
    emu.setLatency(60);
    const started = performance.now();
    await read();
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    await append('x');
    const stats = emu.stats();
    expect(stats.calls['values.get']).toBe(1);
    expect(stats.calls['values.append']).toBe(1);
    expect(stats.writes).toBe(1);
    expect(emu.writeLog).toEqual([
      {
        method: 'values.append',
        ranges: ['Orders!A:B'],
        valueInputOption: 'RAW',
        insertDataOption: undefined,
        rows: 1,
      },
    ]);
  });
});
