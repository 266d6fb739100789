/** The business settings as the API shows and takes them (docs/contract.md, "Business settings"). */
import { z } from 'zod';
import { hasLineBreak, stripControls } from '../../services/orders/text.js';
import { BUSINESS_KEYS, SavedBusinessSettings } from '../../services/store/ports/business-settings.js';

/** One line of text: trimmed, control characters other than line breaks refused. */
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !hasLineBreak(s), 'one line, without line breaks')
    .refine((s) => stripControls(s) === s, 'no control characters');

const ReturnAddress = z
  .string()
  .max(600)
  .transform((s) =>
    s
      .replace(/\\n/g, '\n')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n'),
  )
  .pipe(
    z
      .string()
      .min(1, 'the return address needs at least one line')
      .refine((s) => s.split('\n').length <= 6, 'at most 6 lines')
      .refine((s) => s.split('\n').every((l) => [...l].length <= 100), 'at most 100 characters a line')
      .refine((s) => stripControls(s.replace(/\n/g, ' ')) === s.replace(/\n/g, ' '), 'no control characters'),
  )
  .describe('Lines separated by `\\n` (a line break); at most 6 lines of 100 characters');

const PublicBaseUrl = z
  .string()
  .trim()
  .max(300)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'an http:// or https:// address without a query, such as https://photos.example.com')
  .transform((s) => s.replace(/\/+$/, ''))
  .describe('The address customers open: links in mail, photo code cards and link previews start with it');

const PaymentInstructions = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .refine((s) => stripControls(s.replace(/\r?\n/g, ' ')) === s.replace(/\r?\n/g, ' '), 'no control characters')
  .transform((s) => s.replace(/\r\n/g, '\n'))
  .describe('What the customer of an unpaid order reads about paying (order page and receipt); line breaks kept');

/** `Name <address@domain.tld>` or `address@domain.tld`. */
const MAILBOX =
  /^(?:[^<>"\r\n]{0,100}<[^\s@<>"]+@[^\s@<>".]+(?:\.[^\s@<>".]+)+>|[^\s@<>"]+@[^\s@<>".]+(?:\.[^\s@<>".]+)+)$/;
const MailFrom = oneLine(254)
  .refine((s) => MAILBOX.test(s), 'a mailbox such as "Jane Doe Photography <photos@example.com>"')
  .describe('Who mail comes from: `Name <address>` or an address (your mail service must allow it)');

export const BusinessSettingsBody = z
  .strictObject({
    businessName: oneLine(100).nullable().optional().describe('The name mail is signed with; null: the default'),
    returnAddress: ReturnAddress.nullable().optional(),
    publicBaseUrl: PublicBaseUrl.nullable().optional(),
    paymentInstructions: PaymentInstructions.nullable().optional(),
    mailFrom: MailFrom.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'name at least one setting to change' })
  .meta({ id: 'BusinessSettingsUpdate' });

const Values = z.object({
  businessName: z.string(),
  returnAddress: z.string().describe('Lines separated by `\\n`'),
  publicBaseUrl: z.string(),
  paymentInstructions: z.string(),
  mailFrom: z.string(),
});

export const BusinessSettingsView = Values.extend({
  saved: z
    .array(z.enum(BUSINESS_KEYS))
    .describe('The settings saved in the dashboard; the others are the environment’s defaults'),
  defaults: Values.describe(
    'The environment’s values (RETURN_ADDRESS, PUBLIC_BASE_URL, MAIL_FROM, BUSINESS_NAME, PAYMENT_INSTRUCTIONS)',
  ),
  warnings: z
    .array(
      z.object({
        field: z.enum(['returnAddress', 'publicBaseUrl']),
        message: z.string(),
      }),
    )
    .describe(
      'What to fix before selling: the placeholder return address, or a public address that is localhost (or another no phone can open); empty when none',
    ),
  updatedAt: SavedBusinessSettings.shape.updatedAt
    .nullable()
    .describe('ISO 8601: the last save; null when nothing was saved'),
  updatedBy: SavedBusinessSettings.shape.updatedBy.nullable().describe('Who saved last (`admin:<8 hex>`)'),
}).meta({ id: 'BusinessSettings' });
