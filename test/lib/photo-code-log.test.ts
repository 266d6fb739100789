/** Photo codes as logs show them (src/lib/photo-code-log.ts): 2 characters and a keyed hash. */
import { expect, test } from 'vitest';
import { codeForLog, codesRedacted } from '../../src/lib/photo-code-log.js';

test('a code is its first 2 characters and a hash, the same for every spelling of it', () => {
  const shown = codeForLog('K7M2Q9TX');
  expect(shown).toMatch(/^K7~[0-9a-f]{8}$/);
  expect(codeForLog('k7m2-q9tx')).toBe(shown);
  expect(codeForLog('K7M2Q9TY')).not.toBe(shown);
});

test('codes in a code path are redacted, other paths are left as they are', () => {
  const k = codeForLog('K7M2Q9TX');
  expect(codesRedacted('/api/finder/K7M2Q9TX')).toBe(`/api/finder/${k}`);
  expect(codesRedacted('/api/finder/k7m2-q9tx/subscribe?x=1')).toBe(`/api/finder/${k}/subscribe?x=1`);
  expect(codesRedacted('/me/K7M2%2DQ9TX')).toBe(`/me/${k}`);
  expect(codesRedacted("'/me/K7M2Q9TX%E0%A4%A' is not a valid url component")).not.toContain('K7M2Q9TX');
  for (const same of [
    '/api/finder/cards.pdf?count=3',
    '/api/finder/confirm-email?token=abc',
    '/event/Con/Day%201',
    '/api/orders/AX25-0001',
  ]) {
    expect(codesRedacted(same)).toBe(same);
  }
});
