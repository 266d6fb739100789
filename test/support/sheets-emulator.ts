/**
 * A loopback HTTP server that speaks enough of the Google Sheets v4 REST API for the real
 * `googleapis` client (`google.sheets({ version: 'v4', auth, rootUrl })`):
 *
 *   GET  /v4/spreadsheets/{id}                         spreadsheets.get (sheet properties)
 *   POST /v4/spreadsheets/{id}:batchUpdate             addSheet, deleteSheet, appendDimension,
 *                                                      insertDimension, deleteDimension,
 *                                                      updateSheetProperties (gridProperties, title)
 *   GET  /v4/spreadsheets/{id}/values/{range}          values.get
 *   GET  /v4/spreadsheets/{id}/values:batchGet         values.batchGet
 *   PUT  /v4/spreadsheets/{id}/values/{range}          values.update
 *   POST /v4/spreadsheets/{id}/values/{range}:append   values.append (INSERT_ROWS / OVERWRITE)
 *   POST /v4/spreadsheets/{id}/values:batchUpdate      values.batchUpdate
 *   POST /v4/spreadsheets/{id}/values/{range}:clear    values.clear
 *   POST /v4/spreadsheets/{id}/values:batchClear       values.batchClear
 *
 * Behaviour kept from the real service, because the adapter depends on it:
 * - `valueInputOption` is required on writes. RAW stores strings as they are; USER_ENTERED
 *   parses like a person typing: `=...` becomes a formula, `+1` and `12.5` numbers, `$12.50`
 *   a currency number, `TRUE` a boolean, a leading `'` forces text.
 * - Reads drop trailing empty cells of each row and trailing empty rows, omit `values` when
 *   nothing is there, and honour `majorDimension` (ROWS/COLUMNS) and `valueRenderOption`
 *   (FORMATTED_VALUE, UNFORMATTED_VALUE, FORMULA).
 * - `null` in written values skips a cell; `""` clears it. A cell holds at most 50,000 chars.
 * - Sheets have a grid (1000 × 26 for a new tab): updates outside it fail with the API's
 *   "exceeds grid limits" error; appends grow it.
 * - append finds the table in the range's columns (simplified: the last row holding data in
 *   those columns, at or below the range's first row) and writes after it; INSERT_ROWS
 *   inserts fresh rows there, shifting anything below. The answer carries `tableRange` and
 *   `updates.updatedRange`.
 * - Every call needs `Authorization: Bearer ...` (401 otherwise). With `sharedWith`, the
 *   bearer must be a JWT whose `iss` is one of those emails (403 otherwise, as for a sheet
 *   not shared with the service account); with `publicKeys`, its RS256 signature is checked.
 * - Errors have Google's shape: `{ error: { code, message, status } }`.
 *
 * For tests and benches it injects faults (a seeded fraction of calls answered 429/500, an
 * outage during which every call fails 503, an unreachable switch that cuts every connection
 * unanswered, writes applied and then answered 500 or reset),
 * adds latency, counts calls per method, and logs the options of every write.
 */
import { createPublicKey, type KeyObject, verify as verifySignature } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type A1Range, columnLetters, formatA1, parseA1, quoteSheet } from './sheets-a1.js';

// ---------------------------------------------------------------- model

export type CellValue = string | number | boolean;
/** A stored cell: its value, the formula that computes it, and whether it shows as currency. */
export type Cell = { value: CellValue; formula?: string; currency?: boolean };

type Grid = { rowCount: number; columnCount: number };
type EmuSheet = { sheetId: number; title: string; index: number; grid: Grid; rows: (Cell | undefined)[][] };
type EmuSpreadsheet = { id: string; title: string; sheets: EmuSheet[]; nextSheetId: number };

export type ValueInputOption = 'RAW' | 'USER_ENTERED';
export type ValueRenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';
type MajorDimension = 'ROWS' | 'COLUMNS';

export const SHEETS_METHODS = [
  'spreadsheets.get',
  'spreadsheets.batchUpdate',
  'values.get',
  'values.batchGet',
  'values.update',
  'values.append',
  'values.batchUpdate',
  'values.clear',
  'values.batchClear',
] as const;
export type SheetsMethod = (typeof SHEETS_METHODS)[number];

/** Calls that count against the write quota (300 per minute per project). */
const WRITE_METHODS: ReadonlySet<SheetsMethod> = new Set<SheetsMethod>([
  'spreadsheets.batchUpdate',
  'values.update',
  'values.append',
  'values.batchUpdate',
  'values.clear',
  'values.batchClear',
]);

const MAX_CELL_CHARS = 50_000;
const DEFAULT_GRID: Grid = { rowCount: 1000, columnCount: 26 };
const SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export type FaultOptions = {
  /** Fraction (0–1) of calls answered with an error instead of being handled. */
  rate?: number;
  /** Statuses those calls get, picked at random (default 429 and 500). */
  statuses?: number[];
  /** Seed of the fault dice (default 1): the same seed fails the same calls. */
  seed?: number;
  /** Only these methods are subject to `rate` (default: all). */
  methods?: readonly SheetsMethod[];
  /** While true, every call fails with 503 UNAVAILABLE. */
  outage?: boolean;
  /**
   * While true, Google can't be reached at all (the venue's uplink is down): every connection
   * is cut before an answer, and nothing is counted or applied.
   */
  unreachable?: boolean;
  /**
   * The next `count` calls of `methods` (default: every write method) are applied and then
   * answered 500 (`mode: 'status'`, default) or cut off (`'reset'`), so the client cannot
   * know that they landed.
   */
  applyThenFail?: { count: number; methods?: readonly SheetsMethod[]; mode?: 'status' | 'reset' };
  /** Calls of `methods` are applied at once and answered only after `ms` (a kill test's window). */
  applyThenHold?: { ms: number; methods: readonly SheetsMethod[] };
};

export type SheetsEmulatorOptions = {
  /** Delay before every answer, in ms. */
  latencyMs?: number;
  faults?: FaultOptions;
  /** Service-account emails the spreadsheets are shared with (default: any bearer token). */
  sharedWith?: readonly string[];
  /** Service-account emails that may only read (shared as Viewer): writes are 403. */
  viewers?: readonly string[];
  /** email → PEM public key: bearer JWTs from these accounts must carry a valid RS256 signature. */
  publicKeys?: Record<string, string | KeyObject>;
};

export type WriteLogEntry = {
  method: SheetsMethod;
  ranges: string[];
  valueInputOption: string | undefined;
  insertDataOption?: string | undefined;
  rows: number;
};

export type SheetsEmulatorStats = {
  calls: Record<SheetsMethod, number>;
  /** Calls of the write methods, faulted ones included (they count against quota too). */
  writes: number;
  reads: number;
  /** Calls answered with an injected fault. */
  faulted: number;
};

export interface SheetsEmulator {
  /** Give this to `google.sheets({ rootUrl })` / GOOGLE_SHEETS_ROOT_URL. */
  readonly rootUrl: string;
  /** Creates a spreadsheet with the given tabs (default one tab, `Sheet1`); returns its id. */
  createSpreadsheet(opts?: { id?: string; title?: string; sheets?: string[] }): string;
  sheetTitles(spreadsheetId: string): string[];
  grid(spreadsheetId: string, sheet: string): { rowCount: number; columnCount: number };
  /** Values as the API would return them for `range` (trailing empties dropped). */
  getValues(spreadsheetId: string, range: string, render?: ValueRenderOption): CellValue[][];
  /** Writes as a person editing the sheet would (USER_ENTERED by default); grows the grid. */
  setValues(spreadsheetId: string, range: string, values: (CellValue | null)[][], input?: ValueInputOption): void;
  /** The stored cell at an A1 reference such as `'Orders'!K2`; undefined when empty. */
  cell(spreadsheetId: string, ref: string): Cell | undefined;
  /** Inserts `count` empty rows before 1-based row `beforeRow`, as a person would. */
  insertRows(spreadsheetId: string, sheet: string, beforeRow: number, count?: number): void;
  deleteRows(spreadsheetId: string, sheet: string, fromRow: number, count?: number): void;
  setFaults(faults: FaultOptions): void;
  setLatency(ms: number): void;
  stats(): SheetsEmulatorStats;
  resetStats(): void;
  /** Options of every write call received, oldest first (the last 10,000). */
  readonly writeLog: readonly WriteLogEntry[];
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const FAULT_MESSAGES: Record<number, string> = {
  429: "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user'",
  500: 'Internal error encountered.',
  502: 'Bad gateway.',
  503: 'The service is currently unavailable.',
  504: 'Deadline exceeded.',
};

/** mulberry32: small, seeded, good enough for fault dice. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- cells

function isEmpty(cell: Cell | undefined): boolean {
  return cell === undefined || cell.value === '';
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function render(cell: Cell | undefined, option: ValueRenderOption): CellValue {
  if (cell === undefined) return '';
  if (option === 'FORMULA' && cell.formula !== undefined) return cell.formula;
  const v = cell.value;
  if (option === 'FORMATTED_VALUE') {
    if (typeof v === 'number') return cell.currency ? `${v < 0 ? '-' : ''}$${Math.abs(v).toFixed(2)}` : formatNumber(v);
    if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  }
  return v;
}

/** What a formula shows. Only HYPERLINK is understood; anything else is an error value. */
function evaluateFormula(formula: string): CellValue {
  const link = /^=\s*HYPERLINK\(\s*"([^"]*)"\s*(?:[,;]\s*"([^"]*)"\s*)?\)\s*$/i.exec(formula);
  if (link) return link[2] ?? (link[1] as string);
  return '#NAME?';
}

/** A written value as a cell: `undefined` skips the cell, `null` clears it. */
function toCell(raw: unknown, input: ValueInputOption): Cell | null | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'number' || typeof raw === 'boolean') return { value: raw };
  if (typeof raw !== 'string')
    throw new ApiError(
      400,
      `Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue), ${JSON.stringify(raw)}`,
    );
  if (raw.length > MAX_CELL_CHARS) {
    throw new ApiError(
      400,
      `Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`,
    );
  }
  if (raw === '') return null;
  if (input === 'RAW') return { value: raw };
  if (raw.startsWith("'")) return { value: raw.slice(1) };
  if (raw.startsWith('=') && raw.length > 1) return { value: evaluateFormula(raw), formula: raw };
  const t = raw.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { value: Number(t) };
  const money = /^(-)?\$\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/.exec(t);
  if (money) {
    const n = Number(`${money[2]?.replaceAll(',', '')}${money[3] ?? ''}`);
    return { value: money[1] ? -n : n, currency: true };
  }
  if (/^(true|false)$/i.test(t)) return { value: t.toLowerCase() === 'true' };
  return { value: raw };
}

// ---------------------------------------------------------------- the server

type Resolved = { sheet: EmuSheet; range: A1Range };

export async function startSheetsEmulator(opts: SheetsEmulatorOptions = {}): Promise<SheetsEmulator> {
  const spreadsheets = new Map<string, EmuSpreadsheet>();
  let latencyMs = opts.latencyMs ?? 0;
  let faults: FaultOptions = opts.faults ?? {};
  let dice = seededRandom(faults.seed ?? 1);
  let applyThenFailLeft = faults.applyThenFail?.count ?? 0;
  const calls = Object.fromEntries(SHEETS_METHODS.map((m) => [m, 0])) as Record<SheetsMethod, number>;
  let faulted = 0;
  const writeLog: WriteLogEntry[] = [];
  const publicKeys = new Map(
    Object.entries(opts.publicKeys ?? {}).map(([email, key]) => [
      email,
      typeof key === 'string' ? createPublicKey(key) : key,
    ]),
  );
  let idCounter = 0;

  function spreadsheet(id: string): EmuSpreadsheet {
    const ss = spreadsheets.get(id);
    if (!ss) throw new ApiError(404, 'Requested entity was not found.');
    return ss;
  }

  function addSheet(ss: EmuSpreadsheet, title: string, grid: Grid = DEFAULT_GRID, index?: number): EmuSheet {
    if (ss.sheets.some((s) => s.title.toLowerCase() === title.toLowerCase())) {
      throw new ApiError(
        400,
        `Invalid requests[0].addSheet: A sheet with the name "${title}" already exists. Please enter another name.`,
      );
    }
    const sheet: EmuSheet = { sheetId: ss.nextSheetId++, title, index: 0, grid: { ...grid }, rows: [] };
    ss.sheets.splice(index ?? ss.sheets.length, 0, sheet);
    ss.sheets.forEach((s, i) => {
      s.index = i;
    });
    return sheet;
  }

  function resolve(ss: EmuSpreadsheet, text: string): Resolved {
    let range: A1Range;
    try {
      range = parseA1(text);
    } catch {
      throw new ApiError(400, `Unable to parse range: ${text}`);
    }
    const sheet =
      range.sheet === undefined
        ? ss.sheets[0]
        : ss.sheets.find((s) => s.title.toLowerCase() === range.sheet?.toLowerCase());
    if (!sheet) throw new ApiError(400, `Unable to parse range: ${text}`);
    return { sheet, range };
  }

  /** The range's bounds clipped to the grid. */
  function bounds({ sheet, range }: Resolved) {
    return {
      r0: range.r0,
      c0: range.c0,
      r1: Math.min(range.r1 ?? Number.POSITIVE_INFINITY, sheet.grid.rowCount - 1),
      c1: Math.min(range.c1 ?? Number.POSITIVE_INFINITY, sheet.grid.columnCount - 1),
    };
  }

  function a1Of(sheet: EmuSheet, r0: number, c0: number, r1: number, c1: number): string {
    return formatA1(sheet.title, r0, c0, Math.max(r0, r1), Math.max(c0, c1));
  }

  function readValues(res: Resolved, option: ValueRenderOption, major: MajorDimension) {
    const { sheet } = res;
    const b = bounds(res);
    const lastRow = Math.min(b.r1, sheet.rows.length - 1);
    const matrix: CellValue[][] = [];
    for (let r = b.r0; r <= lastRow; r++) {
      const row = sheet.rows[r] ?? [];
      const out: CellValue[] = [];
      for (let c = b.c0; c <= Math.min(b.c1, row.length - 1); c++) out.push(render(row[c], option));
      matrix.push(out);
    }
    let values: CellValue[][] = matrix;
    if (major === 'COLUMNS') {
      const width = Math.max(0, ...matrix.map((r) => r.length));
      values = Array.from({ length: width }, (_, c) => matrix.map((r) => r[c] ?? ''));
    }
    for (const line of values) while (line.length > 0 && line[line.length - 1] === '') line.pop();
    while (values.length > 0 && (values[values.length - 1] as CellValue[]).length === 0) values.pop();
    return {
      range: a1Of(sheet, b.r0, b.c0, b.r1, b.c1),
      majorDimension: major,
      ...(values.length > 0 ? { values } : {}),
    };
  }

  /** Checks a write of `values` at the range's top-left; returns the cells to apply. */
  function planWrite(
    res: Resolved,
    values: unknown,
    input: ValueInputOption,
    major: MajorDimension,
    opts2: { growGrid: boolean; startRow?: number; startCol?: number },
  ) {
    if (!Array.isArray(values) || !values.every(Array.isArray)) {
      throw new ApiError(400, "Invalid value at 'data.values': expected a list of lists");
    }
    const { sheet, range } = res;
    const r0 = opts2.startRow ?? range.r0;
    const c0 = opts2.startCol ?? range.c0;
    const cells: { r: number; c: number; cell: Cell | null }[] = [];
    let maxR = r0 - 1;
    let maxC = c0 - 1;
    (values as unknown[][]).forEach((line, i) => {
      line.forEach((raw, j) => {
        const r = major === 'ROWS' ? r0 + i : r0 + j;
        const c = major === 'ROWS' ? c0 + j : c0 + i;
        maxR = Math.max(maxR, r);
        maxC = Math.max(maxC, c);
        const cell = toCell(raw, input);
        if (cell !== undefined) cells.push({ r, c, cell });
      });
    });
    const rows = major === 'ROWS' ? values.length : Math.max(0, ...(values as unknown[][]).map((l) => l.length));
    const cols = major === 'ROWS' ? Math.max(0, ...(values as unknown[][]).map((l) => l.length)) : values.length;
    // A single-cell range is only the starting point, as in the real API.
    const single = range.r1 === range.r0 && range.c1 === range.c0;
    if (!opts2.growGrid) {
      const requested = a1Of(sheet, range.r0, range.c0, range.r1 ?? range.r0, range.c1 ?? range.c0);
      if (!single && range.r1 !== undefined && maxR > range.r1) {
        throw new ApiError(
          400,
          `Requested writing within range [${requested}], but tried writing to row [${maxR + 1}]`,
        );
      }
      if (!single && range.c1 !== undefined && maxC > range.c1) {
        throw new ApiError(
          400,
          `Requested writing within range [${requested}], but tried writing to column [${columnLetters(maxC)}]`,
        );
      }
      if (maxR >= sheet.grid.rowCount || maxC >= sheet.grid.columnCount) {
        throw new ApiError(
          400,
          `Range (${quoteSheet(sheet.title)}!${columnLetters(maxC)}${maxR + 1}) exceeds grid limits. Max rows: ${sheet.grid.rowCount}, max columns: ${sheet.grid.columnCount}`,
        );
      }
    }
    return { sheet, r0, c0, rows, cols, cells, maxR, maxC };
  }

  function applyWrite(plan: ReturnType<typeof planWrite>) {
    const { sheet } = plan;
    for (const { r, c, cell } of plan.cells) {
      const row = sheet.rows[r] ?? [];
      sheet.rows[r] = row;
      if (cell === null) row[c] = undefined;
      else row[c] = cell;
    }
    sheet.grid.rowCount = Math.max(sheet.grid.rowCount, plan.maxR + 1);
    sheet.grid.columnCount = Math.max(sheet.grid.columnCount, plan.maxC + 1);
    const updatedCells = plan.cells.length;
    return {
      updatedRange: a1Of(sheet, plan.r0, plan.c0, plan.r0 + plan.rows - 1, plan.c0 + plan.cols - 1),
      updatedRows: plan.rows,
      updatedColumns: plan.cols,
      updatedCells,
    };
  }

  function clearRange(res: Resolved): string {
    const b = bounds(res);
    for (let r = b.r0; r <= Math.min(b.r1, res.sheet.rows.length - 1); r++) {
      const row = res.sheet.rows[r];
      if (!row) continue;
      for (let c = b.c0; c <= Math.min(b.c1, row.length - 1); c++) row[c] = undefined;
    }
    return a1Of(res.sheet, b.r0, b.c0, b.r1, b.c1);
  }

  function inputOption(value: unknown): ValueInputOption {
    if (value === 'RAW' || value === 'USER_ENTERED') return value;
    throw new ApiError(400, `Invalid valueInputOption: ${value ?? 'INPUT_VALUE_OPTION_UNSPECIFIED'}`);
  }
  function renderOption(value: string | null): ValueRenderOption {
    if (value === null) return 'FORMATTED_VALUE';
    if (value === 'FORMATTED_VALUE' || value === 'UNFORMATTED_VALUE' || value === 'FORMULA') return value;
    throw new ApiError(400, `Invalid value at 'value_render_option' (${value})`);
  }
  function majorOption(value: unknown): MajorDimension {
    if (value === undefined || value === null || value === 'ROWS' || value === 'DIMENSION_UNSPECIFIED') return 'ROWS';
    if (value === 'COLUMNS') return 'COLUMNS';
    throw new ApiError(400, `Invalid value at 'major_dimension' (${String(value)})`);
  }

  function sheetProps(s: EmuSheet) {
    return { sheetId: s.sheetId, title: s.title, index: s.index, sheetType: 'GRID', gridProperties: { ...s.grid } };
  }

  function sheetById(ss: EmuSpreadsheet, id: unknown): EmuSheet {
    const sheet = ss.sheets.find((s) => s.sheetId === id);
    if (!sheet) throw new ApiError(400, `No grid with id: ${String(id)}`);
    return sheet;
  }

  /** spreadsheets.batchUpdate: all requests apply, or none. */
  function structuralUpdate(ss: EmuSpreadsheet, body: Record<string, unknown>) {
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0)
      throw new ApiError(400, 'Must specify at least one request.');
    const saved = structuredClone({ sheets: ss.sheets, nextSheetId: ss.nextSheetId });
    try {
      const replies = requests.map((req: Record<string, Record<string, unknown>>) => {
        if (req.addSheet) {
          const props = (req.addSheet.properties ?? {}) as Record<string, unknown>;
          const title = typeof props.title === 'string' && props.title ? props.title : `Sheet${ss.nextSheetId + 1}`;
          const grid = { ...DEFAULT_GRID, ...((props.gridProperties as Partial<Grid>) ?? {}) };
          const sheet = addSheet(ss, title, grid, typeof props.index === 'number' ? props.index : undefined);
          return { addSheet: { properties: sheetProps(sheet) } };
        }
        if (req.deleteSheet) {
          const sheet = sheetById(ss, req.deleteSheet.sheetId);
          if (ss.sheets.length === 1) throw new ApiError(400, "You can't remove all the sheets in a document.");
          ss.sheets.splice(ss.sheets.indexOf(sheet), 1);
          ss.sheets.forEach((s, i) => {
            s.index = i;
          });
          return {};
        }
        if (req.appendDimension) {
          const sheet = sheetById(ss, req.appendDimension.sheetId);
          const length = Number(req.appendDimension.length);
          if (!Number.isInteger(length) || length < 1) throw new ApiError(400, 'length must be positive');
          if (req.appendDimension.dimension === 'COLUMNS') sheet.grid.columnCount += length;
          else sheet.grid.rowCount += length;
          return {};
        }
        if (req.insertDimension || req.deleteDimension) {
          const spec = (req.insertDimension ?? req.deleteDimension) as Record<string, Record<string, unknown>>;
          const r = spec.range ?? {};
          const sheet = sheetById(ss, r.sheetId);
          const start = Number(r.startIndex);
          const end = Number(r.endIndex);
          if (!(end > start && start >= 0)) throw new ApiError(400, 'Invalid dimension range');
          if (r.dimension !== 'ROWS') throw new ApiError(400, 'Only ROWS dimension changes are emulated');
          if (req.insertDimension) {
            if (start < sheet.rows.length)
              sheet.rows.splice(start, 0, ...Array.from({ length: end - start }, () => []));
            sheet.grid.rowCount += end - start;
          } else {
            sheet.rows.splice(start, end - start);
            sheet.grid.rowCount -= Math.min(end - start, sheet.grid.rowCount);
          }
          return {};
        }
        if (req.updateSheetProperties) {
          const props = (req.updateSheetProperties.properties ?? {}) as Record<string, unknown>;
          const sheet = sheetById(ss, props.sheetId);
          if (typeof props.title === 'string') sheet.title = props.title;
          const grid = props.gridProperties as Partial<Grid> | undefined;
          if (grid?.rowCount !== undefined) sheet.grid.rowCount = grid.rowCount;
          if (grid?.columnCount !== undefined) sheet.grid.columnCount = grid.columnCount;
          return {};
        }
        throw new ApiError(400, `Unsupported request in the emulator: ${Object.keys(req).join(', ')}`);
      });
      return { spreadsheetId: ss.id, replies };
    } catch (err) {
      ss.sheets = saved.sheets;
      ss.nextSheetId = saved.nextSheetId;
      throw err;
    }
  }

  function appendValues(res: Resolved, values: unknown, input: ValueInputOption, insert: string | null) {
    const { sheet, range } = res;
    const c1 = range.c1 ?? Number.POSITIVE_INFINITY;
    let first = -1;
    let last = -1;
    for (let r = range.r0; r < sheet.rows.length; r++) {
      const row = sheet.rows[r] ?? [];
      let has = false;
      for (let c = range.c0; c <= Math.min(c1, row.length - 1); c++) {
        if (!isEmpty(row[c])) {
          has = true;
          break;
        }
      }
      if (has) {
        if (first < 0) first = r;
        last = r;
      }
    }
    const start = last >= 0 ? last + 1 : range.r0;
    const plan = planWrite(res, values, input, 'ROWS', { growGrid: true, startRow: start, startCol: range.c0 });
    if (insert === 'INSERT_ROWS') {
      if (start < sheet.rows.length) sheet.rows.splice(start, 0, ...Array.from({ length: plan.rows }, () => []));
      sheet.grid.rowCount += plan.rows;
    } else if (insert !== null && insert !== 'OVERWRITE') {
      throw new ApiError(400, `Invalid insertDataOption: ${insert}`);
    }
    const updates = applyWrite(plan);
    const width = Math.max(plan.cols, 1);
    return {
      spreadsheetId: '',
      ...(last >= 0 ? { tableRange: a1Of(sheet, first, range.c0, last, range.c0 + width - 1) } : {}),
      updates: { spreadsheetId: '', ...updates },
    };
  }

  // ------------------------------------------------------------ HTTP

  type Route = { method: SheetsMethod; spreadsheetId: string; range?: string };

  function route(httpMethod: string, rawPath: string): Route {
    const m =
      /^\/v4\/spreadsheets\/([^/]+?)(?::(batchUpdate))?(?:\/values(?:\/([^/]+?))?(?::(append|clear|batchGet|batchUpdate|batchClear))?)?$/.exec(
        rawPath,
      );
    if (!m) throw new ApiError(404, `Unknown path ${rawPath}`);
    const spreadsheetId = decodeURIComponent(m[1] as string);
    const range = m[3] === undefined ? undefined : decodeURIComponent(m[3]);
    const hasValues = rawPath.includes('/values');
    let method: SheetsMethod | undefined;
    if (!hasValues) {
      if (m[2] === 'batchUpdate' && httpMethod === 'POST') method = 'spreadsheets.batchUpdate';
      else if (!m[2] && httpMethod === 'GET') method = 'spreadsheets.get';
    } else if (range === undefined) {
      if (m[4] === 'batchGet' && httpMethod === 'GET') method = 'values.batchGet';
      if (m[4] === 'batchUpdate' && httpMethod === 'POST') method = 'values.batchUpdate';
      if (m[4] === 'batchClear' && httpMethod === 'POST') method = 'values.batchClear';
    } else if (m[4] === 'append' && httpMethod === 'POST') method = 'values.append';
    else if (m[4] === 'clear' && httpMethod === 'POST') method = 'values.clear';
    else if (!m[4] && httpMethod === 'GET') method = 'values.get';
    else if (!m[4] && httpMethod === 'PUT') method = 'values.update';
    if (!method) throw new ApiError(404, `Unknown path ${httpMethod} ${rawPath}`);
    return { method, spreadsheetId, ...(range !== undefined ? { range } : {}) };
  }

  function checkAuth(header: string | undefined, method: SheetsMethod): void {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) {
      throw new ApiError(401, 'Request is missing required authentication credential. Expected OAuth 2 access token.');
    }
    if (!opts.sharedWith && !opts.viewers && publicKeys.size === 0) return;
    const parts = (m[1] as string).split('.');
    if (parts.length !== 3) throw new ApiError(401, 'Request had invalid authentication credentials.');
    let claims: { iss?: string; scope?: string };
    try {
      claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
    } catch {
      throw new ApiError(401, 'Request had invalid authentication credentials.');
    }
    const key = claims.iss ? publicKeys.get(claims.iss) : undefined;
    if (publicKeys.size > 0) {
      const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
      const ok = key && verifySignature('RSA-SHA256', signed, key, Buffer.from(parts[2] as string, 'base64url'));
      if (!ok) throw new ApiError(401, 'Request had invalid authentication credentials.');
      if (!claims.scope?.split(' ').includes(SPREADSHEETS_SCOPE)) {
        throw new ApiError(403, 'Request had insufficient authentication scopes.');
      }
    }
    if (opts.sharedWith && !opts.sharedWith.includes(claims.iss ?? '')) {
      throw new ApiError(403, 'The caller does not have permission');
    }
    if (opts.viewers?.includes(claims.iss ?? '') && WRITE_METHODS.has(method)) {
      throw new ApiError(403, 'The caller does not have permission');
    }
  }

  function handle(r: Route, url: URL, body: Record<string, unknown>): unknown {
    const ss = spreadsheet(r.spreadsheetId);
    const q = url.searchParams;
    switch (r.method) {
      case 'spreadsheets.get':
        return {
          spreadsheetId: ss.id,
          properties: { title: ss.title, locale: 'en_US', autoRecalc: 'ON_CHANGE', timeZone: 'Etc/GMT' },
          sheets: ss.sheets.map((s) => ({ properties: sheetProps(s) })),
          spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${ss.id}/edit`,
        };
      case 'spreadsheets.batchUpdate':
        return { ...structuralUpdate(ss, body), spreadsheetId: ss.id };
      case 'values.get':
        return readValues(
          resolve(ss, r.range as string),
          renderOption(q.get('valueRenderOption')),
          majorOption(q.get('majorDimension') ?? undefined),
        );
      case 'values.batchGet': {
        const ranges = q.getAll('ranges');
        const option = renderOption(q.get('valueRenderOption'));
        const major = majorOption(q.get('majorDimension') ?? undefined);
        const resolved = ranges.map((text) => resolve(ss, text));
        return { spreadsheetId: ss.id, valueRanges: resolved.map((res) => readValues(res, option, major)) };
      }
      case 'values.update': {
        const input = inputOption(q.get('valueInputOption'));
        const res = resolve(ss, r.range as string);
        if (typeof body.range === 'string' && body.range !== r.range) {
          const other = resolve(ss, body.range);
          if (other.sheet !== res.sheet || other.range.r0 !== res.range.r0 || other.range.c0 !== res.range.c0) {
            throw new ApiError(400, `Requested range [${body.range}] does not match the URL range [${r.range}]`);
          }
        }
        const plan = planWrite(res, body.values ?? [], input, majorOption(body.majorDimension), { growGrid: false });
        return { spreadsheetId: ss.id, ...applyWrite(plan) };
      }
      case 'values.append': {
        const input = inputOption(q.get('valueInputOption'));
        const out = appendValues(resolve(ss, r.range as string), body.values ?? [], input, q.get('insertDataOption'));
        return { ...out, spreadsheetId: ss.id, updates: { ...out.updates, spreadsheetId: ss.id } };
      }
      case 'values.batchUpdate': {
        const input = inputOption(body.valueInputOption);
        const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
        const plans = data.map((d) =>
          planWrite(resolve(ss, String(d.range)), d.values ?? [], input, majorOption(d.majorDimension), {
            growGrid: false,
          }),
        );
        const responses = plans.map((p) => ({ spreadsheetId: ss.id, ...applyWrite(p) }));
        return {
          spreadsheetId: ss.id,
          totalUpdatedRows: responses.reduce((n, x) => n + x.updatedRows, 0),
          totalUpdatedColumns: responses.reduce((n, x) => Math.max(n, x.updatedColumns), 0),
          totalUpdatedCells: responses.reduce((n, x) => n + x.updatedCells, 0),
          totalUpdatedSheets: new Set(plans.map((p) => p.sheet)).size,
          responses,
        };
      }
      case 'values.clear':
        return { spreadsheetId: ss.id, clearedRange: clearRange(resolve(ss, r.range as string)) };
      case 'values.batchClear': {
        const ranges = Array.isArray(body.ranges) ? (body.ranges as string[]) : [];
        const resolved = ranges.map((text) => resolve(ss, text));
        return { spreadsheetId: ss.id, clearedRanges: resolved.map(clearRange) };
      }
    }
  }

  function logWrite(r: Route, url: URL, body: Record<string, unknown>): void {
    if (!WRITE_METHODS.has(r.method)) return;
    const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
    writeLog.push({
      method: r.method,
      ranges: r.range !== undefined ? [r.range] : data.map((d) => String(d.range)),
      valueInputOption: url.searchParams.get('valueInputOption') ?? (body.valueInputOption as string | undefined),
      insertDataOption: url.searchParams.get('insertDataOption') ?? undefined,
      rows: Array.isArray(body.values)
        ? body.values.length
        : data.reduce((n, d) => n + (Array.isArray(d.values) ? d.values.length : 0), 0),
    });
    if (writeLog.length > 10_000) writeLog.splice(0, writeLog.length - 10_000);
  }

  function send(res: ServerResponse, status: number, payload: unknown): void {
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  function sendError(res: ServerResponse, code: number, message: string): void {
    send(res, code, { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN' } });
  }

  async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return {};
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ApiError(400, 'Invalid JSON payload received.');
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let counted: Route | undefined;
    if (faults.unreachable) {
      req.socket.destroy();
      return;
    }
    try {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const body = await readBody(req);
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      counted = route(req.method ?? 'GET', url.pathname);
      calls[counted.method] += 1;
      logWrite(counted, url, body);
      checkAuth(req.headers.authorization, counted.method);
      if (faults.outage) {
        faulted += 1;
        return sendError(res, 503, FAULT_MESSAGES[503] as string);
      }
      const atf = faults.applyThenFail;
      const applyThenFail =
        applyThenFailLeft > 0 &&
        (atf?.methods ? atf.methods.includes(counted.method) : WRITE_METHODS.has(counted.method));
      const affected = !faults.methods || faults.methods.includes(counted.method);
      if (!applyThenFail && affected && (faults.rate ?? 0) > 0 && dice() < (faults.rate ?? 0)) {
        const statuses = faults.statuses ?? [429, 500];
        const status = statuses[Math.floor(dice() * statuses.length)] ?? 500;
        faulted += 1;
        return sendError(res, status, FAULT_MESSAGES[status] ?? 'Injected fault');
      }
      const answer = handle(counted, url, body);
      const hold = faults.applyThenHold;
      if (hold?.methods.includes(counted.method)) await new Promise((r) => setTimeout(r, hold.ms));
      if (applyThenFail) {
        applyThenFailLeft -= 1;
        faulted += 1;
        if (atf?.mode === 'reset') {
          req.socket.destroy();
          return;
        }
        return sendError(res, 500, FAULT_MESSAGES[500] as string);
      }
      send(res, 200, answer);
    } catch (err) {
      if (err instanceof ApiError) return sendError(res, err.code, err.message);
      sendError(res, 500, `Emulator bug: ${(err as Error).stack ?? String(err)}`);
    }
  }

  const server = createServer((req, res) => {
    void onRequest(req, res);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const port = (server.address() as AddressInfo).port;

  const emulator: SheetsEmulator = {
    rootUrl: `http://127.0.0.1:${port}/`,
    createSpreadsheet(o = {}) {
      idCounter += 1;
      const id = o.id ?? `emu-sheet-${idCounter}-${Math.random().toString(36).slice(2, 10)}`;
      if (spreadsheets.has(id)) throw new Error(`spreadsheet ${id} exists already`);
      const ss: EmuSpreadsheet = { id, title: o.title ?? 'Orders spreadsheet', sheets: [], nextSheetId: 0 };
      for (const title of o.sheets ?? ['Sheet1']) addSheet(ss, title);
      spreadsheets.set(id, ss);
      return id;
    },
    sheetTitles(id) {
      return spreadsheet(id).sheets.map((s) => s.title);
    },
    grid(id, title) {
      const ss = spreadsheet(id);
      const sheet = ss.sheets.find((s) => s.title === title);
      if (!sheet) throw new Error(`no sheet ${title}`);
      return { ...sheet.grid };
    },
    getValues(id, range, renderAs = 'UNFORMATTED_VALUE') {
      return readValues(resolve(spreadsheet(id), range), renderAs, 'ROWS').values ?? [];
    },
    setValues(id, range, values, input = 'USER_ENTERED') {
      applyWrite(planWrite(resolve(spreadsheet(id), range), values, input, 'ROWS', { growGrid: true }));
    },
    cell(id, ref) {
      const { sheet, range } = resolve(spreadsheet(id), ref);
      return sheet.rows[range.r0]?.[range.c0];
    },
    insertRows(id, title, beforeRow, count = 1) {
      const ss = spreadsheet(id);
      const sheet = ss.sheets.find((s) => s.title === title);
      if (!sheet) throw new Error(`no sheet ${title}`);
      structuralUpdate(ss, {
        requests: [
          {
            insertDimension: {
              range: {
                sheetId: sheet.sheetId,
                dimension: 'ROWS',
                startIndex: beforeRow - 1,
                endIndex: beforeRow - 1 + count,
              },
            },
          },
        ],
      });
    },
    deleteRows(id, title, fromRow, count = 1) {
      const ss = spreadsheet(id);
      const sheet = ss.sheets.find((s) => s.title === title);
      if (!sheet) throw new Error(`no sheet ${title}`);
      structuralUpdate(ss, {
        requests: [
          {
            deleteDimension: {
              range: {
                sheetId: sheet.sheetId,
                dimension: 'ROWS',
                startIndex: fromRow - 1,
                endIndex: fromRow - 1 + count,
              },
            },
          },
        ],
      });
    },
    setFaults(f) {
      faults = f;
      dice = seededRandom(f.seed ?? 1);
      applyThenFailLeft = f.applyThenFail?.count ?? 0;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    stats() {
      const writes = SHEETS_METHODS.filter((m) => WRITE_METHODS.has(m)).reduce((n, m) => n + calls[m], 0);
      const all = SHEETS_METHODS.reduce((n, m) => n + calls[m], 0);
      return { calls: { ...calls }, writes, reads: all - writes, faulted };
    },
    resetStats() {
      for (const m of SHEETS_METHODS) calls[m] = 0;
      faulted = 0;
      writeLog.length = 0;
    },
    writeLog,
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
  return emulator;
}
