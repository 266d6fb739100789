/**
 * Signed download links (docs/contract.md, "Selling"):
 *   ${PUBLIC_BASE_URL}/api/downloads/<orderId>.<line>.<expires>.<mac>
 * `mac` is an HMAC-SHA256 with DOWNLOAD_LINK_SECRET (or one generated under DATA_DIR),
 * compared in constant time. A link grants one line until it expires; payment and downloads
 * left are checked when it is followed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'dl1';
/** The shape of a token; the route refuses anything else as 400 before any check. */
export const DOWNLOAD_TOKEN = /^([0-9a-f-]{36})\.(\d{1,3})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const DOWNLOAD_PATH = '/api/downloads';

export type DownloadTokenCheck =
  | { ok: true; orderId: string; line: number; expiresAt: Date }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

export interface DownloadLinkSigner {
  token(orderId: string, line: number, expiresAt: Date): string;
  url(orderId: string, line: number, expiresAt: Date): string;
  /** Signature and expiry. */
  check(token: string, now?: Date): DownloadTokenCheck;
}

/** `publicBaseUrl`: the address links start with, or a function giving it as it is now (business settings). */
export function createDownloadLinkSigner(secret: string, publicBaseUrl: string | (() => string)): DownloadLinkSigner {
  const base = typeof publicBaseUrl === 'function' ? publicBaseUrl : () => publicBaseUrl;
  if (secret.length < 16) throw new Error('the download-link secret must be at least 16 characters');
  const mac = (orderId: string, line: string, expires: string) =>
    createHmac('sha256', secret).update(`${VERSION}.${orderId}.${line}.${expires}`).digest('base64url');

  const token = (orderId: string, line: number, expiresAt: Date) => {
    if (!Number.isInteger(line) || line < 1 || line > 999) throw new RangeError(`not an order line: ${line}`);
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return `${orderId.toLowerCase()}.${line}.${expires}.${mac(orderId.toLowerCase(), String(line), expires)}`;
  };

  return {
    token,
    url: (orderId, line, expiresAt) => `${base()}${DOWNLOAD_PATH}/${token(orderId, line, expiresAt)}`,
    check(raw, now = new Date()) {
      const m = DOWNLOAD_TOKEN.exec(raw);
      if (!m) return { ok: false, reason: 'malformed' };
      const [, orderId = '', line = '', expires = '', given = ''] = m;
      // Compared as text: two spellings of one MAC (the spare bits of the last character) differ.
      const expected = Buffer.from(mac(orderId, line, expires));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
        return { ok: false, reason: 'signature' };
      }
      const expiresAt = new Date(Number(expires) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, orderId, line: Number(line), expiresAt };
    },
  };
}
