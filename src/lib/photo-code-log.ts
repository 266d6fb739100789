/**
 * Photo codes as logs may show them (docs/contract.md, "Hardening, round 2"): a code is the key
 * to someone's photos (`/me/<code>` lists them), and logs are collected and kept by other
 * systems, read by more people than the photos are meant for. A log shows a code's first 2
 * characters and a keyed hash of it (`K7~3f09a2c1`): lines about one code can be told apart
 * and followed, and nobody can get the code back. The key is drawn when the process starts,
 * so not even a 40-bit search over every code can reverse the hash.
 *
 * `codesRedacted` does it to the URLs (and messages quoting them) that carry a code in their
 * path: `/api/finder/<code>...` and `/me/<code>...`, whatever the code's spelling.
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
