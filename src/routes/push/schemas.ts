/**
 * Push subscription bodies (docs/contract.md, "Notifications"): what `PushSubscription.toJSON()` gives in a browser
 * (`endpoint`, `expirationTime`, `keys.p256dh`, `keys.auth`), plus `orderNumber` and `email`
 * for a customer's subscription to one order.
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
 * The push service URL: https. Which hosts are acceptable (not an IP address or a local name,
 * unless PUSH_ALLOW_HOSTS names them) is checked by the route against the configuration
 * (services/push/egress.ts), and the address connected to is checked again at send time.
 */
const PushEndpoint = z.url({ protocol: /^https$/, message: 'endpoint must be an https URL' }).max(2048);

const PushKeys = z.object({
  p256dh: base64urlKey(65, 'keys.p256dh')
    .refine((v) => Buffer.from(v, 'base64url')[0] === 0x04, 'keys.p256dh must be an uncompressed P-256 point')
    .refine(isP256Point, 'keys.p256dh must be a point on the P-256 curve'),
  auth: base64urlKey(16, 'keys.auth'),
});

export const SubscribeBody = z
  .object({
    endpoint: PushEndpoint.describe('Push service URL from the browser subscription'),
    expirationTime: z.number().nullable().optional().describe('From the browser; not used'),
    keys: PushKeys.describe('The subscription keys: p256dh (65-byte P-256 point) and auth (16 bytes), base64url'),
    orderNumber: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('For a customer: the order to follow (with `email`). Not needed with admin credentials.'),
    email: z
      .string()
      .trim()
      .min(1)
      .max(254)
      .optional()
      .describe("For a customer: the order's email address, compared case-insensitively"),
  })
  .meta({ id: 'PushSubscribeRequest' });
export type SubscribeBody = z.infer<typeof SubscribeBody>;

export const SubscribeResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    scope: z.enum(['admin', 'order']).describe('admin: every order event; order: that order’s status and shipping'),
  })
  .meta({ id: 'PushSubscribeResponse' });

export const PublicKeyResponse = z
  .object({ publicKey: z.string().describe('VAPID public key (base64url), the applicationServerKey for subscribe()') })
  .meta({ id: 'PushPublicKey' });
