/**
 * The customer fields, defined once for every body that takes them: both order submissions
 * (variants A and B) and the admin's order edits (`PUT /api/orders/{id}`).
 *
 * Limits (docs/contract.md, "Orders"): name 1–100 characters; email RFC-valid (the common dot-atom form), at
 * most 254 characters, local part ≤ 64; phone 7–20 digits written with digits, spaces and
 * `+ ( ) - .`; street ≤ 200, city ≤ 100, state ≤ 50, ZIP ≤ 20. Lengths count characters
 * (code points), not UTF-16 units. Whether a state and ZIP exist and match is the address
 * check's to say (400 ADDRESS_INVALID), for new orders and edits alike.
 *
 * Every field is one line of text (services/orders/text.ts): a line break (CR, LF, NEL,
 * U+2028, U+2029) is refused, never joined; other control characters and bidi overrides are
 * removed, a tab becomes a space; lone surrogates are refused; surrounding spaces are trimmed.
 */
import { z } from 'zod';
import { charLength, hasLineBreak, isWellFormed, phoneProblem, stripControls } from '../services/orders/text.js';

/** One line of customer text: no line breaks, control characters removed, trimmed, `min`–`max` characters. */
function line(max: number, min = 0) {
  return (
    z
      .string()
      .max(max * 2 + 64)
      .refine((s) => !hasLineBreak(s), { message: 'must be a single line (no line breaks)', abort: true })
      .refine(isWellFormed, { message: 'must be well-formed Unicode', abort: true })
      .transform((s) => stripControls(s).trim())
      .refine((s) => charLength(s) >= min, { message: min === 1 ? 'must not be empty' : `at least ${min} characters` })
      .refine((s) => charLength(s) <= max, { message: `at most ${max} characters` })
      // The document states the limits as JSON Schema counts them (characters, not UTF-16 units).
      .meta({ maxLength: max, ...(min > 0 ? { minLength: min } : {}) })
  );
}

export const CustomerName = line(100, 1).describe('1–100 characters, one line');

export const CustomerEmail = z
  .string()
  .max(254 + 64) // spaces around it are trimmed first
  .trim()
  .pipe(z.email({ message: 'must be a valid email address' }).max(254, { message: 'at most 254 characters' }))
  .refine((s) => s.indexOf('@') <= 64, { message: 'the part before @ may have at most 64 characters' })
  .meta({ maxLength: 254, format: 'email' })
  .describe('Email address (at most 254 characters); receipts and the confirmation link go here');

/** A phone number, or '' for none. */
export const Phone = z
  .string()
  .max(64)
  .trim()
  .superRefine((s, ctx) => {
    if (s === '') return;
    const problem = phoneProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: `phone ${problem}` });
  });

export const RequiredPhone = Phone.refine((s) => s !== '', { message: 'must not be empty' }).describe(
  '7–20 digits, written with digits, spaces and `+ ( ) - .`',
);

/** Absent means none (''). */
export const OptionalPhone = Phone.optional()
  .transform((s) => s ?? '')
  .describe('Optional: 7–20 digits, written with digits, spaces and `+ ( ) - .`');

export const Street = line(200).describe('Street address');
export const City = line(100);
export const State = line(50).describe('State code, e.g. `IL`');
export const Zip = line(20).describe('ZIP or ZIP+4');
