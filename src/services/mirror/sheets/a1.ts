/** A1 notation for the ranges the adapter sends, and the row numbers the API answers with. */

/** 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Always quoted (`'My Orders'`), with quotes doubled: valid for every tab name. */
export function quoteSheet(title: string): string {
  return `'${title.replaceAll("'", "''")}'`;
}

/** `'Orders'!A2:Z2` from 0-based columns and a 1-based row. */
export function rowRange(title: string, row: number, fromCol: number, toCol: number): string {
  return `${quoteSheet(title)}!${columnLetter(fromCol)}${row}:${columnLetter(toCol)}${row}`;
}

/** `'Orders'!A:Z` — whole columns, 0-based. */
export function columnsRange(title: string, fromCol: number, toCol: number): string {
  return `${quoteSheet(title)}!${columnLetter(fromCol)}:${columnLetter(toCol)}`;
}

/**
 * The 1-based first and last rows of an A1 range the API answered with, such as
 * `Orders!A7:Z9` or `'My Orders'!A7`; null when it names no rows.
 */
export function rowsOfRange(range: string): { first: number; last: number } | null {
  const cells = range.slice(range.lastIndexOf('!') + 1);
  const m = /^[A-Z]*(\d+)(?::[A-Z]*(\d+))?$/i.exec(cells);
  if (!m) return null;
  const first = Number(m[1]);
  return { first, last: m[2] ? Number(m[2]) : first };
}
