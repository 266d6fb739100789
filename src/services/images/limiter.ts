/**
 * At most `concurrency` tasks at once, the rest queued in arrival order. Decoding a
 * 24 MP original takes a core and tens of MB; more renders at once than cores only adds
 * memory and latency (and would starve the libuv pool that file reads share).
 */
export type Limit = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(concurrency: number): Limit {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (active < concurrency) active++;
    else await new Promise<void>((resolve) => queue.push(resolve)); // a finishing task hands over its slot
    try {
      return await task();
    } finally {
      const wake = queue.shift();
      if (wake) wake();
      else active--;
    }
  };
}
