/**
 * Making customer text safe for mail (HTML bodies use src/lib/escape.ts): stripped of line breaks
 * (and other control characters) wherever it could reach a header, so no name, subject or
 * tracking number can start a header of its own (`\r\nBcc: ...`).
 */

/**
 * One line of header text: every control character (CR, LF, TAB, NUL, DEL, C1, and the
 * Unicode line/paragraph separators) becomes a space, runs of spaces collapse, and the
 * result is cut to `max` characters.
 */
export function headerText(text: string, max = 200): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

/**
 * A mailbox address that can safely go into an envelope and a header: one address,
 * no whitespace, control characters, quotes, brackets, commas or semicolons. Orders are
 * validated when taken; this is the last check before a transport sees the address.
 */
export function isSafeAddress(address: string): boolean {
  if (address.length > 254 || /\p{Cc}/u.test(address)) return false;
  // local@domain.tld — printable ASCII or non-ASCII (IDN), nothing that separates addresses.
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/u.test(address);
}
