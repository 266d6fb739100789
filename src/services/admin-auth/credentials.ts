/**
 * Reading and checking admin credentials, without HTTP: the `Authorization: Bearer`
 * parser and the constant-time token matcher.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the header is
 * absent, empty, of another scheme (Basic, ...) or has no token: all of these count as
 * "no credentials sent". The scheme name is case-insensitive (RFC 9110 §11.1).
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Which of a fixed set of tokens a candidate is: its index, or -1. Both sides are hashed to
 * 32 bytes so that `timingSafeEqual` compares equal lengths, and every configured token is
 * compared on every call (no early exit), so the time taken says nothing about which token,
 * or how much of one, matched.
 */
export function tokenIndex(tokens: readonly string[]): (candidate: string) => number {
  const hashes = tokens.map(digest);
  return (candidate) => {
    const given = digest(candidate);
    let found = -1;
    for (let i = 0; i < hashes.length; i++) {
      const equal = timingSafeEqual(hashes[i] as Buffer, given);
      found = equal ? i : found;
    }
    return found;
  };
}

/** Whether a candidate is one of the tokens (constant time, as `tokenIndex`). */
export function tokenMatcher(tokens: readonly string[]): (candidate: string) => boolean {
  const index = tokenIndex(tokens);
  return (candidate) => index(candidate) >= 0;
}

/** A new admin token: 32 random bytes, base64url (43 characters, no padding). */
export function generateAdminToken(): string {
  return randomBytes(32).toString('base64url');
}
