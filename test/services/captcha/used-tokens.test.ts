import { expect, test } from 'vitest';
import { UsedTokens } from '../../../src/services/captcha/used-tokens.js';

function used(capacity: number) {
  const clock = { now: 1_000_000 };
  return { u: new UsedTokens(capacity, () => clock.now), clock };
}

test('a key is accepted once until it expires', () => {
  const { u, clock } = used(10);
  expect(u.add('a', clock.now + 1000)).toBe(true);
  expect(u.add('a', clock.now + 1000)).toBe(false);
  expect(u.add('b', clock.now + 1000)).toBe(true);
  clock.now += 1000;
  // expired: the token itself is refused elsewhere by then; here the slot is free again
  expect(u.add('a', clock.now + 1000)).toBe(true);
});

test('deleted keys may be used again', () => {
  const { u, clock } = used(10);
  u.add('a', clock.now + 1000);
  u.delete('a');
  expect(u.add('a', clock.now + 1000)).toBe(true);
});

test('memory is bounded: expired entries are swept first, then the oldest is dropped', () => {
  const { u, clock } = used(100);
  for (let i = 0; i < 100; i++) u.add(`old${i}`, clock.now + 10);
  clock.now += 20;
  for (let i = 0; i < 50; i++) expect(u.add(`new${i}`, clock.now + 60_000)).toBe(true);
  expect(u.size).toBe(50); // the 100 expired ones were swept
  for (let i = 50; i < 1000; i++) u.add(`new${i}`, clock.now + 60_000);
  expect(u.size).toBe(100);
  expect(u.add('new999', clock.now + 60_000)).toBe(false); // the newest are remembered
});
