/**
 * The one escape helper for text placed inside HTML, XML or Pango markup (mail bodies, the
 * confirmation page, label and watermark text rendered by sharp). Customer text always goes
 * through it, so `<b>` in a name prints as the four characters `<b>`.
 *
 * Lone UTF-16 surrogates become U+FFFD: Pango rejects a whole string that holds one, and an
 * HTML page would show garbage for it anyway.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeHtml(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
