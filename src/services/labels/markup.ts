/**
 * Pango markup for sharp's `text` input. Customer text is always escaped
 * with src/lib/escape.ts before it goes into markup.
 */

/** Spaces inside a phrase become no-break spaces, so a line only wraps between phrases. */
export function keepTogether(text: string): string {
  return text.replace(/ /g, '\u00a0');
}
