import { describe, expect, test } from 'vitest';
import { bearerToken, generateAdminToken, tokenMatcher } from '../../../src/services/admin-auth/credentials.js';

describe('bearerToken', () => {
  test.each([
    ['Bearer abc123', 'abc123'],
    ['bearer abc123', 'abc123'],
    ['BEARER   abc123  ', 'abc123'],
  ])('%s carries a token', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  test.each([undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer two tokens', 'Bearerabc'])(
    '%s is no credentials',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});

describe('tokenMatcher', () => {
  const a = 'first-admin-token-0123456789';
  const b = 'second-admin-token-abcdefghij';

  test('accepts every configured token and nothing else', () => {
    const matches = tokenMatcher([a, b]);
    expect(matches(a)).toBe(true);
    expect(matches(b)).toBe(true);
    expect(matches(a.slice(0, -1))).toBe(false);
    expect(matches(`${a}x`)).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches('x'.repeat(10_000))).toBe(false);
  });

  test('no tokens configured: nothing matches', () => {
    expect(tokenMatcher([])('anything-at-all-0123456789')).toBe(false);
  });

  test('generated tokens are long, URL-safe and distinct', () => {
    const t1 = generateAdminToken();
    const t2 = generateAdminToken();
    expect(t1).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(t1).not.toBe(t2);
  });
});
