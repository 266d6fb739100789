/** A counting semaphore: at most `size` calls of `run` are in flight at once. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Runs `fn` over `items` with `workers` workers pulling the next index. Unlike mapping all
 * items to promises at once, 50,000 files cost `workers` promises at a time, not 50,000:
 * less memory at the peak and no long waiting queues. `worker` (0…workers-1) lets each
 * worker reuse its own buffers.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  workers: number,
  fn: (item: T, worker: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const run = async (worker: number) => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item, worker);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, items.length) }, (_, w) => run(w)));
}
