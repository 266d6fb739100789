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
  // The slot is held until the late render has been refused: no race between two timers.
  const release = gate();
  const slow = queue.now(async () => {
    await release.opened;
    return 'slow';
  });
  const late = queue.now(async () => {
    ran++;
    return 'late';
  });
  await expect(late).rejects.toMatchObject({ code: 'BUSY', statusCode: 503, headers: { 'Retry-After': '5' } });
  release.open();
  expect(await slow).toBe('slow');
  // Renders run in arrival order: once a later one has run, the refused one would have too.
  expect(await queue.now(async () => 'later')).toBe('later');
  expect(ran).toBe(0);
});

test('background renders start only while no visitor render waits', async () => {
  const queue = renderQueue(1);
  const order: string[] = [];
  const job = (name: string, until?: Promise<void>) => async () => {
    order.push(name);
    await until;
  };
  // The first visitor's render holds the one slot until the second visitor has arrived
  // after the background render: an event, not a guess of how long 30 ms is.
  const release = gate();
  const first = queue.now(job('visitor-1', release.opened));
  const bg = queue.background(job('background'));
  await new Promise((r) => setImmediate(r)); // the background render is waiting for its turn
  const second = queue.now(job('visitor-2'));
  release.open();
  await Promise.all([first, bg, second]);
  expect(order).toEqual(['visitor-1', 'visitor-2', 'background']);
});

/** A promise the test opens when it chooses. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
