import { expect, test } from 'vitest';
import { FailureTracker } from '../../../src/services/admin-auth/failure-tracker.js';

function tracker(maxFailures: number, windowMs: number, maxAddresses?: number) {
  const clock = { now: 1_000_000 };
  const t = new FailureTracker({ maxFailures, windowMs, maxAddresses, now: () => clock.now });
  return { t, clock };
}

test('more than maxFailures within the window locks the address for the window', () => {
  const { t, clock } = tracker(3, 60_000);
  expect(t.recordFailure('a')).toBe(0);
  expect(t.recordFailure('a')).toBe(0);
  expect(t.recordFailure('a')).toBe(0);
  expect(t.lockedFor('a')).toBe(0);
  expect(t.recordFailure('a')).toBe(60_000);
  clock.now += 59_000;
  expect(t.lockedFor('a')).toBe(1_000);
  expect(t.lockedFor('b')).toBe(0);
  clock.now += 1_000;
  expect(t.lockedFor('a')).toBe(0);
  // counting starts afresh after the lockout
  expect(t.recordFailure('a')).toBe(0);
});

test('failures spread over more than the window never lock', () => {
  const { t, clock } = tracker(2, 10_000);
  for (let i = 0; i < 10; i++) {
    expect(t.recordFailure('a')).toBe(0);
    clock.now += 6_000;
  }
});

test('memory is bounded by maxAddresses', () => {
  const { t } = tracker(5, 10_000, 100);
  for (let i = 0; i < 1000; i++) t.recordFailure(`10.0.${i >> 8}.${i & 255}`);
  expect(t.size).toBe(100);
});
