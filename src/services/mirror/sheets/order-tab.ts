/**
 * The Orders tab through the Sheets API, for the mirror: opening it (tab and header row),
 * reading every row (one call), appending rows (one `values.append`) and rewriting cells of
 * many rows (one `values.batchUpdate`). Reads and positional writes are retried on 429/5xx
 * with backoff and jitter (retry.ts); an append is never repeated blindly: after a failure the
 * ids are looked up in column R and only the rows that did not land are written again.
 * Failures that outlast the retries are thrown as they came (the worker reports them).
 */
import type { Logger } from '../../../lib/logger.js';
import { columnsRange, quoteSheet, rowRange, rowsOfRange } from './a1.js';
import type { SheetsApi } from './client.js';
import { type ColumnKey, ColumnMap, headerKey, ORDER_COLUMNS, type RowCells } from './layout.js';
import { backoffMs, isRetryable, type RetryPolicy, sleep, statusOf, withRetry } from './retry.js';
import { isBlankRow } from './row-read.js';

/** One non-blank row as read: its 1-based row number and its cells. */
export type TabRow = { row: number; cells: RowCells };

export type OrderTabOptions = {
  api: SheetsApi;
  spreadsheetId: string;
  tab: string;
  retry: RetryPolicy;
  log: Logger;
};

/** Cells of one row to write: `keys` of `cells`. */
export type CellWrite = { row: number; keys: readonly ColumnKey[]; cells: RowCells };

const NEW_TAB_GRID = { rowCount: 1000, columnCount: ORDER_COLUMNS.length };

export class OrderTab {
  private readonly api: SheetsApi;
  private readonly spreadsheetId: string;
  readonly tab: string;
  private readonly retry: RetryPolicy;
  private readonly log: Logger;
  columns: ColumnMap = ColumnMap.standard();
  private sheetId = 0;
  private columnCount = 0;
  opened = false;

  constructor(opts: OrderTabOptions) {
    this.api = opts.api;
    this.spreadsheetId = opts.spreadsheetId;
    this.tab = opts.tab;
    this.retry = opts.retry;
    this.log = opts.log;
  }

  private async call<T>(what: string, op: () => Promise<{ data: T }>): Promise<T> {
    const res = await withRetry(op, this.retry, (err, retry, delayMs) => {
      this.log.warn(
        { call: what, status: statusOf(err), retry, delayMs, err: (err as Error).message },
        'sheets: retrying',
      );
    });
    return res.data;
  }

  /** Finds (or adds) the tab, writes the header row when the tab is empty, adds missing header cells. */
  async open(): Promise<void> {
    const meta = await this.call('spreadsheets.get', () =>
      this.api.spreadsheets.get({ spreadsheetId: this.spreadsheetId, fields: 'sheets.properties' }),
    );
    const sheets = meta.sheets ?? [];
    const found =
      sheets.find((s) => s.properties?.title === this.tab) ??
      sheets.find((s) => s.properties?.title?.toLowerCase() === this.tab.toLowerCase());
    let props = found?.properties;
    if (!props) {
      const added = await this.call('spreadsheets.batchUpdate', () =>
        this.api.spreadsheets.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: { requests: [{ addSheet: { properties: { title: this.tab, gridProperties: NEW_TAB_GRID } } }] },
        }),
      );
      props = added.replies?.[0]?.addSheet?.properties;
      this.log.info({ tab: this.tab }, 'sheets: tab added');
    }
    this.sheetId = props?.sheetId ?? 0;
    this.columnCount = props?.gridProperties?.columnCount ?? NEW_TAB_GRID.columnCount;
    const header = await this.readHeader();
    if (isBlankRow(header)) {
      this.columns = ColumnMap.standard();
      await this.ensureWidth();
      await this.call('values.update', () =>
        this.api.spreadsheets.values.update({
          spreadsheetId: this.spreadsheetId,
          range: rowRange(this.tab, 1, 0, ORDER_COLUMNS.length - 1),
          valueInputOption: 'RAW',
          requestBody: { values: [[...ORDER_COLUMNS]] },
        }),
      );
    } else {
      const { map, added } = ColumnMap.fromHeader(header);
      this.columns = map;
      await this.ensureWidth();
      if (added.length > 0) {
        this.log.warn({ tab: this.tab, columns: added.map((a) => a.key) }, 'sheets: header lacked columns; added them');
        const texts = Object.fromEntries(ORDER_COLUMNS.map((k) => [k, k])) as RowCells;
        await this.write([{ row: 1, keys: added.map((a) => a.key), cells: texts }]);
      }
    }
    this.opened = true;
  }

  private async readHeader(): Promise<string[]> {
    const data = await this.call('values.get', () =>
      this.api.spreadsheets.values.get({ spreadsheetId: this.spreadsheetId, range: `${quoteSheet(this.tab)}!1:1` }),
    );
    return (data.values?.[0] ?? []).map((v) => String(v ?? ''));
  }

  /** Updates may not write outside the grid: widen it to hold every column. */
  private async ensureWidth(): Promise<void> {
    const needed = this.columns.last + 1;
    if (needed <= this.columnCount) return;
    await this.call('spreadsheets.batchUpdate', () =>
      this.api.spreadsheets.batchUpdate({
        spreadsheetId: this.spreadsheetId,
        requestBody: {
          requests: [
            { appendDimension: { sheetId: this.sheetId, dimension: 'COLUMNS', length: needed - this.columnCount } },
          ],
        },
      }),
    );
    this.columnCount = needed;
  }

  /** Every non-blank row below the header, as displayed (one call). Columns moved meanwhile are mapped again. */
  async readAll(): Promise<TabRow[]> {
    let lines = await this.readSpan();
    const header = lines[0] ?? [];
    const matches = ORDER_COLUMNS.every(
      (k) => headerKey(String(header[this.columns.index[k] - this.columns.first] ?? '')) === headerKey(k),
    );
    if (!matches) {
      this.log.warn({ tab: this.tab }, 'sheets: header row changed; mapping columns again');
      await this.open();
      lines = await this.readSpan();
    }
    const rows: TabRow[] = [];
    for (let i = 1; i < lines.length; i++) {
      const values = lines[i] ?? [];
      if (!isBlankRow(values)) rows.push({ row: i + 1, cells: this.columns.fromArray(values) });
    }
    return rows;
  }

  private async readSpan(): Promise<unknown[][]> {
    const data = await this.call('values.get', () =>
      this.api.spreadsheets.values.get({
        spreadsheetId: this.spreadsheetId,
        range: columnsRange(this.tab, this.columns.first, this.columns.last),
        valueRenderOption: 'FORMATTED_VALUE',
        majorDimension: 'ROWS',
      }),
    );
    return (data.values ?? []) as unknown[][];
  }

  /** Where these ids are (1-based rows), from one read of column R. */
  async findIds(ids: readonly string[]): Promise<Map<string, number>> {
    const col = this.columns.index.id;
    const data = await this.call('values.get', () =>
      this.api.spreadsheets.values.get({ spreadsheetId: this.spreadsheetId, range: columnsRange(this.tab, col, col) }),
    );
    const wanted = new Set(ids);
    const found = new Map<string, number>();
    (data.values ?? []).forEach((line, i) => {
      const id = String(line[0] ?? '').trim();
      if (wanted.has(id) && !found.has(id)) found.set(id, i + 1);
    });
    return found;
  }

  /**
   * Appends rows (RAW, INSERT_ROWS) in one call and returns the row of each id. After a failed
   * attempt it waits, looks the ids up, and writes again only the rows that are not there: an
   * answer lost after the rows landed never duplicates them.
   */
  async append(rows: readonly RowCells[]): Promise<Map<string, number>> {
    const placed = new Map<string, number>();
    let pending = [...rows];
    const range = columnsRange(this.tab, this.columns.first, this.columns.last);
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.api.spreadsheets.values.append({
          spreadsheetId: this.spreadsheetId,
          range,
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { majorDimension: 'ROWS', values: pending.map((c) => this.columns.toArray(c)) },
        });
        const span = rowsOfRange(res.data.updates?.updatedRange ?? '');
        if (span && span.last - span.first + 1 === pending.length) {
          pending.forEach((c, i) => {
            placed.set(c.id, span.first + i);
          });
        } else {
          for (const [id, row] of await this.findIds(pending.map((c) => c.id))) placed.set(id, row);
        }
        return placed;
      } catch (err) {
        if (!isRetryable(err) || attempt >= this.retry.attempts) throw err;
        const delayMs = backoffMs(attempt - 1, this.retry, err);
        this.log.warn(
          { call: 'values.append', status: statusOf(err), retry: attempt, delayMs, rows: pending.length },
          'sheets: append failed; checking whether it landed before writing again',
        );
        await sleep(delayMs);
        const landed = await this.findIds(pending.map((c) => c.id));
        for (const [id, row] of landed) placed.set(id, row);
        pending = pending.filter((c) => !landed.has(c.id));
        if (pending.length === 0) return placed;
      }
    }
  }

  /**
   * Writes cells of many rows (RAW) in one `values.batchUpdate`, one range per run of adjacent
   * columns: cells not named (and columns that are not ours) stay as they are. Positional, so
   * repeating it is harmless.
   */
  async write(writes: readonly CellWrite[]): Promise<void> {
    const data = writes.flatMap((w) =>
      this.columns.runs(w.keys).map((run) => ({
        range: rowRange(this.tab, w.row, run.from, run.to),
        majorDimension: 'ROWS',
        values: [run.keys.map((k) => w.cells[k])],
      })),
    );
    if (data.length === 0) return;
    await this.call('values.batchUpdate', () =>
      this.api.spreadsheets.values.batchUpdate({
        spreadsheetId: this.spreadsheetId,
        requestBody: { valueInputOption: 'RAW', data },
      }),
    );
  }
}
