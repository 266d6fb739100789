/** The finder routes' schemas (docs/contract.md, "Finding one's photos, and intake"). */
import { z } from 'zod';
import { CustomerEmail } from '../../schemas/customer.js';
import { PushEndpoint, PushKeys } from '../../schemas/push-subscription.js';
import { PhotoCodeRecord } from '../../services/store/ports/photo-codes.js';

export const CodeParams = z.object({
  code: z
    .string()
    .min(1)
    .max(32)
    .describe(
      'The photo code: 8 characters of Crockford base32, any case (I and L read as 1, O as 0, hyphens ignored)',
    ),
});

export const IssueBody = z
  .object({
    captchaToken: z
      .string()
      .max(4096)
      .optional()
      .describe('The CAPTCHA solution (or the `X-Captcha-Token` header); not needed with admin credentials'),
  })
  .meta({ id: 'PhotoCodeRequest' });

export const IssuedCode = z
  .object({
    code: PhotoCodeRecord.shape.code.describe(
      'The new photo code, canonical (8 characters of Crockford base32, upper case)',
    ),
    url: z.string().describe("`PUBLIC_BASE_URL/me/<code>`: the attendee's photos page, and what the QR holds"),
    qrSvg: z.string().describe('The QR code of `url` as a standalone SVG document (black on white)'),
  })
  .meta({ id: 'PhotoCode' });

export const CardsQuery = z.object({
  count: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(10)
    .describe('How many cards (each a freshly issued code); ten fit a page'),
  paper: z
    .enum(['letter', 'a4'])
    .default('letter')
    .describe('letter: 3.5 × 2 in cards (as Avery 8371); a4: 85 × 54 mm cards (as Avery C32011)'),
});

export const CodeSubscribeBody = z
  .object({
    endpoint: PushEndpoint.optional().describe('Push: the browser subscription’s push service URL'),
    expirationTime: z.number().nullable().optional().describe('From the browser; not used'),
    keys: PushKeys.optional().describe('Push: p256dh (65-byte P-256 point) and auth (16 bytes), base64url'),
    email: CustomerEmail.optional().describe('Email: where to send the notices (instead of a push subscription)'),
  })
  .refine((b) => (b.email === undefined) !== (b.endpoint === undefined && b.keys === undefined), {
    message: 'send either a push subscription (endpoint and keys) or an email, not both',
  })
  .refine((b) => b.email !== undefined || (b.endpoint !== undefined && b.keys !== undefined), {
    message: 'a push subscription needs both endpoint and keys',
  })
  .meta({ id: 'PhotoCodeSubscribeRequest' });

export const CodeSubscribeResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    channel: z.enum(['push', 'email']),
    confirmed: z
      .boolean()
      .describe('false: an email address that waits for its owner to confirm it from the mail we sent'),
  })
  .meta({ id: 'PhotoCodeSubscribeResponse' });

export const ConfirmEmailQuery = z.object({
  token: z.string().max(200).optional().describe('The token of the confirmation link'),
});

export const ConfirmEmailBody = z
  .object({ token: z.string().max(200).describe('The token of the confirmation link') })
  .meta({ id: 'PhotoCodeEmailConfirmRequest' });
