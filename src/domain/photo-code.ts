/**
 * Photo codes (docs/contract.md, "Finding one's photos, and intake"): the one place their
 * format is written down. A code is 8 characters of Crockford base32 (digits and letters
 * without I, L, O and U), 40 random bits; read case-insensitively, with I and L read as 1,
 * O as 0, and hyphens or spaces ignored, so a code typed from a printed card still matches.
 * The QR an attendee shows holds the URL `PUBLIC_BASE_URL/me/<code>`.
 */
import { randomBytes } from 'node:crypto';

export const PHOTO_CODE_LENGTH = 8;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** What a typed character means: Crockford's decoding, upper-cased. */
const READ: Record<string, string> = { I: '1', L: '1', O: '0' };

/** A new random code (40 bits, one character per 5 bits). */
export function newPhotoCode(random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = random(5);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let code = '';
  for (let i = PHOTO_CODE_LENGTH - 1; i >= 0; i--) code += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return code;
}

/** The canonical code (upper case) for what a person typed or a QR held; undefined when it is not one. */
export function parsePhotoCode(text: string): string | undefined {
  if (text.length > 32) return undefined;
  let code = '';
  for (const raw of text.toUpperCase()) {
    if (raw === '-' || raw === ' ') continue;
    const c = READ[raw] ?? raw;
    if (!ALPHABET.includes(c)) return undefined;
    code += c;
  }
  return code.length === PHOTO_CODE_LENGTH ? code : undefined;
}

/** `PUBLIC_BASE_URL/me/<code>`: what the QR encodes and the attendee's "my photos" page. */
export function photoCodeUrl(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/me/${code}`;
}

/**
 * The code in a QR's text: a URL whose path ends in `/me/<code>`, on any host (the
 * photographer's server may have been reached under another name when the code was made),
 * or the bare code. Anything else (a poster's QR in the background) is not a photo code.
 */
export function photoCodeFromQr(payload: string): string | undefined {
  const text = payload.trim();
  if (!/^https?:\/\//i.test(text)) return parsePhotoCode(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const m = /\/me\/([^/]+)\/?$/.exec(url.pathname);
  return m?.[1] ? parsePhotoCode(decodeURIComponent(m[1])) : undefined;
}
