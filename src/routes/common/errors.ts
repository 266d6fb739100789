/**
 * The error answers many routes share, named once: spread them into `errorResponses()` with the
 * route's own codes (it keeps the first of a code given twice, and lists each status's codes in
 * the order given, so a route's own code of a shared status goes after the group).
 */
import type { ErrorCode } from '../../errors/catalogue.js';

/** Any admin route: a bad query or body, no token or a wrong one (counted per address), the store down. */
export const ADMIN_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'UNAUTHORIZED', 'RATE_LIMITED', 'STORE_UNAVAILABLE'];

/** Any route reading a JSON body: what Fastify answers before the handler (a bad, large or other body). */
export const BODY_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/** An admin route reading a JSON body. */
export const ADMIN_BODY_ERRORS: ErrorCode[] = [...ADMIN_ERRORS, ...BODY_ERRORS];

/** A public route reading a JSON body and writing it down: rate limited per address, the store may be down. */
export const PUBLIC_BODY_ERRORS: ErrorCode[] = [...BODY_ERRORS, 'RATE_LIMITED', 'STORE_UNAVAILABLE'];

/** A public route guarded by a CAPTCHA, or a staff token instead (docs/contract.md, "Who may submit"). */
export const CAPTCHA_ERRORS: ErrorCode[] = [
  'CAPTCHA_REQUIRED',
  'UNAUTHORIZED',
  'CAPTCHA_FAILED',
  'CAPTCHA_UNAVAILABLE',
];
