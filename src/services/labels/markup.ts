/**
 * Pango markup for sharp's `text` input. Customer text is always escaped, so `<b>` in a
 * name prints as the four characters `<b>` and an `&` never breaks the markup parser.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeMarkup(text: string): string {
  // Lone surrogates would make Pango reject the whole string: replace them with U+FFFD.
  return text.replace(LONE_SURROGATE, '\ufffd').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Spaces inside a phrase become no-break spaces, so a line only wraps between phrases. */
export function keepTogether(text: string): string {
  return text.replace(/ /g, '\u00a0');
}
