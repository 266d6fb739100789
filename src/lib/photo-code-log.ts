/**
 * Photo codes as logs may show them (docs/contract.md, "Hardening, round 2"): a code is the
 * key to someone's photos, and logs are read by more people than the photos are meant for. A
 * log shows a code's first 2 characters and a hash keyed with a key drawn at start
 * (`K7~3f09a2c1`): lines about one code can be followed, and no search over every code can
 * reverse it. `codesRedacted` does it to URLs under `/api/finder/` and `/me/`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const KEY = randomBytes(32);

/** `K7~3f09a2c1`: the first 2 characters and 8 hex digits of a keyed hash of the whole. */
export function codeForLog(code: string): string {
  const canonical = code.toUpperCase().replace(/[-\s]/g, '');
  return `${canonical.slice(0, 2)}~${createHmac('sha256', KEY).update(canonical).digest('hex').slice(0, 8)}`;
}

/** Path segments under these that are not codes. */
const NOT_CODES = new Set(['cards.pdf', 'confirm-email']);
const CODE_SEGMENT = /(\/(?:api\/finder|me)\/)([^/?#\s'"]+)/gi;

/** `text` (a URL, or a message quoting one) with every code in a code's path place redacted. */
export function codesRedacted(text: string): string {
  if (!text.includes('/')) return text;
  return text.replace(CODE_SEGMENT, (whole, prefix: string, segment: string) => {
    if (NOT_CODES.has(segment.toLowerCase())) return whole;
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Malformed percent-encoding: hash it as it came.
    }
    return `${prefix}${codeForLog(decoded)}`;
  });
}
