import { expect, test } from 'vitest';
import { limiter } from '../../../src/services/images/limiter.js';

test('runs at most `concurrency` tasks at once, in arrival order, through failures', async () => {
  const limit = limiter(2);
  let active = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (i: number) => async () => {
    started.push(i);
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 5));
    active--;
    if (i === 2) throw new Error('boom');
    return i;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limit(task(i))));
  expect(peak).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results.map((r) => r.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
    'fulfilled',
    'fulfilled',
  ]);
  // The slot of the failed task was given back: a new task starts at once.
  expect(await limit(async () => 'after')).toBe('after');
});
