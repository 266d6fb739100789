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
 * A matcher for a fixed set of tokens. Both sides are hashed to 32 bytes so that
 * `timingSafeEqual` compares equal lengths, and every configured token is compared on
 * every call (no early exit), so the time taken says nothing about which token, or how
 * much of one, matched.
 */
export function tokenMatcher(tokens: readonly string[]): (candidate: string) => boolean {
  const hashes = tokens.map(digest);
  return (candidate) => {
    const given = digest(candidate);
    let matched = 0;
    for (const h of hashes) matched |= timingSafeEqual(h, given) ? 1 : 0;
    return matched === 1;
  };
}

/** A new admin token: 32 random bytes, base64url (43 characters, no padding). */
export function generateAdminToken(): string {
  return randomBytes(32).toString('base64url');
}
