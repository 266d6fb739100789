/**
 * A1 notation for the Sheets emulator, written independently of the adapter's own helpers
 * so a shared bug cannot hide itself. Handles what the real API accepts and the adapter
 * uses: `Sheet!A1:B2`, whole columns `A:U`, open ranges `A2:U`, whole rows `2:5`, single
 * cells `A5`, a bare sheet name (the whole sheet), and quoted names (`'My Orders'!A1`,
 * with `''` standing for a quote inside the name). Rows and columns are 0-based here.
 */

/** A parsed range: inclusive bounds, `undefined` end = open (to the end of the grid). */
export type A1Range = {
  /** Sheet title, or undefined when the text named no sheet (the first sheet is meant). */
  sheet: string | undefined;
  r0: number;
  c0: number;
  r1: number | undefined;
  c1: number | undefined;
};

export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The real API quotes a sheet name unless it is a plain identifier. */
export function quoteSheet(title: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title)
    ? title
    : `'${title.replaceAll("'", "''")}'`;
}

export function formatA1(title: string, r0: number, c0: number, r1: number, c1: number): string {
  const a = `${columnLetters(c0)}${r0 + 1}`;
  const b = `${columnLetters(c1)}${r1 + 1}`;
  return `${quoteSheet(title)}!${a === b ? a : `${a}:${b}`}`;
}

const REF = /^([A-Za-z]{0,3})(\d{0,7})$/;

function isCellPart(text: string): boolean {
  const parts = text.split(':');
  if (parts.length > 2) return false;
  return parts.every((p) => p.length > 0 && REF.test(p));
}

/** Parses A1 text; throws an Error with the API's wording when it cannot. */
export function parseA1(text: string): A1Range {
  let sheet: string | undefined;
  let cells: string | undefined;
  if (text.startsWith("'")) {
    let i = 1;
    let name = '';
    for (;;) {
      if (i >= text.length) throw new Error(`Unable to parse range: ${text}`);
      const ch = text[i] as string;
      if (ch === "'") {
        if (text[i + 1] === "'") {
          name += "'";
          i += 2;
          continue;
        }
        i += 1;
        break;
      }
      name += ch;
      i += 1;
    }
    sheet = name;
    const rest = text.slice(i);
    if (rest === '') cells = undefined;
    else if (rest.startsWith('!')) cells = rest.slice(1);
    else throw new Error(`Unable to parse range: ${text}`);
  } else {
    const bang = text.lastIndexOf('!');
    if (bang >= 0) {
      sheet = text.slice(0, bang);
      cells = text.slice(bang + 1);
    } else if (isCellPart(text)) {
      cells = text;
    } else {
      sheet = text;
    }
  }
  if (cells === undefined || cells === '') return { sheet, r0: 0, c0: 0, r1: undefined, c1: undefined };
  if (!isCellPart(cells)) throw new Error(`Unable to parse range: ${text}`);
  const [startText, endText] = cells.split(':') as [string, string | undefined];
  const start = REF.exec(startText) as RegExpExecArray;
  const sCol = start[1] ? columnIndex(start[1]) : undefined;
  const sRow = start[2] ? Number(start[2]) - 1 : undefined;
  if (sRow !== undefined && sRow < 0) throw new Error(`Unable to parse range: ${text}`);
  if (endText === undefined) {
    // A single reference: a cell, a whole column (`A`) or a whole row (`5`).
    return {
      sheet,
      r0: sRow ?? 0,
      c0: sCol ?? 0,
      r1: sRow,
      c1: sCol,
    };
  }
  const end = REF.exec(endText) as RegExpExecArray;
  const eCol = end[1] ? columnIndex(end[1]) : undefined;
  const eRow = end[2] ? Number(end[2]) - 1 : undefined;
  if (eRow !== undefined && eRow < 0) throw new Error(`Unable to parse range: ${text}`);
  const range: A1Range = { sheet, r0: sRow ?? 0, c0: sCol ?? 0, r1: eRow, c1: eCol };
  if ((range.r1 !== undefined && range.r1 < range.r0) || (range.c1 !== undefined && range.c1 < range.c0)) {
    throw new Error(`Unable to parse range: ${text}`);
  }
  return range;
}
