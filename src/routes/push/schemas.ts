/** Push subscription bodies (docs/contract.md, "Notifications"). */
import { z } from 'zod';
import { PushEndpoint, PushKeys } from '../../schemas/push-subscription.js';
import { PushSubscriptionRecord } from '../../services/store/ports/push-subscriptions.js';

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
    scope: PushSubscriptionRecord.shape.scope,
  })
  .meta({ id: 'PushSubscribeResponse' });

export const PublicKeyResponse = z
  .object({ publicKey: z.string().describe('VAPID public key (base64url), the applicationServerKey for subscribe()') })
  .meta({ id: 'PushPublicKey' });
