/**
 * A browser's push subscription (`PushSubscription.toJSON()`), as every route that takes one
 * validates it. docs/contract.md, "Hardening", says why it is checked this closely.
 */
import { ECDH } from 'node:crypto';
import { z } from 'zod';

/** base64url (padding tolerated) that decodes to exactly `bytes` bytes. */
function base64urlKey(bytes: number, what: string) {
  return z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, `${what} must decode to ${bytes} bytes`);
}

/** Whether `v` (base64url, 65 bytes) is a point on P-256: the key the push is encrypted to. */
function isP256Point(v: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(v, 'base64url'), 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/**
 * The push service URL: https. Which hosts and ports are acceptable is the configuration's
 * (services/push/egress.ts), checked by the route and again at send time.
 */
export const PushEndpoint = z.url({ protocol: /^https$/, message: 'endpoint must be an https URL' }).max(2048);

export const PushKeys = z.object({
  p256dh: base64urlKey(65, 'keys.p256dh')
    .refine((v) => Buffer.from(v, 'base64url')[0] === 0x04, 'keys.p256dh must be an uncompressed P-256 point')
    .refine(isP256Point, 'keys.p256dh must be a point on the P-256 curve'),
  auth: base64urlKey(16, 'keys.auth'),
});
