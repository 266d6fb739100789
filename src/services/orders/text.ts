/**
 * What customer text may contain (docs/contract.md, "Orders"). Single-line fields go on
 * labels, into mail headers and the spreadsheet, so a line break is refused, never joined
 * (it would let text spill into another header or label line); other control characters and
 * bidi overrides (which can show text in another order than stored) are removed; a lone
 * surrogate is refused. Formula-like text stays text: the Sheets adapter writes RAW.
 */
const LINE_BREAKS = new Set([0x0a, 0x0d, 0x85, 0x2028, 0x2029]);

function isStripped(code: number): boolean {
  return (
    code <= 0x1f || // C0 (tab handled before)
    (code >= 0x7f && code <= 0x9f) || // DEL, C1
    (code >= 0x202a && code <= 0x202e) || // LRE, RLE, PDF, LRO, RLO
    (code >= 0x2066 && code <= 0x2069) // LRI, RLI, FSI, PDI
  );
}

/** True when `text` holds a line break of any kind. */
export function hasLineBreak(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (LINE_BREAKS.has(text.charCodeAt(i))) return true;
  }
  return false;
}

/** Removes control and bidi-override characters (tab → space). Line breaks must be refused before. */
export function stripControls(text: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x09) {
      out += `${text.slice(start, i)} `;
      start = i + 1;
    } else if (isStripped(code)) {
      out += text.slice(start, i);
      start = i + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No lone surrogate: JSON can carry one, but no store, mail or label can (it would become U+FFFD). */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Length in characters as a person counts them (code points, so an emoji is one). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Phone: 7–20 digits, written with digits and `+ ( ) - .` and spaces only. */
const PHONE_CHARS = /^[0-9+().\- ]+$/;
const PHONE_MIN_DIGITS = 7;
const PHONE_MAX_DIGITS = 20;

export function phoneProblem(phone: string): string | undefined {
  if (!PHONE_CHARS.test(phone)) return 'may contain only digits, spaces and + ( ) - .';
  let digits = 0;
  for (let i = 0; i < phone.length; i++) {
    const c = phone.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
  }
  if (digits < PHONE_MIN_DIGITS || digits > PHONE_MAX_DIGITS) {
    return `must have ${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits`;
  }
  return undefined;
}
