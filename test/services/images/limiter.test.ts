import { setTimeout as delay } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { renderQueue } from '../../../src/services/images/limiter.js';

test('runs at most `concurrency` renders at once, in arrival order, through failures', async () => {
  const queue = renderQueue(2);
  let active = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (i: number) => async () => {
    started.push(i);
    active++;
    peak = Math.max(peak, active);
    await delay(5);
    active--;
    if (i === 2) throw new Error('boom');
    return i;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => queue.now(task(i))));
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
  expect(await queue.now(async () => 'after')).toBe('after');
});

test('a render that cannot start within the timeout is refused with BUSY, and never runs', async () => {
  const queue = renderQueue(1, { timeoutMs: 30 });
  let ran = 0;
  const slow = queue.now(async () => {
    await delay(120);
    return 'slow';
  });
  const late = queue.now(async () => {
    ran++;
    return 'late';
  });
  await expect(late).rejects.toMatchObject({ code: 'BUSY', statusCode: 503, headers: { 'Retry-After': '5' } });
  expect(await slow).toBe('slow');
  await delay(10);
  expect(ran).toBe(0);
});

test('background renders start only while no visitor render waits', async () => {
  const queue = renderQueue(1);
  const order: string[] = [];
  const job = (name: string, ms: number) => async () => {
    order.push(name);
    await delay(ms);
  };
  const first = queue.now(job('visitor-1', 30));
  const bg = queue.background(job('background', 5));
  await delay(5);
  const second = queue.now(job('visitor-2', 5));
  await Promise.all([first, bg, second]);
  expect(order).toEqual(['visitor-1', 'visitor-2', 'background']);
});
