/**
 * CSV for spreadsheet programs (RFC 4180): cells separated by commas, rows by CRLF, a cell
 * quoted when it holds a comma, a quote or a line break (quotes doubled inside).
 *
 * A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return would be taken for a
 * formula by Excel, LibreOffice or Google Sheets (CSV injection: `=HYPERLINK(...)` in a name
 * field); such a cell gets a leading `'`, which those programs show as text and hide.
 * (docs/contract.md, "Fulfilment")
 */

/** Starts the file so that spreadsheet programs read it as UTF-8 (Excel assumes ANSI without it). */
export const UTF8_BOM = '\ufeff';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
