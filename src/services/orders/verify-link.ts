/**
 * The signed confirmation link of a held high-value order (docs/contract.md, "Notifications"):
 *   ${PUBLIC_BASE_URL}/api/orders/verify?token=<orderId>.<expires>.<mac>
 * `expires` equals the order's `holdExpiresAt`; `mac` is an HMAC-SHA256 with
 * VERIFY_LINK_SECRET, compared in constant time. Every character is URL-safe, so the link
 * survives mail clients that re-wrap. Single use because confirming works once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';
const TOKEN = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

type LinkCheck = { ok: true; orderId: string; expiresAt: Date } | { ok: false; reason: 'malformed' | 'signature' };

export interface LinkSigner {
  /** The token for `orderId`, valid until `expiresAt` (truncated to whole seconds). */
  token(orderId: string, expiresAt: Date): string;
  /** The absolute link the confirmation mail carries. */
  url(orderId: string, expiresAt: Date): string;
  /** Checks the signature only; expiry is the caller's (it answers 410, not 403). */
  check(token: string | undefined): LinkCheck;
}

export const VERIFY_PATH = '/api/orders/verify';

/** `publicBaseUrl`: the address links start with, or a function giving it as it is now (business settings). */
export function createLinkSigner(secret: string, publicBaseUrl: string | (() => string)): LinkSigner {
  const base = typeof publicBaseUrl === 'function' ? publicBaseUrl : () => publicBaseUrl;
  if (secret.length < 16) throw new Error('the link-signing secret must be at least 16 characters');
  const mac = (orderId: string, expires: string) =>
    createHmac('sha256', secret).update(`${VERSION}.${orderId}.${expires}`).digest();

  const token = (orderId: string, expiresAt: Date) => {
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    return `${orderId}.${expires}.${mac(orderId, expires).toString('base64url')}`;
  };

  return {
    token,
    url: (orderId, expiresAt) => `${base()}${VERIFY_PATH}?token=${token(orderId, expiresAt)}`,
    check(raw) {
      const m = raw === undefined ? null : TOKEN.exec(raw.trim());
      if (!m) return { ok: false, reason: 'malformed' };
      const [, orderId = '', expires = '', given = ''] = m;
      // Compared as text: two spellings of one MAC (the spare bits of the last character) differ.
      const expected = Buffer.from(mac(orderId, expires).toString('base64url'));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
        return { ok: false, reason: 'signature' };
      }
      return { ok: true, orderId, expiresAt: new Date(Number(expires) * 1000) };
    },
  };
}
