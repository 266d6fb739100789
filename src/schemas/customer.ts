/**
 * The customer fields, defined once for every body that takes them: both order submissions
 * and the admin's order edits. Limits: docs/contract.md, "Orders"; lengths count code points.
 * Every field is one line of text (services/orders/text.ts). Whether a state and ZIP exist
 * is the address check's to say.
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
