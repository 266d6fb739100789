/**
 * The Orders tab through the Sheets API: opening it (tab and header row), reading every
 * row, reading one row, appending new orders, and rewriting cells of one row. Every call
 * that can be repeated safely is retried (retry.ts); an append is never repeated blindly:
 * after a failure the ids are looked up (the id column) and only the rows that did not
 * land are written again. Failures that outlast the retries become STORE_UNAVAILABLE.
 */
import type { sheets_v4 } from 'googleapis';
import type { OrderRecord } from '../../../domain/order.js';
import { appError } from '../../../errors/catalogue.js';
import type { StoreLogger } from '../logger.js';
import { columnsRange, quoteSheet, rowRange, rowsOfRange } from './a1.js';
import {
  type ColumnKey,
  ColumnMap,
  headerKey,
  isBlankRow,
  ORDER_COLUMNS,
  orderNumberParts,
  parseRow,
  type RowCells,
  toCells,
} from './layout.js';
import { backoffMs, isRetryable, type RetryPolicy, sleep, statusOf, withRetry } from './retry.js';

export type SheetRow = { row: number; order: OrderRecord };
export type RowProblem = { row: number; reason: string };

/** Everything one full read of the tab tells. Rows are 1-based sheet rows. */
export type Snapshot = {
  orders: SheetRow[];
  byId: Map<string, SheetRow>;
  byNumber: Map<string, SheetRow>;
  /** Rows that hold something but not a readable order (reported, never rewritten). */
  unreadable: RowProblem[];
  /** Rows repeating an id already seen above them (the first one counts). */
  duplicates: RowProblem[];
  /** Highest sequence per prefix seen in any order-number cell, readable row or not. */
  maxSequence: Map<string, number>;
};

export type OrderSheetOptions = {
  api: sheets_v4.Sheets;
  spreadsheetId: string;
  tab: string;
  retry: RetryPolicy;
  log: StoreLogger;
};

const NEW_TAB_GRID = { rowCount: 1000, columnCount: ORDER_COLUMNS.length };

export class OrderSheet {
  private readonly api: sheets_v4.Sheets;
  private readonly spreadsheetId: string;
  readonly tab: string;
  private readonly retry: RetryPolicy;
  private readonly log: StoreLogger;
  columns: ColumnMap = ColumnMap.standard();
  private sheetId = 0;
  private columnCount = 0;
  /** When a call last succeeded (ms), so health checks need not spend quota. */
  lastOkAt = 0;

  constructor(opts: OrderSheetOptions) {
    this.api = opts.api;
    this.spreadsheetId = opts.spreadsheetId;
    this.tab = opts.tab;
    this.retry = opts.retry;
    this.log = opts.log;
  }

  /** One API call, retried when safe; the raw error is thrown when retries run out. */
  private async call<T>(what: string, op: () => Promise<{ data: T }>, policy: RetryPolicy = this.retry): Promise<T> {
    const res = await withRetry(op, policy, (err, retry, delayMs) => {
      this.log.warn(
        { call: what, status: statusOf(err), retry, delayMs, err: (err as Error).message },
        'sheets: retrying',
      );
    });
    this.lastOkAt = Date.now();
    return res.data;
  }

  private unavailable(what: string, err: unknown) {
    const status = statusOf(err);
    this.log.error({ call: what, status, err: (err as Error).message }, 'sheets: call failed after retries');
    return appError('STORE_UNAVAILABLE', {
      message: 'The order spreadsheet cannot be reached right now',
      details: { backend: 'sheets', call: what, ...(status ? { status } : {}) },
      cause: err,
    });
  }

  /** `call`, with failures turned into STORE_UNAVAILABLE. */
  private async callOrFail<T>(what: string, op: () => Promise<{ data: T }>): Promise<T> {
    try {
      return await this.call(what, op);
    } catch (err) {
      throw this.unavailable(what, err);
    }
  }

  // ------------------------------------------------------------ opening

  /**
   * Finds (or adds) the tab, writes the header row when the tab is empty, adds header cells
   * for missing columns, and widens the grid when the columns need it. Raw API errors
   * propagate: the caller turns them into a start-up message naming the variable.
   */
  async open(policy: RetryPolicy): Promise<void> {
    const meta = await this.call(
      'spreadsheets.get',
      () => this.api.spreadsheets.get({ spreadsheetId: this.spreadsheetId, fields: 'sheets.properties' }),
      policy,
    );
    const sheets = meta.sheets ?? [];
    const found =
      sheets.find((s) => s.properties?.title === this.tab) ??
      sheets.find((s) => s.properties?.title?.toLowerCase() === this.tab.toLowerCase());
    let props = found?.properties;
    if (!props) {
      const added = await this.call(
        'spreadsheets.batchUpdate',
        () =>
          this.api.spreadsheets.batchUpdate({
            spreadsheetId: this.spreadsheetId,
            requestBody: {
              requests: [{ addSheet: { properties: { title: this.tab, gridProperties: NEW_TAB_GRID } } }],
            },
          }),
        policy,
      );
      props = added.replies?.[0]?.addSheet?.properties;
      this.log.info({ tab: this.tab }, 'sheets: tab added');
    }
    this.sheetId = props?.sheetId ?? 0;
    this.columnCount = props?.gridProperties?.columnCount ?? NEW_TAB_GRID.columnCount;

    const header = await this.readHeader(policy);
    if (isBlankRow(header)) {
      this.columns = ColumnMap.standard();
      await this.ensureWidth(policy);
      await this.call(
        'values.update',
        () =>
          this.api.spreadsheets.values.update({
            spreadsheetId: this.spreadsheetId,
            range: rowRange(this.tab, 1, 0, ORDER_COLUMNS.length - 1),
            valueInputOption: 'RAW',
            requestBody: { values: [[...ORDER_COLUMNS]] },
          }),
        policy,
      );
      this.log.info({ tab: this.tab }, 'sheets: header row written');
      return;
    }
    const { map, added } = ColumnMap.fromHeader(header);
    this.columns = map;
    await this.ensureWidth(policy);
    if (added.length > 0) {
      this.log.warn({ tab: this.tab, columns: added.map((a) => a.key) }, 'sheets: header lacked columns; added them');
    }
    // Also proves we may write (a sheet shared as Viewer fails here, at start-up, not at the
    // first order): header cells of missing columns, or else the id header cell as it is.
    const idCell = header[map.index.id] ?? 'id';
    const texts = { ...Object.fromEntries(ORDER_COLUMNS.map((k) => [k, k])), id: idCell } as RowCells;
    await this.writeCells(1, added.length > 0 ? added.map((a) => a.key) : ['id'], texts, policy);
  }

  private async readHeader(policy: RetryPolicy = this.retry): Promise<string[]> {
    const data = await this.call(
      'values.get',
      () =>
        this.api.spreadsheets.values.get({ spreadsheetId: this.spreadsheetId, range: `${quoteSheet(this.tab)}!1:1` }),
      policy,
    );
    return (data.values?.[0] ?? []).map((v) => String(v ?? ''));
  }

  /** Updates may not write outside the grid: widen it to hold every column. */
  private async ensureWidth(policy: RetryPolicy): Promise<void> {
    const needed = this.columns.last + 1;
    if (needed <= this.columnCount) return;
    await this.call(
      'spreadsheets.batchUpdate',
      () =>
        this.api.spreadsheets.batchUpdate({
          spreadsheetId: this.spreadsheetId,
          requestBody: {
            requests: [
              { appendDimension: { sheetId: this.sheetId, dimension: 'COLUMNS', length: needed - this.columnCount } },
            ],
          },
        }),
      policy,
    );
    this.columnCount = needed;
  }

  /** True when row 1 still names our columns where we think they are. */
  private headerMatches(header: readonly unknown[]): boolean {
    return ORDER_COLUMNS.every(
      (k) => headerKey(String(header[this.columns.index[k] - this.columns.first] ?? '')) === headerKey(k),
    );
  }

  // ------------------------------------------------------------ reading

  /** Reads every row of the tab (one call) and parses each at the boundary. */
  async readAll(): Promise<Snapshot> {
    let lines = await this.readSpan();
    if (!this.headerMatches(lines[0] ?? [])) {
      // Someone moved or renamed columns while we ran: map them again, then read again.
      this.log.warn({ tab: this.tab }, 'sheets: header row changed; mapping columns again');
      const header = await this.readHeader();
      const { map, added } = ColumnMap.fromHeader(header);
      if (added.length > 0) {
        throw appError('STORE_UNAVAILABLE', {
          message: `The ${this.tab} tab lost columns: ${added.map((a) => a.key).join(', ')}`,
          details: { backend: 'sheets', missingColumns: added.map((a) => a.key) },
        });
      }
      this.columns = map;
      lines = await this.readSpan();
    }
    return this.parseLines(lines);
  }

  private async readSpan(): Promise<unknown[][]> {
    const data = await this.callOrFail('values.get', () =>
      this.api.spreadsheets.values.get({
        spreadsheetId: this.spreadsheetId,
        range: columnsRange(this.tab, this.columns.first, this.columns.last),
        valueRenderOption: 'FORMATTED_VALUE',
        majorDimension: 'ROWS',
      }),
    );
    return (data.values ?? []) as unknown[][];
  }

  private parseLines(lines: unknown[][]): Snapshot {
    const snap: Snapshot = {
      orders: [],
      byId: new Map(),
      byNumber: new Map(),
      unreadable: [],
      duplicates: [],
      maxSequence: new Map(),
    };
    for (let i = 1; i < lines.length; i++) {
      const values = lines[i] ?? [];
      if (isBlankRow(values)) continue;
      const row = i + 1;
      const cells = this.columns.fromArray(values);
      const number = orderNumberParts(cells.orderNumber);
      if (number) {
        snap.maxSequence.set(number.prefix, Math.max(snap.maxSequence.get(number.prefix) ?? 0, number.sequence));
      }
      const parsed = parseRow(cells);
      if (!parsed.ok) {
        snap.unreadable.push({ row, reason: parsed.reason });
        continue;
      }
      const { order } = parsed;
      if (snap.byId.has(order.id)) {
        snap.duplicates.push({ row, reason: `id ${order.id} already in row ${snap.byId.get(order.id)?.row}` });
        continue;
      }
      const entry = { row, order };
      snap.orders.push(entry);
      snap.byId.set(order.id, entry);
      if (!snap.byNumber.has(order.orderNumber)) snap.byNumber.set(order.orderNumber, entry);
    }
    return snap;
  }

  /** One row, parsed; null when it is blank or unreadable. */
  async readRow(row: number): Promise<OrderRecord | null> {
    const data = await this.callOrFail('values.get', () =>
      this.api.spreadsheets.values.get({
        spreadsheetId: this.spreadsheetId,
        range: rowRange(this.tab, row, this.columns.first, this.columns.last),
        valueRenderOption: 'FORMATTED_VALUE',
      }),
    );
    const values = (data.values?.[0] ?? []) as unknown[];
    if (isBlankRow(values)) return null;
    const parsed = parseRow(this.columns.fromArray(values));
    return parsed.ok ? parsed.order : null;
  }

  /** Where these ids are (1-based rows), from one read of the id column. */
  async findIds(ids: readonly string[]): Promise<Map<string, number>> {
    const col = this.columns.index.id;
    const data = await this.callOrFail('values.get', () =>
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

  /** A cheap call that proves the spreadsheet answers (for health checks). */
  async ping(): Promise<void> {
    await this.call(
      'values.get',
      () =>
        this.api.spreadsheets.values.get({ spreadsheetId: this.spreadsheetId, range: `${quoteSheet(this.tab)}!A1` }),
      { ...this.retry, attempts: 1 },
    );
  }

  // ------------------------------------------------------------ writing

  /**
   * Appends orders as new rows in one `values.append` (RAW, INSERT_ROWS) and returns the
   * row of each. After a failed attempt it waits, looks the ids up, and writes again only
   * the rows that are not there: an answer lost after the rows landed never duplicates them.
   */
  async appendOrders(records: readonly OrderRecord[]): Promise<Map<string, number>> {
    const placed = new Map<string, number>();
    let pending = [...records];
    const range = columnsRange(this.tab, this.columns.first, this.columns.last);
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.api.spreadsheets.values.append({
          spreadsheetId: this.spreadsheetId,
          range,
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { majorDimension: 'ROWS', values: pending.map((r) => this.columns.toArray(toCells(r))) },
        });
        this.lastOkAt = Date.now();
        const rows = rowsOfRange(res.data.updates?.updatedRange ?? '');
        if (rows && rows.last - rows.first + 1 === pending.length) {
          pending.forEach((r, i) => {
            placed.set(r.id, rows.first + i);
          });
        } else {
          for (const [id, row] of await this.findIds(pending.map((r) => r.id))) placed.set(id, row);
        }
        return placed;
      } catch (err) {
        if (!isRetryable(err) || attempt >= this.retry.attempts) throw this.unavailable('values.append', err);
        const delayMs = backoffMs(attempt - 1, this.retry, err);
        this.log.warn(
          { call: 'values.append', status: statusOf(err), retry: attempt, delayMs, rows: pending.length },
          'sheets: append failed; checking whether it landed before writing again',
        );
        await sleep(delayMs);
        const landed = await this.findIds(pending.map((r) => r.id));
        for (const [id, row] of landed) placed.set(id, row);
        pending = pending.filter((r) => !landed.has(r.id));
        if (pending.length === 0) return placed;
      }
    }
  }

  /**
   * Writes `keys` of one row (RAW) in one `values.batchUpdate`, one range per run of
   * adjacent columns: cells the change does not touch (and columns that are not ours)
   * stay as they are. Positional, so repeating it is harmless.
   */
  async writeCells(row: number, keys: readonly ColumnKey[], cells: RowCells, policy?: RetryPolicy): Promise<void> {
    if (keys.length === 0) return;
    const data = this.columns.runs(keys).map((run) => ({
      range: rowRange(this.tab, row, run.from, run.to),
      majorDimension: 'ROWS',
      values: [run.keys.map((k) => cells[k])],
    }));
    const op = () =>
      this.api.spreadsheets.values.batchUpdate({
        spreadsheetId: this.spreadsheetId,
        requestBody: { valueInputOption: 'RAW', data },
      });
    if (policy) await this.call('values.batchUpdate', op, policy);
    else await this.callOrFail('values.batchUpdate', op);
  }
}
